"""`python -m analysis COMMAND [OPTIONS]`: the command line itself is analysis/cli/main.py."""

from __future__ import annotations

import sys

from .cli.main import main

if __name__ == "__main__":
    sys.exit(main())
