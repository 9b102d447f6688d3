"""Where the seed rule documents are: $UMPIRE_SEEDS_DIR, else shared/seeds beside the
checkout (as CI lays it out) or beside a folder holding it (a git worktree's).

The documents are someone else's words, so the repository does not carry them: the rules
and the worked examples are tested from data the repository holds, and only the checks of
that data against the printed page (provenance checks) read a document. Where the
documents are absent on a user's clone, those checks skip with one summary line at the end
of the run (tests/conftest.py). Where they are expected (`CI=true`, or `UMPIRE_SEEDS_DIR`
set), a missing document fails the check instead: a missing seed must never silently turn
off every traceability and table check in CI.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Every provenance skip carries this reason, so the summary can count them.
SKIP_REASON = "provenance check: the seed rule documents are not here"
HINT = "set UMPIRE_SEEDS_DIR to the folder holding the five rule documents"


def seeds_dir() -> Path:
    """The directory holding the five seed files."""
    env = os.environ.get("UMPIRE_SEEDS_DIR")
    if env:
        return Path(env)
    for parent in REPO.parents:
        if (parent / "shared" / "seeds").is_dir():
            return parent / "shared" / "seeds"
    return REPO.parent / "shared" / "seeds"


def required() -> bool:
    """Whether a missing document fails (CI, or a folder named on purpose) or skips."""
    return bool(os.environ.get("UMPIRE_SEEDS_DIR")) or os.environ.get("CI", "") == "true"


def seed_path(name: str) -> Path:
    """The path of one seed file. Absent: fails, saying where it looked, where the
    documents are required; otherwise skips the calling provenance check."""
    path = seeds_dir() / name
    if not path.is_file():
        if not required():
            pytest.skip(SKIP_REASON)
        pytest.fail(
            f"seed {name} not found in {seeds_dir()}: the provenance checks compare the "
            f"rules' data with their seed documents ({HINT}; CI=true requires them)",
            pytrace=False,
        )
    return path


def seed_text(name: str) -> str:
    """The text of one seed file (e.g. '004_c3eb2ad371d7bb6a.txt'); see `seed_path`."""
    return seed_path(name).read_text(encoding="utf-8", errors="replace")
