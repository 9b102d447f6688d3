"""Where the seed rule documents are: $UMPIRE_SEEDS_DIR, else shared/seeds beside the
checkout (as CI lays it out) or beside a folder holding it (a git worktree's).

A test that needs a seed fails when it is missing, never skips: a missing seed would
otherwise silently turn off every traceability and table check.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def seeds_dir() -> Path:
    """The directory holding the five seed files."""
    env = os.environ.get("UMPIRE_SEEDS_DIR")
    if env:
        return Path(env)
    for parent in REPO.parents:
        if (parent / "shared" / "seeds").is_dir():
            return parent / "shared" / "seeds"
    return REPO.parent / "shared" / "seeds"


def seed_path(name: str) -> Path:
    """The path of one seed file; fails the test, saying where it looked, if absent."""
    path = seeds_dir() / name
    if not path.is_file():
        pytest.fail(
            f"seed {name} not found in {seeds_dir()}: the tests that check the rules against "
            f"their seed need the seed documents there (or set UMPIRE_SEEDS_DIR)",
            pytrace=False,
        )
    return path


def seed_text(name: str) -> str:
    """The text of one seed file (e.g. '004_c3eb2ad371d7bb6a.txt'); fails if absent."""
    return seed_path(name).read_text(encoding="utf-8", errors="replace")
