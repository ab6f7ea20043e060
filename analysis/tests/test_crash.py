"""The crash check's logic: parsing the verifier, the table, the verdicts, the exit status and the report
section, driven end to end through a fake launcher whose "engines" keep, lose or refuse on purpose."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.catalogue.model import ENGINES
from analysis.report.render import to_markdown
from analysis.report.report_verdicts import durability_blocks
from analysis.results.crash import (
    PROMISES,
    SYNCED_WRITES_SURVIVE,
    Round,
    failures,
    file_check_name,
    format_table,
    load_crash_results,
    parse_verifier_output,
    promise,
    summarise,
)
from analysis.running import crash
from analysis.running.crash import kill_moments

# What bin/ycsb crash-verify printed after a real LevelDB round and after a refused open.
VERIFIED = """acknowledged=935
present=935
lost=0
wrong=0
errors=0
open=ok
close=ok
lost_keys=
"""
REFUSED = """acknowledged=12
present=0
lost=0
wrong=0
errors=0
open=failed
open_error=[kyoto] cannot open: /d/ycsb.kct: 2: invalid meta data
close=ok
lost_keys=
"""

# A stand-in for bin/ycsb: `crash-write ENGINE -p path=P -p sync=S` appends each key to P/db.txt and then
# acknowledges it on stdout, one key every millisecond until killed; `crash-verify ... -acked FILE` reads
# them back. Engines: steady keeps every key; lossy never stores every fourth key it acknowledges; corrupt
# cannot be reopened; refuses never opens; quitter stops after three keys. Any engine given -p fake.keep=none
# acknowledges every key and stores none.
FAKE_LAUNCHER = r"""
import os, signal, sys, time
command, engine, args = sys.argv[1], sys.argv[2], sys.argv[3:]
props = dict(a.split("=", 1) for flag, a in zip(args, args[1:]) if flag == "-p")
acked_file = args[args.index("-acked") + 1] if "-acked" in args else None
db = os.path.join(props["path"], "db.txt")
closed = os.path.join(props["path"], "closed-cleanly")   # a signal it could catch is no crash
if command == "crash-write":
    signal.signal(signal.SIGTERM, lambda *_: (open(closed, "w").close(), sys.exit(0)))
    signal.signal(signal.SIGINT, lambda *_: (open(closed, "w").close(), sys.exit(0)))
    if engine == "refuses":
        print("crash-write: open failed: [refuses] cannot open: not a database", file=sys.stderr)
        sys.exit(3)
    os.makedirs(props["path"])
    with open(db, "a") as store:
        for n in range(3 if engine == "quitter" else 10**9):
            key = f"user{n}"
            if not (engine == "lossy" and n % 4 == 3) and props.get("fake.keep") != "none":
                store.write(key + "\n")
                store.flush()
            os.write(1, (key + "\n").encode())
            time.sleep(0.001)
    sys.exit(0)
keys = [k for k in open(acked_file).read().split("\n")[:-1] if k]
stored = set(open(db).read().split()) if os.path.exists(db) else set()
lost = [k for k in keys if k not in stored]
if engine == "corrupt" or os.path.exists(closed):
    print(f"acknowledged={len(keys)}\npresent=0\nlost=0\nwrong=0\nerrors=0\nopen=failed\n"
          "open_error=[corrupt] cannot open: bad page\nclose=ok\nlost_keys=")
else:
    print(f"acknowledged={len(keys)}\npresent={len(keys) - len(lost)}\nlost={len(lost)}\nwrong=0\nerrors=0\n"
          f"open=ok\nclose=ok\nlost_keys={','.join(lost[:10])}")
"""


@pytest.fixture
def launcher(tmp_path: Path) -> Path:
    path = tmp_path / "fake-ycsb"
    path.write_text(f"#!{sys.executable}\n" + FAKE_LAUNCHER)
    path.chmod(0o755)
    return path


def run_main(launcher: Path, out: Path, *args: str) -> int:
    return crash.main(
        ["--launcher", str(launcher), "--out", str(out), "--kill-after", "0.05-0.15", "--seed", "5", *args]
    )


def rounds_of(out: Path) -> list[dict]:
    rounds: list[dict] = json.loads((out / "crash" / "crash.json").read_text())["rounds"]
    return rounds


def test_parses_what_the_verifier_prints():
    v = parse_verifier_output(VERIFIED)
    assert (v.acknowledged, v.present, v.lost, v.wrong, v.errors, v.open_ok) == (935, 935, 0, 0, 0, True)
    r = parse_verifier_output(REFUSED)
    assert not r.open_ok and r.open_error == "[kyoto] cannot open: /d/ycsb.kct: 2: invalid meta data"
    assert r.acknowledged == 12
    lossy = parse_verifier_output(VERIFIED.replace("lost=0", "lost=2").replace("lost_keys=", "lost_keys=user1,user7"))
    assert lossy.lost == 2 and lossy.lost_keys == ("user1", "user7")
    assert parse_verifier_output("Exception in thread main java.lang.UnsatisfiedLinkError") is None
    assert parse_verifier_output(VERIFIED.replace("lost=0", "lost=")) is None


def test_kill_moments_repeat_with_the_seed_and_stay_in_the_window():
    moments = kill_moments(42, 20, (0.3, 2.0))
    assert moments == kill_moments(42, 20, (0.3, 2.0))
    assert moments != kill_moments(43, 20, (0.3, 2.0))
    assert all(0.3 <= m <= 2.0 for m in moments)


def synced(engine: str, **kw) -> Round:
    return Round(engine, True, 1, 1.0, **({"killed": True, "acknowledged": 100, "present": 100} | kw))


def test_a_synced_loss_a_failed_reopen_a_rejected_file_and_an_unrun_round_fail_the_check():
    unpromised = Round("kyoto", False, 1, 1.0, acknowledged=50, lost=50, promised="")
    assert failures([synced("leveldb"), unpromised]) == []
    rule = f"; promised: {SYNCED_WRITES_SURVIVE}"
    lines = failures(
        [
            synced("a", present=97, lost=2, wrong=1, lost_keys="user3,user9"),
            synced("b", reopen_failed=True, open_error="bad page"),
            synced("c", file_check="ok", file_check_failed=False),
            synced("d", file_check="kctreemgr check ycsb.kct: exit 1", file_check_failed=True),
            Round("e", False, 2, 1.0, problem="the writer exited with status 3"),
        ]
    )
    assert lines == [
        "a sync=true round 1: 3 of 100 acknowledged writes lost or changed (lost 2, wrong 1, "
        "unreadable 0; first: user3,user9)" + rule,
        "b sync=true round 1: reopen failed: bad page" + rule,
        "d sync=true round 1: file check failed: kctreemgr check ycsb.kct: exit 1" + rule,
        "e sync=false round 2: not checked: the writer exited with status 3",
    ]


def test_summary_and_table_per_engine_and_sync_mode():
    rounds = [
        synced("kyoto", file_check="ok"),
        synced("kyoto", present=90, lost=10, file_check="ok"),
        Round("kyoto", False, 1, 0.5, acknowledged=1000, lost=1000, file_check="ok"),
        Round("rocksdb", False, 1, 0.5, acknowledged=1000, lost=1000, promised=""),
        synced("leveldb"),
        synced("leveldb"),
    ]
    summaries = summarise(rounds)
    assert [(s.engine, s.sync, s.rounds, s.acknowledged, s.lost, s.rounds_with_loss, s.verdict) for s in summaries] == [
        ("kyoto", True, 2, 200, 10, 1, "FAILED"),
        ("kyoto", False, 1, 1000, 1000, 1, "FAILED"),  # the README promises sync=false kills lose nothing
        ("rocksdb", False, 1, 1000, 1000, 1, "lost (nothing promised)"),
        ("leveldb", True, 2, 200, 0, 0, "kept everything"),
    ]
    assert summaries[0].file_check_failures == 0 and summaries[3].file_check_failures is None
    lines = format_table(summaries).splitlines()
    assert lines[0].split()[:4] == ["engine", "sync", "rounds", "acknowledged"]
    assert lines[1].split() == ["kyoto", "true", "2", "200", "10", "0", "0", "0", "0", "1", "FAILED"]
    assert lines[4].split() == ["leveldb", "true", "2", "200", "0", "0", "0", "0", "—", "0", "kept", "everything"]


def test_a_lossy_engine_fails_the_check_and_a_steady_one_passes(launcher, tmp_path, capsys):
    out = tmp_path / "run"
    assert run_main(launcher, out, "--engines", "steady,lossy", "--rounds", "2") == 1
    printed = capsys.readouterr().out
    rounds = rounds_of(out)
    assert [(r["engine"], r["sync"], r["round"]) for r in rounds] == [
        ("steady", True, 1),
        ("steady", True, 2),
        ("steady", False, 1),
        ("steady", False, 2),
        ("lossy", True, 1),
        ("lossy", True, 2),
        ("lossy", False, 1),
        ("lossy", False, 2),
    ]
    for r in rounds:
        assert r["killed"] and not r["problem"] and not r["reopen_failed"] and 0.05 <= r["kill_after_s"] <= 0.15
        assert r["acknowledged"] >= 10  # a key a millisecond for at least 50 ms
        assert r["present"] + r["lost"] == r["acknowledged"]
        if r["engine"] == "steady":
            assert r["lost"] == 0
        else:  # every fourth acknowledged key was never stored
            assert r["lost"] == r["acknowledged"] // 4 and r["lost_keys"].startswith("user3,user7")
    # The acknowledged keys stay only as the evidence of a durability failure.
    raw = out / "crash"
    assert (raw / "lossy" / "sync-true" / "r1" / "acked.txt").read_text().startswith("user0\nuser1\n")
    assert not (raw / "steady" / "sync-true" / "r1" / "acked.txt").exists()
    assert not (raw / "lossy" / "sync-false" / "r1" / "acked.txt").exists()
    assert not (out / "data").exists()
    assert "FAILED lossy sync=true round 1:" in printed and "FAILED lossy sync=false" not in printed
    assert "reported, not failed (nothing promised in this mode): lossy sync=false round 1: " in printed
    csv_lines = (raw / "crash.csv").read_text().splitlines()
    assert csv_lines[0].startswith("engine,sync,round,kill_after_s,killed,acknowledged,present,lost")
    assert len(csv_lines) == 9


def test_losses_without_sync_are_reported_but_do_not_fail(launcher, tmp_path, capsys):
    out = tmp_path / "run"
    assert run_main(launcher, out, "--engines", "lossy", "--sync", "false", "--rounds", "1") == 0
    assert "lost (nothing promised)" in capsys.readouterr().out
    assert rounds_of(out)[0]["lost"] > 0


def test_every_engine_and_mode_has_the_readmes_promise_and_the_properties_that_withdraw_it():
    assert {(e, s) for e in ENGINES for s in (True, False)} <= PROMISES.keys()
    assert "loses nothing acknowledged" in promise("leveldb", False)
    assert promise("kyoto", False, ("kyoto.autotran=false",)) == ""
    assert promise("kyoto", True, ("kyoto.autotran = FALSE",)) == ""
    assert promise("kyoto", False, ("kyoto.autotran=true",)) == PROMISES[("kyoto", False)]
    assert promise("rocksdb", False, ("rocksdb.disablewal=true",)) == ""
    assert promise("rocksdb", False, ("leveldb.disablewal=true",)) == PROMISES[("rocksdb", False)]
    assert promise("someengine", True) == SYNCED_WRITES_SURVIVE and promise("someengine", False) == ""


def test_a_sync_false_run_that_loses_every_write_fails_where_the_readme_promises_it_does_not(
    launcher, tmp_path, capsys
):
    out = tmp_path / "run"
    assert (
        run_main(launcher, out, "--engines", "leveldb", "--sync", "false", "--rounds", "1", "-p", "fake.keep=none") == 1
    )
    printed = capsys.readouterr().out
    r = rounds_of(out)[0]
    assert r["acknowledged"] > 0 and r["lost"] == r["acknowledged"] and r["promised"] == PROMISES[("leveldb", False)]
    lost = f"{r['acknowledged']:,} of {r['acknowledged']:,} acknowledged writes lost"
    assert f"FAILED leveldb sync=false round 1: {lost}" in printed
    assert f"promised: {PROMISES[('leveldb', False)]}" in printed


def test_the_same_loss_in_a_mode_with_no_promise_is_reported_not_failed(launcher, tmp_path, capsys):
    out = tmp_path / "run"
    args = ("--engines", "kyoto", "--sync", "false", "--rounds", "1", "-p", "fake.keep=none")
    assert run_main(launcher, out, *args, "-p", "kyoto.autotran=false") == 0
    printed = capsys.readouterr().out
    r = rounds_of(out)[0]
    assert r["lost"] == r["acknowledged"] > 0 and r["promised"] == ""
    assert "FAILED" not in printed and "lost (nothing promised)" in printed
    assert "reported, not failed (nothing promised in this mode): kyoto sync=false round 1: " in printed
    results = load_crash_results(out)
    assert results is not None and results.summaries[0].verdict == "lost (nothing promised)"


def test_rounds_that_could_not_crash_or_reopen_fail_with_the_reason(launcher, tmp_path, capsys):
    out = tmp_path / "run"
    assert run_main(launcher, out, "--engines", "refuses", "quitter", "corrupt", "--sync", "true", "--rounds", "1") == 1
    by_engine = {r["engine"]: r for r in rounds_of(out)}
    assert by_engine["refuses"]["problem"].startswith("the writer exited with status 3 before acknowledging")
    assert "cannot open: not a database" in by_engine["refuses"]["problem"]
    assert by_engine["quitter"]["problem"].startswith("the writer exited with status 0 before the kill")
    assert by_engine["corrupt"]["reopen_failed"]
    assert by_engine["corrupt"]["open_error"] == "[corrupt] cannot open: bad page"
    printed = capsys.readouterr().out
    assert "NOT CHECKED" in printed and "FAILED corrupt sync=true round 1: reopen failed" in printed


def test_the_report_has_a_durability_section_from_the_results_directory(launcher, tmp_path):
    out = tmp_path / "run"
    run_main(launcher, out, "--engines", "steady,lossy", "--rounds", "1")
    results = load_crash_results(out)
    assert results is not None
    assert results.seed == 5 and results.kill_window_s == (0.05, 0.15)
    markdown = to_markdown(durability_blocks(results))
    assert markdown.startswith("## Durability\n")
    assert "seed 5" in markdown
    rows = [line for line in markdown.splitlines() if line.startswith("| lossy")]
    lossy_true = next(r for r in rows if "sync=true" in r).split(" | ")
    assert lossy_true[2:4] == ["1", f"{results.rounds[2].acknowledged:,}"]
    assert lossy_true[-1] == "**FAILED** |"
    assert "- lossy sync=true round 1: " in markdown
    assert load_crash_results(tmp_path / "nothing") is None


def test_bad_options_are_refused(launcher, tmp_path):
    for args in (["--sync", "maybe"], ["--rounds", "0"], ["-p", "sync=true"], ["--kill-after", "2-1"]):
        with pytest.raises(SystemExit) as e:
            run_main(launcher, tmp_path / "x", *args)
        assert e.value.code == 2


def test_the_suite_runs_the_real_crash_check_into_its_report(tmp_path):
    """bin/ycsb crash-write and crash-verify on LevelDB for real, through the suite's --crash-rounds."""
    from analysis.running.plan import engine_is_built

    from .conftest import REPO, run_analysis

    assert engine_is_built(REPO, "leveldb"), "the LevelDB binding is not built: run `mvn -q -B package -DskipTests`"
    out = tmp_path / "results"
    done = run_analysis(
        *["run", "--engines", "leveldb", "--scenarios", "seqwrite", "--cap", "1000", "--crash-rounds", "1"],
        *["--out", str(out)],
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == str(out / "report.md")
    rounds = rounds_of(out)
    assert [(r["engine"], r["sync"]) for r in rounds] == [("leveldb", True), ("leveldb", False)]
    for r in rounds:
        assert r["killed"] and not r["problem"] and r["acknowledged"] > 0 and r["present"] == r["acknowledged"]
    verified = (out / "crash" / "leveldb" / "sync-true" / "r1" / "verify.txt").read_text()
    assert f"acknowledged={rounds[0]['acknowledged']}\npresent={rounds[0]['present']}\nlost=0\n" in verified
    report = (out / "report.md").read_text()
    assert "## Durability" in report
    acknowledged = f"{rounds[0]['acknowledged']:,}"
    row = f"| LevelDB 1.13 (leveldbjni) | sync=true | 1 | {acknowledged} | 0 | 0 | 0 | — | **kept everything** |"
    assert row in report
    assert not (out / "data").exists()


def test_the_checkers_are_named_as_the_report_names_them():
    assert file_check_name("kyoto") == "`kctreemgr check`"
    assert file_check_name("lmdb") == "`mdb_stat -efn` and `mdb_dump -n`"


def test_lmdbs_checker_passes_a_sound_environment_and_fails_a_damaged_one(tmp_path):
    """mdb_load (lmdb-utils, as mdb_stat and mdb_dump) writes a real environment; its tree pages zeroed, the
    check fails naming the tool; the copy it checks is removed."""
    if shutil.which("mdb_load") is None:
        pytest.fail("lmdb-utils is not installed: scripts/setup.sh installs it (apt-get install lmdb-utils)")
    data = tmp_path / "db"
    data.mkdir()
    records = "".join(f" {f'key{i:05d}'.encode().hex()}\n {('value' * 20).encode().hex()}\n" for i in range(500))
    dump = f"VERSION=3\nformat=bytevalue\ntype=btree\nHEADER=END\n{records}DATA=END\n"
    subprocess.run(["mdb_load", str(data)], input=dump, text=True, check=True, capture_output=True, timeout=30)
    sound = Round("lmdb", True, 1, 0.5)
    crash.check_files("lmdb", data, sound)
    assert (sound.file_check, sound.file_check_failed) == ("ok", False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db"], "the copy is removed"

    page = 4096
    size = (data / "data.mdb").stat().st_size
    with (data / "data.mdb").open("r+b") as f:  # every page after the two meta pages: the tree
        f.seek(2 * page)
        f.write(bytes(size - 2 * page))
    damaged = Round("lmdb", True, 1, 0.5)
    crash.check_files("lmdb", data, damaged)
    assert damaged.file_check_failed, damaged.file_check
    # mdb_stat cannot open the database; mdb_dump reads the zeroed root as an empty tree and exits 0
    assert damaged.file_check.startswith("mdb_stat -efn data.mdb: exit 1: "), damaged.file_check
