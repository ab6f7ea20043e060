"""The stages' direction: the catalogue, the result readers and the report never import the run (the
subpackage that starts JVMs), so reading a results directory or rendering a report cannot start one,
and each of them can move or be tested without it. Checked on the source with ast, every import form:
`from ..running.x import y`, `from .. import running`, `import analysis.running.x`, and those inside
functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
RUNNING = "analysis.running"
# The stages that must not import RUNNING.
STAGES = ("catalogue", "results", "report")


def module_name(path: Path) -> str:
    """analysis/results/parse.py -> analysis.results.parse; a package's __init__.py is the package."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """Every module an import in `source` names, as absolute names, with its line: a relative import is
    resolved against `module`'s package, and `from PACKAGE import name` counts as PACKAGE.name too."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
    return found


def running_imports(source: str, module: str, is_package: bool = False) -> list[str]:
    return [
        f"line {line}: {name}"
        for line, name in imported_modules(source, module, is_package)
        if name == RUNNING or name.startswith(RUNNING + ".")
    ]


def stage_modules() -> list[Path]:
    return sorted(path for stage in STAGES for path in (PACKAGE / stage).rglob("*.py"))


def test_every_stage_has_modules() -> None:
    # An empty or renamed stage folder would make the check below pass on nothing.
    for stage in STAGES:
        assert len(list((PACKAGE / stage).glob("*.py"))) > 1, stage
    assert (PACKAGE / "running" / "runner.py").is_file()


@pytest.mark.parametrize("path", stage_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_stage_before_the_report_imports_the_run(path: Path) -> None:
    offending = running_imports(path.read_text(), module_name(path), path.name == "__init__.py")
    assert not offending, f"{path.relative_to(PACKAGE.parent)} imports the run: {offending}"


@pytest.mark.parametrize(
    "source",
    [
        "from ..running.runner import stacked_properties\n",
        "from ..running import suite\n",
        "from .. import running\n",
        "import analysis.running.crash\n",
        "from analysis.running.membudget import format_budget\n",
        "def later():\n    from ..running.suite import REPO\n    return REPO\n",
    ],
)
def test_the_check_sees_each_form_of_import(source: str) -> None:
    assert running_imports(source, "analysis.report.report_scale")


@pytest.mark.parametrize(
    "source",
    [
        "from ..results.parse import parse_size\n",
        "from .runner_notes import x\n",  # a sibling whose name only starts like the run's modules
        "import analysis.runningtotal\n",
        "from ..catalogue import scenarios\n",
    ],
)
def test_the_check_lets_other_imports_pass(source: str) -> None:
    assert running_imports(source, "analysis.report.report_scale") == []


def test_relative_imports_resolve_against_the_package() -> None:
    assert imported_modules("from ..running import suite\n", "analysis.report.report") == [
        (1, "analysis.running"),
        (1, "analysis.running.suite"),
    ]
    assert imported_modules("from . import parse\n", "analysis.results", is_package=True) == [
        (1, "analysis.results"),
        (1, "analysis.results.parse"),
    ]
