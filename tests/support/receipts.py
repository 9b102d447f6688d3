"""Receipts for the audit tests (docs/audit.md 8.1): a game of every ruleset with a
mid-game reveal, the receipts this machine kept of it, and both verifiers' verdicts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from umpire.engine import registry
from umpire.testing.support.drivers import start_setup
from umpire.testing.support.forgery import Cli, write_lines
from umpire.testing.support.verifier import verify_with


def revealed_midway(cli: Cli, ruleset: str) -> str:
    """A game of `ruleset`: its openings, a mid-game reveal (`umpire reveal`: epoch 1
    begins under a fresh commitment), a generic 2d6 roll, and the end (the final reveal)."""
    game = cli.new(ruleset, start_setup(ruleset))
    for command in registry.get(ruleset).openings:
        cli.send(game, msgspec.to_builtins(command))
    assert cli("reveal", game).code == 0
    cli.send(game, {"type": "RollDice", "dice": "2d6", "purpose": "receipts test"})
    cli.send(game, {"type": "EndGame", "result": "receipts test over"})
    return game


def receipts_of(cli: Cli, game: str) -> Path:
    """`umpire receipts GAME` written to a file, as the player would keep it."""
    result = cli("receipts", game)
    assert result.code == 0, result.err
    path = cli.tmp / f"{game}.receipts.jsonl"
    path.write_text(result.out)
    return path


def verdicts(
    cli: Cli, header: dict[str, Any], records: list[dict[str, Any]], name: str,
    receipts: Path | None,
) -> tuple[str, str]:  # fmt: skip
    """(verify_export.py's, `umpire audit --file`'s) exit code and output, one line each,
    on these records written as an export, with `receipts` if given."""
    path = write_lines(cli.tmp / f"{name}.jsonl", header, records)
    extra = ("--receipts", str(receipts)) if receipts is not None else ()
    code, verified = verify_with(path, *extra)
    audited_code, audited = audit_verdict(cli, path, receipts)
    return f"{code} {' '.join(verified.split())}", f"{audited_code} {audited}"


def audit_verdict(cli: Cli, path: Path, receipts: Path | None) -> tuple[int, str]:
    """`umpire audit --file PATH` (with `--receipts`, if given): its exit code and output,
    stdout and stderr, on one line."""
    extra = ("--receipts", str(receipts)) if receipts is not None else ()
    audited = cli("audit", "--file", str(path), *extra)
    return audited.code, " ".join(f"{audited.out} {audited.err}".split())
