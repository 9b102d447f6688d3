"""Where the project's modules are, by dotted name: for the tests that read the source
(tests/test_imports.py, tests/server/test_store_boundary.py, tests/test_test_layout.py)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FOLDERS = ("engine", "events", "server", "clients", "testing")  # installed as umpire.<folder>
PACKAGES = (*FOLDERS, "verifier")
# Where project code is: every folder above plus the tests, benchmarks and the example ruleset.
SOURCES = (*PACKAGES, "tests", "bench", "examples")


def modules() -> dict[str, Path]:
    """Every project module by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        prefix = ["umpire"] if package in FOLDERS else []
        for path in sorted((REPO / package).rglob("*.py")):
            parts = [*prefix, *path.relative_to(REPO).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found
