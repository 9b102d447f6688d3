"""Where the seed rule documents are: $UMPIRE_SEEDS_DIR, else ../shared/seeds beside the
checkout (as CI lays it out)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def seeds_dir() -> Path:
    """The directory holding the five seed files."""
    env = os.environ.get("UMPIRE_SEEDS_DIR")
    return Path(env) if env else REPO.parent / "shared" / "seeds"


def seed_text(name: str) -> str:
    """The text of one seed file (e.g. '004_c3eb2ad371d7bb6a.txt'); skips if absent."""
    path = seeds_dir() / name
    if not path.exists():
        pytest.skip(f"seed {name} not found in {seeds_dir()}")
    return path.read_text(encoding="utf-8", errors="replace")
