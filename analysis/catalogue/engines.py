"""The registry of engines, read from bin/bindings.properties (its opening comment lists the facts).

bin/ycsb, the distribution and the Java side read the same file: an engine's name, label, binding,
crash promises and notes are written there and in its own module, nowhere else. YCSB_EMBEDDED_ENGINES
names more files of the same format (":"-separated), read after it: a test registers an engine of its
own that way, with no other file changed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

REGISTRY = Path(__file__).resolve().parents[2] / "bin" / "bindings.properties"
EXTRA_REGISTRIES = "YCSB_EMBEDDED_ENGINES"


def _pairs(text: str, sep: str = ",") -> tuple[tuple[str, str], ...]:
    """'a=1,b=2' -> (('a', '1'), ('b', '2'))."""
    out = []
    for part in text.split(sep):
        name, eq, value = part.strip().partition("=")
        if part.strip():
            if not eq:
                raise ValueError(f"'{part.strip()}' is not name=value")
            out.append((name.strip(), value.strip()))
    return tuple(out)


def parse_registry(text: str, where: str = "registry") -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """(name -> binding class, name -> {fact: value}) of one registry file, each in the file's order (pure).

    A key ends at its first ':' or '=', as java.util.Properties reads it; a line with a backslash is refused,
    since Java would read an escape there that this reader and bash's would not."""
    classes: dict[str, str] = {}
    facts: dict[str, dict[str, str]] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#!":
            continue
        if "\\" in line:
            raise ValueError(f"{where}:{number}: a backslash reads differently in Java and here: {line}")
        cut = min((i for i in (line.find(":"), line.find("=")) if i >= 0), default=-1)
        if cut <= 0:
            raise ValueError(f"{where}:{number}: neither name:class nor name.fact=value: {line}")
        key, value = line[:cut].strip(), line[cut + 1 :].strip()
        name, dot, fact = key.partition(".")
        if dot:
            facts.setdefault(name, {})[fact] = value
        else:
            classes[name] = value
    return classes, facts


@dataclass(frozen=True)
class Engine:
    """One suite engine: a registry name with a label."""

    name: str
    label: str
    binding: str  # the bin/ycsb engine it runs through
    props: tuple[tuple[str, str], ...] = ()  # what picks its library
    report_order: int | None = None
    promise_sync: str = ""
    promise_async: str = ""
    withdrawn: tuple[tuple[str, str], ...] = ()
    file_check: tuple[str, tuple[tuple[str, ...], ...]] | None = None  # (file glob, commands)
    upstream_dir_property: str = ""
    scale_workload: str = ""
    notes: Mapping[str, str] = field(default_factory=dict)  # knob or scenario id -> the report's note
    clients: Mapping[str, str] = field(default_factory=dict)  # record layout -> the bin/ycsb engine for it
    published_names: tuple[str, ...] = ()  # its names in the published tables, besides its own
    scale_props: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # step kind -> templates
    close_stats: str = ""  # what it prints at close about its background work: "line" or "table"
    close_stats_levels: str = ""  # the report's words on how its level 1 is held against its target
    close_stats_writes: str = ""  # the report's words on what its count of background writes holds
    mapped_reads: bool = False  # its library reads its tables through memory maps


def _flag(name: str, fact: str, facts: Mapping[str, str]) -> bool:
    value = facts.get(fact, "false")
    if value not in ("true", "false"):
        raise ValueError(f"engine {name}: {fact} is true or false, not '{value}'")
    return value == "true"


def _engine(name: str, facts: Mapping[str, str]) -> Engine:
    files, commands = facts.get("crash.filecheck.files", ""), facts.get("crash.filecheck", "")
    if bool(files) != bool(commands):
        raise ValueError(f"engine {name}: crash.filecheck.files and crash.filecheck go together")
    order = facts.get("report.order")
    return Engine(
        name,
        facts["label"],
        facts.get("binding", name),
        _pairs(facts.get("props", "")),
        int(order) if order else None,
        facts.get("crash.promise.sync", ""),
        facts.get("crash.promise.async", ""),
        _pairs(facts.get("crash.withdrawn", "")),
        (files, tuple(tuple(c.split()) for c in commands.split(";") if c.strip())) if files else None,
        facts.get("upstream.dirproperty", ""),
        facts.get("scale.workload", ""),
        {k.removeprefix("note."): v for k, v in facts.items() if k.startswith("note.")},
        {k.removeprefix("client."): v for k, v in facts.items() if k.startswith("client.")},
        tuple(n.strip() for n in facts.get("published.names", "").split(",") if n.strip()),
        {k.removeprefix("scale.props."): _pairs(v) for k, v in facts.items() if k.startswith("scale.props.")},
        facts.get("report.closestats", ""),
        facts.get("report.closestats.levels", ""),
        facts.get("report.closestats.writes", ""),
        _flag(name, "reads.mapped", facts),
    )


@dataclass(frozen=True)
class Registry:
    classes: Mapping[str, str]  # every bin/ycsb engine -> its binding class
    engines: tuple[Engine, ...]  # the suite's engines, in the registry's order
    modules: Mapping[str, str] = field(default_factory=dict)  # a bin/ycsb engine's `module`, where it has one

    def module_of(self, binding: str) -> str:
        """The directory of a bin/ycsb engine's classpath, as bin/ycsb finds it: its `module`, else the
        <name before "-">-binding (a second client is in its binding's module)."""
        return self.modules.get(binding) or f"{binding.split('-', 1)[0]}-binding"

    @property
    def by_name(self) -> Mapping[str, Engine]:
        return {e.name: e for e in self.engines}

    @property
    def report_order(self) -> tuple[str, ...]:
        """The report's engine order: by `report.order`, then the engines without one in the registry's order."""
        ordered = sorted((e for e in self.engines if e.report_order is not None), key=lambda e: e.report_order or 0)
        return tuple(e.name for e in (*ordered, *(e for e in self.engines if e.report_order is None)))


def registry_files(environ: Mapping[str, str] | None = None) -> list[Path]:
    extra = (os.environ if environ is None else environ).get(EXTRA_REGISTRIES, "")
    return [REGISTRY, *(Path(p) for p in extra.split(":") if p)]


def load_registry(paths: list[Path] | None = None) -> Registry:
    """The registry from its files, a later file adding engines and facts to the earlier ones."""
    classes: dict[str, str] = {}
    facts: dict[str, dict[str, str]] = {}
    for path in registry_files() if paths is None else paths:
        more_classes, more_facts = parse_registry(path.read_text(), str(path))
        classes.update(more_classes)
        for name, f in more_facts.items():
            facts.setdefault(name, {}).update(f)
    engines = tuple(_engine(n, f) for n, f in facts.items() if "label" in f)
    for e in engines:
        for binding in (e.binding, *e.clients.values()):
            if binding not in classes:
                raise ValueError(f"engine {e.name}: {binding} has no name:class line")
    modules = {n: f["module"] for n, f in facts.items() if "module" in f}
    return Registry(classes, engines, modules)


REGISTERED = load_registry()
