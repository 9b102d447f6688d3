"""`python -m bench`: run the benchmarks, print JSON, then a readable table."""

from __future__ import annotations

import asyncio
import json
import platform
import sys

from rich.console import Console
from rich.table import Table

from bench import core


def main() -> int:
    console = Console(stderr=True)
    with console.status("measuring the core log (append, raw XADD, fold)…"):
        figures = {"core": asyncio.run(core.run())}
    figures["machine"] = {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpus": __import__("os").cpu_count(),
    }
    print(json.dumps(figures, indent=2))
    table = Table(title="umpire benchmarks")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in figures["core"].items():
        if not isinstance(value, dict):
            table.add_row(key, f"{value:,}" if isinstance(value, int) else str(value))
    console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
