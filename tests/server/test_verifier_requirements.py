"""verifier/verify_export.py run by a third party whose Python lacks its two packages says
which one and how to install them, with exit 2, not a traceback (docs/audit.md)."""

from __future__ import annotations

import subprocess
import sys

from umpire.testing.support.verifier import VERIFIER


def test_a_python_without_msgpack_is_told_what_to_install() -> None:
    # Fails without the fix: a ModuleNotFoundError traceback and exit 1. `-S` leaves out
    # site-packages, where msgpack and cryptography live: a bare Python, as a third
    # party's may be.
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(VERIFIER), "game.jsonl"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr, done.stderr
    assert "pip install msgpack cryptography" in done.stderr, done.stderr
