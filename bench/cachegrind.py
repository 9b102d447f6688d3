"""Instructions counted by valgrind's cachegrind: the figure the load of a shared machine
does not move (docs/benchmarks.md), for the bench scripts that count a child's work."""

from __future__ import annotations

import re
import subprocess

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


VALGRIND = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]


def instructions(argv: list[str]) -> int:
    """The instructions valgrind counted in the child `argv` (the whole process)."""
    done = subprocess.run([*VALGRIND, *argv], capture_output=True, text=True, check=True)
    return counted(done.stderr)


def counted(stderr: str) -> int:
    """The instruction count in the report valgrind wrote to `stderr`."""
    found = _REFS.search(stderr)
    if found is None:
        raise RuntimeError(f"no instruction count from valgrind: {stderr[-500:]!r}")
    return int(found.group(1).replace(",", ""))
