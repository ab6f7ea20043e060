"""python -m analysis crash ...: the crash check (analysis/crash.py)."""

from __future__ import annotations

import sys

COMMANDS = ("crash",)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python -m analysis {'|'.join(COMMANDS)} [options]  (--help after a command for its options)",
              file=sys.stderr)
        return 2
    from . import crash
    return crash.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
