"""`run --shard auto` takes its part from the scheduler's environment, and the README's two scheduler
examples (docs/examples: a Kubernetes Indexed Job, a Slurm job array) run as written, with the
variables each scheduler sets, so that they cannot rot."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from analysis.catalogue.scenarios import select_engines, select_scenarios
from analysis.running.run_args import parse_args, shard_from_environment
from analysis.running.suite import matrix_cells, shard_cells

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "docs" / "examples"
# A matrix of four tiny cells: each of three parts runs one or two of them.
SMALL = ["--quick", "--engines", "kyoto,sqlite", "--scenarios", "seqwrite", "randwrite", "--cap", "200"]


@pytest.mark.parametrize(
    ("env", "part"),
    [
        ({"JOB_COMPLETION_INDEX": "0", "JOB_COMPLETIONS": "3"}, (1, 3)),
        ({"JOB_COMPLETION_INDEX": "2", "JOB_COMPLETIONS": "3"}, (3, 3)),
        ({"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1"}, (1, 3)),
        ({"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0"}, (3, 3)),
        (
            {
                "SLURM_ARRAY_TASK_ID": "10",
                "SLURM_ARRAY_TASK_COUNT": "3",
                "SLURM_ARRAY_TASK_MIN": "0",
                "SLURM_ARRAY_TASK_STEP": "5",
            },
            (3, 3),
        ),
    ],
)
def test_the_part_comes_from_the_schedulers_variables(env: dict[str, str], part: tuple[int, int]) -> None:
    assert shard_from_environment(env) == part


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({}, "no scheduler's part found"),
        ({"JOB_COMPLETION_INDEX": "1"}, "set JOB_COMPLETIONS"),
        ({"JOB_COMPLETION_INDEX": "3", "JOB_COMPLETIONS": "3"}, "part 4 of 3"),
        ({"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "3"}, "not a whole number"),
        ({"SLURM_ARRAY_TASK_ID": "2"}, "SLURM_ARRAY_TASK_COUNT is missing .*set SLURM_ARRAY_TASK_COUNT to the array's"),
        ({"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1"}, "part 4 of 3"),
    ],
)
def test_a_missing_or_impossible_part_is_refused(env: dict[str, str], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        shard_from_environment(env)


def test_auto_on_the_command_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in list(os.environ):
        if name.startswith(("SLURM_", "JOB_COMPLETION")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("SLURM_ARRAY_TASK_ID", "2")
    monkeypatch.setenv("SLURM_ARRAY_TASK_COUNT", "4")
    monkeypatch.setenv("SLURM_ARRAY_TASK_MIN", "1")
    assert parse_args(["--shard", "auto"]).shard == (2, 4)
    monkeypatch.delenv("SLURM_ARRAY_TASK_ID")
    with pytest.raises(SystemExit):
        parse_args(["--shard", "auto"])
    assert "no scheduler's part found" in capsys.readouterr().err


def scheduler_env(tmp_path: Path, **variables: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "JOB_COMPLETION"))}
    env.update(RESULTS=str(tmp_path / "results"), TMPDIR=str(tmp_path), **variables)
    return env


def ran_part(results: Path, part: tuple[int, int]) -> None:
    """The part's results directory holds exactly the cells of that part of the matrix."""
    suite = json.loads((results / f"part-{part[0]}" / "suite.json").read_text())
    assert suite["shard"] == list(part)
    matrix = matrix_cells(select_engines(["kyoto", "sqlite"]), select_scenarios(["seqwrite", "randwrite"]))
    expected = shard_cells(matrix, part)
    assert sorted((c["engine"], c["scenario"]) for c in suite["cells"]) == sorted((e, s.id) for e, s in expected)
    assert expected and all(c["status"] == "ok" for c in suite["cells"]), suite["cells"]


def test_the_kubernetes_indexed_job_runs_its_part(tmp_path: Path) -> None:
    manifest: dict[str, Any] = yaml.safe_load((EXAMPLES / "kubernetes-indexed-job.yaml").read_text())
    spec = manifest["spec"]
    assert manifest["kind"] == "Job" and spec["completionMode"] == "Indexed"
    pod = spec["template"]["spec"]
    (container,) = pod["containers"]
    assert container["image"] == "debian:12"
    env = {e["name"]: e["value"] for e in container["env"]}
    assert env["JOB_COMPLETIONS"] == str(spec["completions"]), "JOB_COMPLETIONS must equal spec.completions"
    assert "bash scripts/setup.sh" in container["command"][2], "the pod sets itself up with the README's command"
    assert container["args"] == ["--full"]
    # The pod's command as Kubernetes runs it (command + args), in a checkout, as the second pod.
    run_env = scheduler_env(tmp_path, JOB_COMPLETION_INDEX="1", JOB_COMPLETIONS=env["JOB_COMPLETIONS"])
    done = subprocess.run(
        [*container["command"], *SMALL], cwd=REPO, env=run_env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "part 2 of 3" in done.stderr
    ran_part(tmp_path / "results", (2, int(env["JOB_COMPLETIONS"])))


def test_the_slurm_array_script_runs_its_part(tmp_path: Path) -> None:
    script = EXAMPLES / "slurm-array.sbatch"
    assert "#SBATCH --array=1-3" in script.read_text()
    run_env = scheduler_env(
        tmp_path,
        SLURM_SUBMIT_DIR=str(REPO),
        SLURM_ARRAY_JOB_ID="77",
        SLURM_ARRAY_TASK_ID="3",
        SLURM_ARRAY_TASK_COUNT="3",
        SLURM_ARRAY_TASK_MIN="1",
        SLURM_ARRAY_TASK_MAX="3",
    )
    done = subprocess.run(
        ["bash", str(script), *SMALL], cwd=tmp_path, env=run_env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "part 3 of 3" in done.stderr
    ran_part(tmp_path / "results", (3, 3))
    # The databases went to node-local storage ($TMPDIR), not into the shared checkout.
    machine = json.loads((tmp_path / "results" / "part-3" / "machine.json").read_text())
    assert machine["data_dir"] == str((tmp_path / "ycsb-embedded-77-3").resolve())
