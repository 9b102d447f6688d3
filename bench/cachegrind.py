"""Instructions counted by valgrind's cachegrind: the figure the load of a shared machine
does not move (docs/benchmarks.md), for the bench scripts that count a child's work."""

from __future__ import annotations

import re
import subprocess

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(argv: list[str]) -> int:
    """The instructions valgrind counted in the child `argv` (the whole process)."""
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         *argv],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = _REFS.search(done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count from valgrind: {done.stderr[-500:]!r}")
    return int(found.group(1).replace(",", ""))
