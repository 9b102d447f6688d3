"""The independent verifier (verifier/verify_export.py) run as a third party would."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

VERIFIER = Path(__file__).resolve().parents[2] / "verifier" / "verify_export.py"
# What an audit that passed leads with (issue #42 item 6; docs/audit.md 8.4): "verified"
# only with receipts signed by the game's key that agree.
VERIFIED = "verified: "
CONSISTENT = "consistent, not anchored: "


def after_headline(out: str) -> str:
    """An audit's output (the verifier's or `umpire audit`'s) without its headline line;
    output that has none (a failure) as it is."""
    first, _, rest = out.partition("\n")
    return rest if first.startswith((VERIFIED, CONSISTENT)) else out


def headline_of(out: str) -> str:
    """The headline an audit's output leads with ("" if none: a failure)."""
    first = out.partition("\n")[0]
    return first if first.startswith((VERIFIED, CONSISTENT)) else ""


def verifier_module() -> ModuleType:
    """The verifier imported as a module, to call its functions beside umpire's own (its
    dataclasses look their module up while it loads, so it is registered meanwhile)."""
    spec = importlib.util.spec_from_file_location("verify_export", VERIFIER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


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
