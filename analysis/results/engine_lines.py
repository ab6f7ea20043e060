"""Parse what the binding prints on stderr around YCSB's lines: its start-up banner (engine version, open
time, effective configuration), its close line, and the engines' own statistics at close (a stats line or a
table of levels, as the registry's `report.closestats` says), with the size grammar the bindings print sizes in.

Everything here is a pure function of text; reading files is the caller's business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from ..catalogue.engines import REGISTERED
from ..catalogue.model import binding_of

# --- the binding's start-up and close lines ----------------------------------------------------


@dataclass
class EngineBanner:
    engine: str
    version: str | None = None  # "[engine] engine: <name and version>"
    open_ms: float | None = None
    close_ms: float | None = None
    configuration: dict[str, str] = field(default_factory=dict)


def parse_engine_banner(stderr: str, engine: str) -> EngineBanner:
    """`[engine] <name and version>`, `[engine] opened <dir> in X ms; effective configuration:`
    with indented `name = value (origin)` lines, and `[engine] closed <dir> in X ms`."""
    banner = EngineBanner(engine)
    prefix = f"[{binding_of(engine)}] "
    in_configuration = False
    engine_line = False  # outputs older than the "engine:" line: the first other line is the version
    for line in stderr.splitlines():
        if in_configuration:
            m = re.match(r"^\s+(\S+) = (.*?)(?: \(([^()]*)\))?$", line)
            if m and line[:1].isspace():
                banner.configuration[m.group(1)] = m.group(2)
                continue
            in_configuration = False
        if not line.startswith(prefix):
            continue
        rest = line[len(prefix) :]
        opened = re.match(r"opened .* in ([0-9.]+) ms", rest)
        closed = re.match(r"closed .* in ([0-9.]+) ms", rest)
        if rest.startswith("engine: "):  # the binding's own version line (the binding base prints it at open)
            banner.version = rest[len("engine: ") :].strip()
            engine_line = True
        elif opened:
            banner.open_ms = float(opened.group(1))
            in_configuration = rest.rstrip().endswith("configuration:")
        elif closed:
            banner.close_ms = float(closed.group(1))
        elif (
            not engine_line
            and banner.version is None
            and banner.open_ms is None
            and not re.search(r"\bfailed\b|\berror\b", rest, re.I)
        ):
            banner.version = rest.strip()
    return banner


# --- the engines' own statistics at close -----------------------------------------------------

# The bindings' size grammar (EngineProperties.parseSize), tested on both sides with the cases in
# common/src/test/resources/size-cases.txt: a whole or decimal number, then k, m, g or t (powers of
# 1024) with an optional b or ib, or a lone b; case-insensitive; a whole number of bytes that fits a long.
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)[ \t]*(?:([kmgt])(?:i?b)?|b)?", re.I)
_SIZE_SHIFTS = {"": 0, "k": 10, "m": 20, "g": 30, "t": 40}
_LONG_MAX = 2**63 - 1


def parse_size(text: str | None) -> int | None:
    """A size as the bindings take and print it: '2m' -> 2097152, '4MiB' -> 4194304, '4194304' ->
    4194304; None when it is not a size."""
    m = _SIZE.fullmatch((text or "").strip())
    if not m:
        return None
    size = Fraction(m.group(1)) * 2 ** _SIZE_SHIFTS[(m.group(2) or "").lower()]
    if size.denominator != 1 or size > _LONG_MAX:
        return None  # a fraction of a byte, or more than the bindings' long holds
    return int(size)


@dataclass(frozen=True)
class EngineStats:
    """What an engine printed about its background work when it closed (None: it does not say)."""

    files_per_level: tuple[int, ...] = ()
    level_bytes: tuple[int, ...] = ()  # LevelDB's Size(MB) per level; RocksDB's stats line has none
    stall_stops: int | None = None  # RocksDB only: LevelDB keeps no stall counter
    stall_slowdowns: int | None = None
    stall_seconds: float | None = None
    flush_bytes: int | None = None  # RocksDB; LevelDB counts its flushes with its compactions
    compaction_read_bytes: int | None = None
    compaction_write_bytes: int | None = None  # LevelDB: the Write(MB) of every level, flushes included
    user_bytes: int | None = None  # what the clients wrote (RocksDB's bytes_written)


LEVELDB_LEVELS = 7  # config::kNumLevels


def _int_field(fields: dict[str, str], name: str) -> int | None:
    value = fields.get(name, "")
    return int(value) if value.isdigit() else None


def parse_stats_line(stderr: str, binding: str) -> EngineStats | None:
    """The last `[<binding>] stats: name=value ...` line (RocksDB's). A line with `source=properties` takes
    every figure from DB properties, whatever <binding>.stats says. An older line (no source) took its stall
    time and byte counts from the engine's statistics object: with <binding>.stats=false they read 0 and
    are left out here."""
    prefix = f"[{binding}] stats: "
    lines = [line for line in stderr.splitlines() if line.startswith(prefix)]
    if not lines:
        return None
    fields = dict(part.partition("=")[::2] for part in lines[-1][len(prefix) :].split())
    files = tuple(int(f) for f in fields.get("files_per_level", "").split(",") if f.strip().isdigit())
    tickers = (
        fields.get("source") == "properties"
        or parse_engine_banner(stderr, binding).configuration.get(f"{binding}.stats", "true") != "false"
    )
    micros = _int_field(fields, "stall_micros")
    return EngineStats(
        files_per_level=files,
        stall_stops=_int_field(fields, "stall_stops"),
        stall_slowdowns=_int_field(fields, "stall_slowdowns"),
        stall_seconds=micros / 1e6 if micros is not None and tickers else None,
        flush_bytes=_int_field(fields, "flush_bytes") if tickers else None,
        compaction_read_bytes=_int_field(fields, "compaction_read_bytes") if tickers else None,
        compaction_write_bytes=_int_field(fields, "compaction_write_bytes") if tickers else None,
        user_bytes=_int_field(fields, "bytes_written") if tickers else None,
    )


_LEVELDB_STATS_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s*$")


def parse_level_table(stderr: str, binding: str) -> EngineStats | None:
    """The table after the last `[<binding>] <property> at close:` line (the binding names the library's property
    that printed it): a row per level that holds files or did compaction work (Level, Files, Size(MB), Time(sec),
    Read(MB), Write(MB)), LevelDB's layout."""
    lines = stderr.splitlines()
    header = re.compile(re.escape(f"[{binding}] ") + r"\S+ at close:$")
    starts = [i for i, line in enumerate(lines) if header.match(line)]
    if not starts:
        return None
    files, sizes = [0] * LEVELDB_LEVELS, [0] * LEVELDB_LEVELS
    read_mb = write_mb = 0.0
    for line in lines[starts[-1] + 1 :]:
        if line.startswith("["):
            break  # the binding's next line ("[<binding>] closed ...")
        m = _LEVELDB_STATS_ROW.match(line)
        if not m or int(m.group(1)) >= LEVELDB_LEVELS:
            continue  # the headings, the dashes, a `-s` status line printed in between
        level = int(m.group(1))
        files[level], sizes[level] = int(m.group(2)), round(float(m.group(3)) * 2**20)
        read_mb += float(m.group(5))
        write_mb += float(m.group(6))
    return EngineStats(
        files_per_level=tuple(files),
        level_bytes=tuple(sizes),
        compaction_read_bytes=round(read_mb * 2**20),
        compaction_write_bytes=round(write_mb * 2**20),
    )


# The registry's `report.closestats` -> the reader of what the binding prints at close.
CLOSE_STATS_READERS = {"line": parse_stats_line, "table": parse_level_table}


def parse_engine_stats(stderr: str, engine: str) -> EngineStats | None:
    """The statistics an engine prints at close, read as its binding's `report.closestats` says (the registry);
    None for the other engines and for outputs without them (a failed step, an older binding)."""
    binding = binding_of(engine)
    registered = REGISTERED.by_name.get(binding)
    reader = CLOSE_STATS_READERS.get(registered.close_stats) if registered else None
    return reader(stderr, binding) if reader else None
