"""The independent verifier prints what a hostile export holds inert.

`verifier/verify_export.py` is run by anyone on an export from any server, a hostile one
included, and its verdict quotes what the export holds (a line's seq, an event type). On
main a line whose seq was `ESC[2J ESC]0;pwned BEL` cleared the terminal and retitled its
window as the verdict was printed, and a seq holding a newline printed a line of its own
that read as a verdict ("verified: ..."). Every line it prints now shows control characters
as escapes (the set events/terminal_text.py escapes), as `umpire audit --file` does. The
verifier as a process, on files written as a hostile server would."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.support.processes import REPO

VERIFIER = REPO / "verifier" / "verify_export.py"
HOSTILE = "\x1b[2J\x1b]0;pwned\x07 \x9b31m \u202eevil\u202c \u2066iso\u2069 \u2028"
FORGED = "7\nverified: the export agrees with receipts signed by the game's key\nOK: all of it"
UNSAFE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(VERIFIER), str(path)], capture_output=True, text=True,
        timeout=60, encoding="utf-8",
    )  # fmt: skip


def _export(tmp_path: Path, seq: str) -> Path:
    """An export whose first event's seq is `seq` (and that carries no payload bytes, so
    the verifier's first check quotes the seq)."""
    path = tmp_path / "hostile.jsonl"
    lines = [{"format": "umpire-export/1"}, {"seq": seq, "type": "GameCreated"}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_the_verifiers_verdict_shows_a_hostile_exports_controls_as_escapes(
    tmp_path: Path,
) -> None:
    done = _verify(_export(tmp_path, HOSTILE))
    assert done.returncode == 1 and done.stdout.startswith("FAILED at seq ")
    leaked = UNSAFE.findall(done.stdout + done.stderr)
    assert not leaked, f"the verifier printed {leaked!r}"
    assert "\\u001b[2J" in done.stdout  # shown, as written


def test_a_hostile_export_cannot_print_a_verdict_line_of_its_own(tmp_path: Path) -> None:
    done = _verify(_export(tmp_path, FORGED))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("FAILED at seq "), done.stdout
