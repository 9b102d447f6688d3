"""`umpire audit` of a game that is played while it runs: a command acknowledged after the
audit read the log keeps its receipt after that read, and the audit must not take that
receipt, naming a seq the log it read does not hold, for a loss. It reads the receipts (and
the head checkpoints) before the log. Found by the store-split fault test, where a `send`
and an `audit` waited on one stalled store and went on together."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from umpire.server import audit_command
from umpire.testing.support.forgery import Cli


def test_a_command_acknowledged_while_the_audit_reads_is_no_divergence(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fails on the previous commit: "FAILED: ... first divergence at seq 5 (receipt)".
    made = cli("new", "counter", "--json", "--setup", '{"target": 999}')
    assert made.code == 0, made.err
    game = json.loads(made.out)["game_id"]
    cli.send(game, {"type": "Add", "amount": 1})
    read_log = audit_command.load_log

    async def log_then_a_move(*args: Any) -> Any:
        log = await read_log(*args)
        # Another process plays on at once: appended, acknowledged, its receipt kept.
        moved = subprocess.run(
            [sys.executable, "-m", "umpire.server.cli", "send", game,
             '{"type": "Add", "amount": 2}'],
            capture_output=True, text=True, timeout=120, env=dict(os.environ),
        )  # fmt: skip
        assert moved.returncode == 0, moved.stderr
        return log

    monkeypatch.setattr(audit_command, "load_log", log_then_a_move)
    audited = cli("audit", game)
    assert audited.code == 0, audited.out + audited.err
    # The receipt of the move made during the audit is kept, and the next audit takes it.
    monkeypatch.setattr(audit_command, "load_log", read_log)
    again = cli("audit", game)
    assert again.code == 0 and "anchored: " in again.out, again.out
    kept = Path(os.environ["UMPIRE_DATA_DIR"]) / "receipts" / f"{game}.jsonl"
    assert kept.exists()
