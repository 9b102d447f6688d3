"""The independent verifier (verifier/verify_export.py) run as a third party would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

VERIFIER = Path(__file__).resolve().parents[2] / "verifier" / "verify_export.py"


def verify(path: Path) -> tuple[int, str]:
    """Run the verifier as a third party would: its own process, no umpire on its path."""
    done = subprocess.run(
        [sys.executable, "-I", str(VERIFIER), str(path)], capture_output=True, text=True,
        timeout=120, cwd=path.parent,
    )  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def verify_with(path: Path, *args: str) -> tuple[int, str]:
    """The verifier with extra arguments."""
    done = subprocess.run(
        [sys.executable, "-I", str(VERIFIER), str(path), *args], capture_output=True,
        text=True, timeout=120, cwd=path.parent,
    )  # fmt: skip
    return done.returncode, done.stdout + done.stderr
