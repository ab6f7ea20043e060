"""The memory budget: sizes, the refusal without a controller, and (as root on a machine with a memory
cgroup controller) the kernel's enforcement on a real child process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.running import suite
from analysis.running.membudget import (
    CGROUP_ROOT_ENV,
    BudgetRefused,
    BudgetUsage,
    Controller,
    StepGroup,
    evict_directory,
    find_controller,
    format_budget,
    machine_has_swap,
    oom_problem,
    own_group,
    parse_budget,
)
from analysis.running.resources import CLOCK_TICKS, busy_cpu_ticks, machine_cpu

MB = 1 << 20


def controller_or_skip() -> Controller:
    """The machine's controller; without one the test fails under CI=true and is skipped otherwise."""
    try:
        return find_controller()
    except BudgetRefused as e:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and no usable memory cgroup controller: {e}")
        pytest.skip(f"no usable memory cgroup controller: {e}")


def test_parse_budget():
    assert parse_budget("1g") == 1 << 30
    assert parse_budget("512M") == 512 * MB
    assert parse_budget("1.5GiB") == 3 << 29
    assert format_budget(1 << 30) == "1g"
    assert format_budget(768 * MB) == "768m"
    with pytest.raises(ValueError, match="not a size"):
        parse_budget("lots")
    with pytest.raises(ValueError, match="at least 16m"):
        parse_budget("1m")


def test_own_group():
    text = "9:name=systemd:/\n4:memory:/process_api/abc\n0::/\n"
    assert own_group(text, 1) == "/process_api/abc"
    assert own_group(text, 2) == "/"


def test_no_controller_is_refused(tmp_path):
    with pytest.raises(BudgetRefused, match="memory cgroup controller"):
        find_controller(tmp_path, "")


def test_v2_without_delegation_is_refused(tmp_path):
    (tmp_path / "cgroup.controllers").write_text("cpu io memory pids\n")
    (tmp_path / "cgroup.subtree_control").write_text("cpu\n")
    with pytest.raises(BudgetRefused, match="does not delegate the memory controller"):
        find_controller(tmp_path, "0::/\n", pid1="init", systemd_run="")


SYSTEMD_RUN = "/usr/bin/systemd-run"


def undelegated_v2(root: Path) -> str:
    """A fake unified hierarchy whose memory controller this process's group does not delegate (a login
    session under systemd); returns its /proc/self/cgroup."""
    (root / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (root / "cgroup.subtree_control").write_text("cpu io memory pids\n")
    session = root / "user.slice" / "session-1.scope"
    session.mkdir(parents=True)
    (session / "cgroup.subtree_control").write_text("")
    return "0::/user.slice/session-1.scope\n"


def test_systemd_run_when_no_controller_is_usable(tmp_path):
    proc = undelegated_v2(tmp_path)
    controller = find_controller(tmp_path, proc, pid1="systemd", systemd_run=SYSTEMD_RUN, uid=0)
    assert controller == Controller(2, tmp_path, systemd_run=SYSTEMD_RUN, user=False)
    assert controller.mechanism == "systemd-run --scope (cgroup v2)"
    # Not root: the user's own service manager.
    user = find_controller(tmp_path, proc, pid1="systemd", systemd_run=SYSTEMD_RUN, uid=1000)
    assert user.user and user.mechanism == "systemd-run --user --scope (cgroup v2)"
    # A usable controller of our own is still the first choice.
    (tmp_path / "user.slice" / "session-1.scope" / "cgroup.subtree_control").write_text("memory\n")
    own = find_controller(tmp_path, proc, pid1="systemd", systemd_run=SYSTEMD_RUN, uid=0)
    assert own == Controller(2, tmp_path / "user.slice" / "session-1.scope")


def test_none_of_the_three_is_refused_with_every_reason(tmp_path):
    proc = undelegated_v2(tmp_path)
    with pytest.raises(BudgetRefused) as refused:
        find_controller(tmp_path, proc, pid1="init", systemd_run=SYSTEMD_RUN, uid=0)
    text = str(refused.value)
    assert text.startswith("--memory cannot be enforced: v2: ")
    assert "does not delegate the memory controller" in text
    assert "systemd-run: PID 1 is 'init', not systemd" in text
    with pytest.raises(BudgetRefused, match="PID 1 is systemd but there is no systemd-run on PATH"):
        find_controller(tmp_path, proc, pid1="systemd", systemd_run="", uid=0)
    # No memory controller at all: systemd could not enforce a limit either; today's refusal stands.
    with pytest.raises(BudgetRefused, match="needs a memory cgroup controller and .* has none"):
        find_controller(tmp_path / "empty", "", pid1="systemd", systemd_run=SYSTEMD_RUN, uid=0)


def test_systemd_scope_command_and_its_limits():
    v2 = StepGroup(Controller(2, Path("/sys/fs/cgroup"), systemd_run=SYSTEMD_RUN), 1 << 30, name="ycsb-step-abc")
    assert v2.unit == "ycsb-step-abc.scope"
    assert v2.wrap(["bin/ycsb", "run", "rocksdb"]) == [
        SYSTEMD_RUN,
        "--scope",
        "--quiet",
        "--unit=ycsb-step-abc.scope",
        "-p",
        "MemoryMax=1073741824",
        "-p",
        "MemorySwapMax=0",
        "--",
        "bin/ycsb",
        "run",
        "rocksdb",
    ]
    assert v2.create() is v2  # nothing made by us: systemd makes the scope
    user_v1 = Controller(1, Path("/sys/fs/cgroup/memory"), systemd_run=SYSTEMD_RUN, user=True)
    command = StepGroup(user_v1, 32 * MB, name="s").wrap(["java"])
    # cgroup v1: systemd's MemoryLimit= (its MemoryMax= is for the unified hierarchy only).
    assert command == [
        SYSTEMD_RUN,
        "--user",
        "--scope",
        "--quiet",
        "--unit=s.scope",
        "-p",
        "MemoryLimit=33554432",
        "--",
        "java",
    ]


def test_systemd_scope_usage_is_read_while_it_lives(tmp_path):
    controller = Controller(2, tmp_path, systemd_run=SYSTEMD_RUN)
    group = StepGroup(controller, 64 * MB, name="ycsb-step-abc")
    scope = tmp_path / "system.slice" / "ycsb-step-abc.scope"
    in_scope = "0::/system.slice/ycsb-step-abc.scope\n"
    # Before systemd-run has moved into its scope: nothing read, nothing made up.
    group.sample(4242, "0::/user.slice/session-1.scope\n")
    assert group.usage() == BudgetUsage(64 * MB, None, None, None, None)
    scope.mkdir(parents=True)
    (scope / "memory.peak").write_text(f"{50 * MB}\n")
    (scope / "memory.stat").write_text(f"anon {10 * MB}\nfile {30 * MB}\n")
    (scope / "memory.events").write_text("low 0\nhigh 0\nmax 7\noom 0\noom_kill 0\n")
    group.sample(4242, in_scope)
    assert group.path == scope
    assert group.usage() == BudgetUsage(64 * MB, 50 * MB, 30 * MB, 7, 0)
    # The step ended and systemd removed the scope: the last reading is the step's.
    for f in scope.iterdir():
        f.unlink()
    scope.rmdir()
    group.sample(4242, in_scope)
    group.remove()  # systemd's to remove: nothing to do, nothing raised
    assert group.usage() == BudgetUsage(64 * MB, 50 * MB, 30 * MB, 7, 0)
    # A kernel without memory.peak: the most memory.current a reading saw.
    older = StepGroup(controller, 64 * MB, name="ycsb-step-abc")
    scope.mkdir()
    (scope / "memory.current").write_text(f"{40 * MB}\n")
    older.sample(1, in_scope)
    (scope / "memory.current").write_text(f"{20 * MB}\n")
    older.sample(1, in_scope)
    assert older.usage().cgroup_peak_bytes == 40 * MB


def test_v1_found_in_own_group(tmp_path):
    group = tmp_path / "memory" / "mine"
    group.mkdir(parents=True)
    (tmp_path / "memory" / "memory.limit_in_bytes").write_text("9223372036854771712\n")
    controller = find_controller(tmp_path, "4:memory:/mine\n")
    assert controller == Controller(1, group)
    assert controller.limit_file == "memory.limit_in_bytes"


def test_run_refuses_memory_without_controller(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(CGROUP_ROOT_ENV, str(tmp_path / "none"))
    code = suite.main(["--memory", "1g", "--scenarios", "randread", "--out", str(tmp_path / "out"), "--no-report"])
    assert code == 2
    assert "memory cgroup controller" in capsys.readouterr().err
    assert not (tmp_path / "out" / "suite.json").exists()  # refused before anything ran


def test_oom_problem_names_what_was_used():
    usage = BudgetUsage(32 * MB, 32 * MB, 1 * MB, 57, 1)
    problem = oom_problem(usage, -9)
    assert problem is not None
    assert "peak 32 MB of 32m" in problem and "1 OOM kill" in problem
    assert oom_problem(BudgetUsage(32 * MB, 10 * MB, 1 * MB, 0, 0), 0) is None


def test_child_reading_twice_the_budget_keeps_its_page_cache_under_it(tmp_path):
    controller = controller_or_skip()
    budget = 32 * MB
    data = tmp_path / "data"
    data.mkdir()
    (data / "big").write_bytes(os.urandom(2 * budget))
    assert evict_directory(data) == 2 * budget
    reader = [sys.executable, "-c", "import sys\nwith open(sys.argv[1], 'rb') as f:\n    while f.read(1 << 20): pass"]
    with StepGroup(controller, budget) as group:
        done = subprocess.run(group.wrap([*reader, str(data / "big")]), capture_output=True, timeout=120)
        usage = group.usage()
    assert done.returncode == 0, done.stderr
    assert not group.path.exists()  # removed after the step
    assert usage.cgroup_peak_bytes is not None and usage.cgroup_cache_bytes is not None
    assert usage.cgroup_peak_bytes <= budget
    assert 0 < usage.cgroup_cache_bytes <= budget  # charged to the group (it ran inside), never above it
    assert usage.cgroup_peak_bytes > budget * 0.8  # it filled the budget: the kernel reclaimed to keep it under
    assert usage.cgroup_failcnt  # each reclaim began with a charge the limit refused (it read 0 with memsw set)


def test_child_over_the_budget_is_killed_and_says_what_it_used(tmp_path):
    controller = controller_or_skip()
    budget = 32 * MB
    grow = [sys.executable, "-c", "b = [bytearray(1 << 20) for _ in range(128)]"]
    with StepGroup(controller, budget) as group:
        done = subprocess.run(group.wrap(grow), capture_output=True, timeout=120)
        usage = group.usage()
    assert done.returncode == -9
    problem = oom_problem(usage, done.returncode)
    assert problem is not None and "killed by the memory budget" in problem
    assert usage.cgroup_oom_kills == 1
    assert usage.cgroup_failcnt, problem  # "limit hit 0 times" beside the OOM kill, with memsw's limit set too
    assert "limit hit 0 times" not in problem


def test_v1_failcnt_counts_the_refusals_of_memory_and_of_memsw(tmp_path):
    group = StepGroup(Controller(1, tmp_path), 32 * MB, name="step")
    group.path.mkdir()
    files = {
        "memory.failcnt": "3\n",
        "memory.memsw.failcnt": "4\n",
        "memory.max_usage_in_bytes": f"{32 * MB}\n",
        "memory.stat": "total_cache 4096\n",
        "memory.oom_control": "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n",
    }
    for name, text in files.items():
        (group.path / name).write_text(text)
    assert group.usage() == BudgetUsage(32 * MB, 32 * MB, 4096, 7, 1)
    (group.path / "memory.memsw.failcnt").unlink()  # no swap accounting in this kernel
    assert group.usage().cgroup_failcnt == 3


def test_swap_is_read_from_meminfo():
    assert not machine_has_swap("MemTotal:  24684000 kB\nSwapTotal:             0 kB\nSwapFree: 0 kB\n")
    assert machine_has_swap("SwapTotal:       2097148 kB\n")
    assert not machine_has_swap("")


def test_machine_cpu_separates_others_from_the_step():
    stat = "cpu  100 0 50 1000 20 0 0 0 0 0\ncpu0 50 0 25 500 10 0 0 0 0 0\n"
    assert busy_cpu_ticks(stat) == (150, 1170)
    before, after = (150, 1170), (150 + 3 * CLOCK_TICKS, 1170 + 4 * CLOCK_TICKS)
    cpu = machine_cpu(before, after, own_cpu_seconds=1.0, seconds=2.0)
    assert cpu is not None
    assert cpu.machine_cpu_seconds == 3.0
    assert cpu.other_cpu_cores == 1.0  # 3 s busy, 1 s the step's own, over 2 s of wall time
    assert machine_cpu(None, after, 1.0, 2.0) is None


def test_noisy_steps_are_the_measured_ones_above_the_threshold():
    from analysis.report.report_noise import noisy_steps

    def step(measured, other, variant=""):
        return {"measured": measured, "variant": variant, "resources": {"other_cpu_cores": other}}

    cells = [
        {"engine": "rocksdb", "scenario": "randread", "repeats": [[step(False, 1.9), step(True, 0.1)]]},
        {"engine": "sqlite", "scenario": "pk-update", "repeats": [[step(True, 0.31, "one-row-per-txn")]]},
        {"engine": "kyoto", "scenario": "seqwrite", "repeats": [[{"measured": True, "variant": "", "resources": {}}]]},
    ]
    noisy, recorded = noisy_steps(cells)
    assert noisy == [("sqlite", "pk-update", "one-row-per-txn", 0.31)]  # the fill is not a figure
    assert recorded == 2  # a step from before the machine's CPU was recorded counts neither way
