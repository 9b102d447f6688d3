"""`python -m bench.busy_suite`: the whole test suite, several times, on a busy machine.

The suite must pass however loaded the machine is (no test asserts a speed; a test waits
for a condition). This starts one CPU hog per core (a Python busy loop each), runs the
README's test command RUNS times while they spin, stops them, and prints each run's
closing line and wall time. It proves the suite's robustness the way a shared CI runner
would test it, without asserting anything about speed itself.

    python -m bench.busy_suite [--runs 3] [--hogs N] [-- extra pytest arguments]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console

REPO = Path(__file__).resolve().parents[1]
HOG = "while True: pass"
# The README's test command (and .ci/run's) after its install step.
PYTEST = ["-m", "pytest", "-q", "-p", "no:randomly", "-n", "3", "--maxschedchunk", "1"]


def _closing_line(output: str) -> str:
    lines = [line for line in output.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.busy_suite", description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--hogs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("pytest_args", nargs="*", help="after --: more pytest arguments")
    args = parser.parse_args(argv)
    console = Console(stderr=True)
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(args.hogs)]
    failed = 0
    try:
        for run in range(1, args.runs + 1):
            started = time.monotonic()
            result = subprocess.run(
                [sys.executable, *PYTEST, *args.pytest_args],
                cwd=REPO,
                capture_output=True,
                text=True,
            )
            minutes = (time.monotonic() - started) / 60
            failed += result.returncode != 0
            console.print(
                f"run {run} of {args.runs} with {args.hogs} CPU hogs: exit {result.returncode}, "
                f"{minutes:.1f} min: {_closing_line(result.stdout)}"
            )
            if result.returncode != 0:
                console.print(result.stdout[-6000:], markup=False, highlight=False)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
