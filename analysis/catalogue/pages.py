"""The published pages the catalogue reproduces, read from analysis/reference/pages.csv: a page's source id
(its figures' file), the report section its tests sit in, their --scenarios group and the engines it measured.

scenarios.py and the report take those ids and engines from here, so that no code writes a page's engine names;
report/reference.py reads each page's figures from its file.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

REFERENCE_DIR = Path(__file__).resolve().parents[1] / "reference"


@dataclass(frozen=True)
class PublishedPage:
    source: str  # its id: the name of its figures' file, and findings.csv's `source`
    section: str  # the report section id of its tests; "" where they keep the page's own numbered sections
    group: str  # the --scenarios name that selects its tests
    engines: tuple[str, ...]  # the suite engines it measured, in the order the catalogue lists them

    @property
    def file(self) -> str:
        return f"{self.source}.csv"


def load_pages(directory: Path = REFERENCE_DIR) -> tuple[PublishedPage, ...]:
    with (directory / "pages.csv").open(newline="") as f:
        return tuple(
            PublishedPage(row["source"], row["section"], row["group"], tuple(row["engines"].split()))
            for row in csv.DictReader(f)
        )


# pages.csv's rows in its order (a row more or less fails here): the 2011 page, RocksDB vs LevelDB, SQLite's
# performance notes, FastDB vs SQLite.
PUBLISHED_PAGES = load_pages()
LEVELDB_2011_PAGE, ROCKSDB_PAGE, SQLITE_PAGE, FASTDB_PAGE = PUBLISHED_PAGES
