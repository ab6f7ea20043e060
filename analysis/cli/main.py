"""The analysis' one command line: python -m analysis COMMAND [OPTIONS].

    run       runs engines x scenarios, then writes the report; prints the report's path last
    report    (re)renders the report of a results directory
    compare   compares two results directories as ratios B / A
    list      prints the scenario catalogue: scenario, section, engines, steps
    crash     the durability check: write, kill, verify what was acknowledged
    rate      latency at a rate: each engine's sweep of asked rates and its capacity under a latency bound

`python -m analysis COMMAND --help` gives each command's options. Each command imports only what it
needs, so `list` starts without pandas or matplotlib.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

PROG = "python -m analysis"
COMMANDS = ("run", "report", "compare", "list", "crash", "rate")


def _usage() -> str:
    return f"usage: {PROG} {{{','.join(COMMANDS)}}} [OPTIONS]\n\n" + (__doc__ or "").split("\n\n", 1)[1]


def command_main(command: str) -> Callable[[list[str]], int] | None:
    """The main function of a command, imported only when that command runs; None if unknown."""
    if command == "run":
        from ..running.suite import main as run_main

        return run_main
    if command == "list":
        from ..running.suite import list_main

        return list_main
    if command == "report":
        from ..report.report import main as report_main

        return report_main
    if command == "compare":
        from ..report.compare import main as compare_main

        return compare_main
    if command == "crash":
        from ..running.crash import main as crash_main

        return crash_main
    if command == "rate":
        from ..running.rate_run import main as rate_main

        return rate_main
    return None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(_usage(), end="", file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    run = command_main(args[0])
    if run is None:
        print(f"{PROG}: unknown command {args[0]!r}; commands: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    return run(args[1:])


if __name__ == "__main__":
    sys.exit(main())
