"""The standing checks run with the tests: ruff lint and format over the tree, and mypy
(strict, pyproject's config) over umpire.events, umpire.engine, umpire.server and
umpire.clients (tests/support/typecheck.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import typecheck

REPO = Path(__file__).resolve().parents[1]


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *argv], cwd=REPO, capture_output=True, text=True, timeout=600
    )


def test_ruff_lint_is_clean() -> None:
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout[-4000:]


def test_ruff_format_is_clean() -> None:
    result = run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout[-4000:]


@pytest.mark.slow
def test_mypy_strict_is_clean_on_every_package() -> None:
    result = typecheck.mypy()
    assert result.returncode == 0, result.stdout[-4000:]
