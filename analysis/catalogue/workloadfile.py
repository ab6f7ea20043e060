"""A user's own YCSB workload file (`python -m analysis run --workload FILE`): read as Java reads it,
checked before anything runs, and made a scenario of the run.

Java's `Properties.load` accepts almost any text and keeps what it guessed; a guess is how a workload
file's mistake turns into a benchmark of something else. So a file is refused, with the line at fault, when:

- a line (not blank, not a comment: first non-blank `#` or `!`) has no separator: no `=`, `:` or
  whitespace after its name (Java would keep the name with an empty value);
- a line has no name (it starts with `=` or `:`);
- a backslash is followed by anything but `t n r f u \\ = : # !` or a blank, or ends the file: Java drops
  such a backslash (`C:\\data\\x` would become `C:datax`), or a `\\u` is not followed by four hex digits
  (Java itself refuses that);
- a name is set twice (Java keeps the last silently);
- it sets no `workload`, or names a class that is not on the classpath of every engine row of the run
  (our bindings' and the peers', the classpaths their JVMs get; a name is looked up as a `.class` entry
  of the classpath's directories and jars);
- it sets no `recordcount` or no `operationcount`, or sets either to anything but a whole number
  (at least 1: YCSB runs an operationcount of 0 until it is stopped);
- it replays a trace (TraceWorkload) whose `trace.file` is not given, not absolute, not a readable file, or
  zstd-compressed (the replay reads plain and gzip).

A line ending in an odd number of backslashes continues on the next, whose leading blanks are dropped;
the refusal names the line where the property starts.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .model import Scenario
from .own_workloads import TRACE_WORKLOAD, own_scenario

# Escapes Properties.load understands: \t \n \r \f \uXXXX, and a backslash before a character that would
# otherwise separate or comment (= : # ! blank) or before another backslash.
_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
_LITERAL_AFTER_BACKSLASH = "\\=:#! "
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"  # a zstd frame's first bytes
OWN_DIR = "workload-files"  # where a run keeps a copy of each user workload file (the steps run the copy)


class WorkloadFileRefused(ValueError):
    """A user workload file the suite will not run; the message names the file and the line at fault."""


@dataclass(frozen=True)
class Property:
    name: str
    value: str
    line: int  # 1-based line where the property starts


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, text) of each logical line: continuations joined, comments and blank lines left out."""
    out: list[tuple[int, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        start, line = i + 1, lines[i].lstrip(" \t\f")
        i += 1
        if not line or line[0] in "#!":
            continue
        while _continues(line) and i < len(lines):
            line = line[:-1] + lines[i].lstrip(" \t\f")
            i += 1
        out.append((start, line))
    return out


def _continues(line: str) -> bool:
    trailing = len(line) - len(line.rstrip("\\"))
    return trailing % 2 == 1


def _unescape(raw: str, line: int, problems: list[Problem]) -> str:
    out: list[str] = []
    i = 0
    while i < len(raw):
        c = raw[i]
        i += 1
        if c != "\\":
            out.append(c)
            continue
        if i == len(raw):
            problems.append((line, "a backslash ends the file (a continuation with no line after it)"))
            break
        e = raw[i]
        i += 1
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
        elif e in _LITERAL_AFTER_BACKSLASH:
            out.append(e)
        elif e == "u":
            if not _HEX4.fullmatch(raw[i : i + 4]):
                problems.append((line, f"\\u{raw[i : i + 4]} is not \\u and four hex digits (Java refuses it)"))
                continue
            out.append(chr(int(raw[i : i + 4], 16)))
            i += 4
        else:
            problems.append(
                (
                    line,
                    f"\\{e} is not an escape of a properties file (Java drops the backslash: "
                    "for a backslash write \\\\, or use / in a path)",
                )
            )
            out.append(e)
    return "".join(out)


def _split(line: str) -> tuple[str, str, bool]:
    """A logical line's raw name and value, and whether a separator was found (Java's rules: the name ends at
    the first unescaped `=`, `:` or blank; blanks and then one `=` or `:` after it are skipped)."""
    i = 0
    while i < len(line):
        c = line[i]
        if c == "\\":
            i += 2
            continue
        if c in "=: \t\f":
            break
        i += 1
    name, rest = line[:i], line[i:]
    if not rest:
        return name, "", False
    rest = rest.lstrip(" \t\f")
    if rest[:1] in ("=", ":"):
        rest = rest[1:].lstrip(" \t\f")
    return name, rest, True


Problem = tuple[int | None, str]  # (line at fault, or None for the whole file; what is wrong)


def refusal(path: Path, problems: list[Problem]) -> WorkloadFileRefused:
    """The refusal of a file, a line per problem as `FILE:LINE: what` (compilers' form, which editors follow)."""
    lines = [f"  {path}:{line}: {text}" if line is not None else f"  {path}: {text}" for line, text in problems]
    return WorkloadFileRefused(f"--workload {path} refused, before anything ran:\n" + "\n".join(lines))


def parse_properties(text: str) -> tuple[list[Property], list[Problem]]:
    """A properties file's properties in file order, and what is malformed in it (the module's rules)."""
    props: list[Property] = []
    problems: list[Problem] = []
    for line, logical in _logical_lines(text):
        raw_name, raw_value, separated = _split(logical)
        name = _unescape(raw_name, line, problems)
        if not name:
            problems.append((line, f"no property name before {logical[:1]!r}"))
            continue
        if not separated:
            problems.append(
                (line, f"{name!r} has no value: no '=', ':' or blank after the name (Java would make it empty)")
            )
            continue
        props.append(Property(name, _unescape(raw_value, line, problems), line))
    first: dict[str, int] = {}
    for p in props:
        if p.name in first:
            problems.append((p.line, f"{p.name} set again (first on line {first[p.name]}; Java keeps the last)"))
        else:
            first[p.name] = p.line
    return props, problems


def read_properties(text: str) -> dict[str, str]:
    """A Java properties file's values as Java reads them (the last of a name wins), blanks around them
    trimmed; what is malformed is read as leniently as Java does."""
    props, _ = parse_properties(text)
    return {p.name: p.value.strip() for p in props}


def stacked_properties(files: list[Path]) -> dict[str, str]:
    """The properties YCSB sees from `-P a -P b`: later files override earlier ones."""
    props: dict[str, str] = {}
    for f in files:
        props.update(read_properties(f.read_text()))
    return props


def _whole(props: dict[str, Property], name: str, least: int, problems: list[Problem], lines: int) -> int | None:
    found = props.get(name)
    if found is None:
        problems.append((None, f"no {name}= line (read {lines} lines): the suite needs the file's own {name}"))
        return None
    try:
        value = int(found.value.strip())
    except ValueError:
        value = None
    if value is None or value < least:
        problems.append((found.line, f"{name}={found.value!r} is not a whole number of at least {least}"))
        return None
    return value


@dataclass(frozen=True)
class WorkloadFile:
    path: Path
    id: str
    properties: dict[str, str]
    workload_class: str
    workload_line: int


def scenario_id_of(path: Path) -> str:
    """The scenario a file becomes: its name less a `.properties` suffix, anything but letters, digits, '.', '_'
    and '-' made '-'."""
    name = path.name.removesuffix(".properties")
    return re.sub(r"[^A-Za-z0-9._-]", "-", name).strip(".") or "workload"


def trace_file_problems(trace: Property | None, workload_line: int) -> list[Problem]:
    """A trace replay's trace.file: set, absolute (every step's JVM runs in the repository's root) and a readable
    file; every cell would fail at start otherwise."""
    if trace is None or not trace.value.strip():
        return [(workload_line, "TraceWorkload replays trace.file, and no trace.file= line gives it")]
    file = Path(trace.value.strip())
    if not file.is_absolute():
        return [(trace.line, f"trace.file={file} is not an absolute path (each step's JVM runs in the repository)")]
    if not file.is_file() or not os.access(file, os.R_OK):
        return [(trace.line, f"trace.file={file}: no readable file there")]
    with file.open("rb") as f:
        magic = f.read(4)
    if magic == ZSTD_MAGIC:  # TraceWorkload refuses it at start, in every cell (common/.../TraceFile.java)
        return [
            (
                trace.line,
                f"trace.file={file} is zstd-compressed (as the Twitter traces are published), which the replay "
                f"does not read: decompress it first (zstd -d {file}), or recompress it with gzip",
            )
        ]
    return []


def check_workload_file(path: Path) -> WorkloadFile:
    """The file, parsed and checked (not yet against any classpath); WorkloadFileRefused naming each problem."""
    try:
        text = path.read_text(encoding="latin-1")  # what Properties.load(InputStream) reads
    except OSError as e:
        raise refusal(path, [(None, f"cannot read it: {e.strerror or e}")]) from None
    props, problems = parse_properties(text)
    by_name = {p.name: p for p in props}
    lines = len(text.splitlines())
    workload = by_name.get("workload")
    if workload is None or not workload.value.strip():
        problems.append((None, f"no workload= line (read {lines} lines): YCSB needs the workload class to run"))
    _whole(by_name, "recordcount", 1, problems, lines)
    _whole(by_name, "operationcount", 1, problems, lines)
    if workload is not None and workload.value.strip() == TRACE_WORKLOAD:
        problems += trace_file_problems(by_name.get("trace.file"), workload.line)
    if problems:
        raise refusal(path, problems)
    assert workload is not None
    values = {p.name: p.value.strip() for p in props}
    return WorkloadFile(path.resolve(), scenario_id_of(path), values, workload.value.strip(), workload.line)


def _jar_entries(jar: Path) -> frozenset[str]:
    stat = jar.stat()
    return _jar_entries_at(jar, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=512)
def _jar_entries_at(jar: Path, _mtime: int, _size: int) -> frozenset[str]:
    try:
        with zipfile.ZipFile(jar) as z:
            return frozenset(z.namelist())
    except (OSError, zipfile.BadZipFile):
        return frozenset()


def class_on_classpath(class_name: str, classpath: str) -> bool:
    """Whether a JVM given `-cp classpath` finds the class: a `.class` entry in one of its directories or jars
    (`dir/*` is every jar of dir, as java reads it)."""
    member = class_name.replace(".", "/") + ".class"
    for entry in classpath.split(os.pathsep):
        if not entry:
            continue
        path = Path(entry)
        if path.name == "*":
            jars = sorted(p for p in path.parent.glob("*") if p.suffix.lower() == ".jar" and p.is_file())
        elif path.is_dir():
            if (path / member).is_file():
                return True
            continue
        else:
            jars = [path] if path.is_file() else []
        if any(member in _jar_entries(jar) for jar in jars):
            return True
    return False


def refuse_unloadable(files: list[WorkloadFile], classpaths: dict[str, str]) -> None:
    """WorkloadFileRefused when a file's workload class is not on the classpath of every row (engine -> -cp)."""
    for f in files:
        missing = [row for row, cp in classpaths.items() if not class_on_classpath(f.workload_class, cp)]
        if missing:
            raise refusal(
                f.path,
                [
                    (
                        f.workload_line,
                        f"workload={f.workload_class} is not on the classpath of {', '.join(missing)} (no "
                        f"{f.workload_class.replace('.', '/')}.class in its jars and directories; a class of your "
                        "own goes into the binding's lib directory)",
                    )
                ],
            )


def refuse_clashes(files: list[WorkloadFile], catalogue_ids: set[str]) -> None:
    """Two files that would make one scenario, or a file named like a scenario of the catalogue."""
    seen: dict[str, Path] = {}
    for f in files:
        if f.id in catalogue_ids:
            raise refusal(
                f.path,
                [
                    (
                        None,
                        f"its scenario would be {f.id!r}, a scenario of the catalogue (`--scenarios {f.id}` runs that "
                        "one); give your file another name",
                    )
                ],
            )
        if f.id in seen:
            raise refusal(f.path, [(None, f"{seen[f.id]} already makes scenario {f.id!r}; rename one of them")])
        seen[f.id] = f.path


def keep_copies(files: list[WorkloadFile], out: Path, threads: tuple[int, ...] | None = None) -> list[Scenario]:
    """Copies each file into the results directory (the run's steps read the copy, which the report reads
    again) and returns their scenarios; threads: --threads-series, a run step per client thread count."""
    directory = out / OWN_DIR
    directory.mkdir(parents=True, exist_ok=True)
    scenarios = []
    for f in files:
        copy = directory / f.id
        shutil.copyfile(f.path, copy)
        scenarios.append(own_scenario(f.id, str(copy), f.properties, str(f.path), threads))
    return scenarios


def describe(files: list[WorkloadFile], threads: tuple[int, ...] | None = None) -> list[dict]:
    """What suite.json keeps of each file: its scenario, where it came from, its copy in the results directory,
    the thread counts of its run steps (None: the file's own)."""
    return [
        {
            "id": f.id,
            "source": str(f.path),
            "copy": f"{OWN_DIR}/{f.id}",
            "class": f.workload_class,
            "threads": list(threads) if threads else None,
        }
        for f in files
    ]


def scenarios_of_results(directory: Path, suite: dict) -> list[Scenario]:
    """The scenarios of a results directory's own workload files (suite.json's `workload_files`), from the
    copies it keeps; a copy gone missing makes none."""
    out = []
    for entry in suite.get("workload_files") or []:
        copy = directory / entry["copy"]
        if copy.is_file():
            props = read_properties(copy.read_text(encoding="latin-1"))
            threads = tuple(entry["threads"]) if entry.get("threads") else None
            out.append(own_scenario(entry["id"], str(copy), props, entry.get("source", ""), threads))
    return out
