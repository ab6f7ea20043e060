"""The one command line, `python -m analysis COMMAND`: dispatch, the catalogue, refusals."""

from __future__ import annotations

import subprocess
import sys

import pytest

from analysis.cli.main import COMMANDS, command_main
from analysis.running import run_args

from .conftest import REPO, run_analysis


def analysis(*args: str) -> subprocess.CompletedProcess[str]:
    return run_analysis(*args, timeout=60)


def test_list_prints_the_selected_scenarios_with_their_steps() -> None:
    done = analysis("list", "--scenarios", "2B", "seqread")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["seqread", "batch-seqwrite", "batch-randwrite"]
    assert lines[0].split()[1:3] == ["1", "leveldb,leveldb-system,rocksdb,sqlite,kyoto,lmdb"]
    assert lines[0].endswith("load randwrite ; run seqread")


def test_list_refuses_an_unknown_scenario_by_name() -> None:
    done = analysis("list", "--scenarios", "nonsense")
    assert done.returncode == 2
    assert "no scenario matches 'nonsense'" in done.stderr


def test_an_unknown_or_missing_command_names_the_commands() -> None:
    for args in (("bogus",), ()):
        done = analysis(*args)
        assert done.returncode == 2
        assert "run" in done.stderr and "compare" in done.stderr and "crash" in done.stderr
    assert "unknown command 'bogus'" in analysis("bogus").stderr


def test_every_command_has_a_main() -> None:
    assert set(COMMANDS) == {"run", "report", "compare", "list", "crash", "rate"}
    for command in COMMANDS:
        assert callable(command_main(command)), command
    assert command_main("suite") is None


def test_crash_runs_the_durability_check() -> None:
    from analysis.running import crash

    assert command_main("crash") is crash.main


def test_report_and_compare_refuse_a_directory_without_results(tmp_path) -> None:
    report = analysis("report", str(tmp_path))
    assert report.returncode == 2 and "holds no suite results" in report.stderr
    compare = analysis("compare", str(tmp_path), str(tmp_path))
    assert compare.returncode == 2 and "holds no suite results" in compare.stderr


def test_the_old_module_entry_points_name_the_new_command() -> None:
    for module, command in (("running.suite", "run"), ("report.report", "report"), ("report.compare", "compare")):
        done = subprocess.run(
            [sys.executable, "-m", f"analysis.{module}", "--quick"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 1 and not done.stdout
        assert f"is now: python -m analysis {command} --quick" in done.stderr


def test_run_refuses_a_matrix_of_no_cells(tmp_path) -> None:
    home = tmp_path / "ycsb-0.17.0"  # a release's shape is enough: the refusal comes before any cell
    (home / "bin").mkdir(parents=True)
    (home / "lib").mkdir()
    (home / "lib" / "core-0.17.0.jar").write_bytes(b"")
    (home / "bin" / "bindings.properties").write_text("basic:site.ycsb.BasicDB\n")
    out = tmp_path / "out"
    done = analysis("run", "--engines", "none", "--ycsb-home", str(home), "--out", str(out), "--no-report")
    assert done.returncode == 2, done.stderr
    assert "run: nothing to run, refused: --engines none leaves only the --peer bindings" in done.stderr
    assert not out.exists(), "a refused run leaves no results directory behind"
    # scenarios that apply to none of the engines asked for: as empty
    done = analysis("run", "--engines", "kyoto", "--scenarios", "tinykeys", "--out", str(out), "--no-report")
    assert done.returncode == 2, done.stderr
    assert "apply to none of kyoto" in done.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--cap", "-1"], "--cap -1 is not allowed: expected a whole number of at least 1"),
        (["--cap", "0"], "--cap 0 is not allowed: expected a whole number of at least 1"),
        (["--step-timeout", "-5"], "--step-timeout -5 is not allowed: expected a number of seconds above 0"),
        (["--step-timeout", "0"], "--step-timeout 0 is not allowed: expected a number of seconds above 0"),
        (["--repeat", "0"], "--repeat 0 is not allowed: expected a whole number of at least 1"),
    ],
)
def test_run_refuses_a_bad_count_or_time_naming_it_before_anything_runs(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # --cap -1, --cap 0 and --step-timeout -5 were taken, and then every cell failed
    with pytest.raises(SystemExit) as refused:
        run_args.parse_args(args)
    assert refused.value.code == 2
    assert said in capsys.readouterr().err
