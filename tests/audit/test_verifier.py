"""The independent verifier (verifier/verify_export.py, written from docs/audit.md alone)
accepts an honest export of every ruleset and refuses tampered ones, naming the seq; and
`umpire audit --file` refuses the same tampering (issue #16, item 7)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.audit.forgery import Cli, counter_game, read_lines, reseal, write_lines
from tests.audit.rulesets_games import every_ruleset, short_game

VERIFIER = Path(__file__).resolve().parents[2] / "verifier" / "verify_export.py"

Records = list[dict[str, Any]]


def verify(path: Path) -> tuple[int, str]:
    """Run the verifier as a third party would: its own process, no umpire on its path."""
    done = subprocess.run(
        [sys.executable, "-I", str(VERIFIER), str(path)], capture_output=True, text=True,
        timeout=120, cwd=path.parent,
    )  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def test_the_verifier_imports_nothing_of_umpire() -> None:
    source = VERIFIER.read_text()
    for package in ("engine", "events", "server", "clients", "tests"):
        assert f"import {package}" not in source and f"from {package}" not in source


@pytest.mark.parametrize("ruleset", every_ruleset())
def test_an_export_of_every_ruleset_verifies(cli: Cli, ruleset: str) -> None:
    path = cli.export(short_game(cli, ruleset))
    code, out = verify(path)
    assert code == 0 and out.startswith("OK: "), out
    assert "1 revealed seed(s)" in out and "0 still closed" in out, out


def test_the_verifier_opens_commitments_and_recomputes_rolls(cli: Cli) -> None:
    code, out = verify(cli.export(counter_game(cli)))
    assert code == 0, out
    assert "2 commitments opened" in out and "3 server rolls recomputed" in out, out


def _face(records: Records, seq: int) -> None:
    payload = records[seq - 1]["payload"]
    payload["faces"] = [f % 6 + 1 for f in payload["faces"]]
    payload["total"] = sum(payload["faces"])


def _delete(records: Records, seq: int) -> None:
    del records[seq - 1]


def _swap(records: Records, seq: int) -> None:
    # the roll at `seq` and the next roll (counter_game: seqs 3 and 6)
    records[seq - 1], records[5] = records[5], records[seq - 1]


def _seed(records: Records, seq: int) -> None:
    payload = records[seq - 1]["payload"]
    payload["seed"] = ("0" if payload["seed"][0] != "0" else "1") + payload["seed"][1:]


# (tamper, seq it touches, seq named without re-hashing, seq named by the verifier after
# a forger re-hashed the chain from the edit on, renumbering the seqs after a deletion)
TAMPERS: dict[str, tuple[Callable[[Records, int], None], int, int, int]] = {
    "changed public face": (_face, 3, 3, 3),
    "changed hidden face": (_face, 6, 6, 6),
    "deleted roll": (_delete, 3, 3, 5),
    "swapped rolls": (_swap, 3, 3, 3),
    "changed revealed seed": (_seed, 13, 13, 13),
}


@pytest.mark.parametrize("rehash", [False, True], ids=["as edited", "chain re-hashed"])
@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_tampering_fails_the_verifier_and_the_audit(cli: Cli, name: str, rehash: bool) -> None:
    tamper, seq, named, named_rehashed = TAMPERS[name]
    header, records = read_lines(cli.export(counter_game(cli)))
    tamper(records, seq)
    if rehash:
        for index, record in enumerate(records):
            record["seq"] = index + 1
        header["events"] = len(records)
        reseal(header, records, 0)
    path = write_lines(cli.tmp / "tampered.jsonl", header, records)
    code, out = verify(path)
    expected = named_rehashed if rehash else named
    assert code == 1 and out.startswith(f"FAILED at seq {expected}:"), out
    result = cli("audit", "--file", str(path))
    assert result.code != 0, result.out
    # A deleted roll, re-hashed, is a command batch short of the roll its rules ask for:
    # the audit's grammar names that command (seq 2), the verifier the first changed link.
    assert f"first divergence at seq {expected} " in result.out or (
        rehash and name == "deleted roll" and "first divergence at seq 2 (decision)" in result.out
    ), result.out


def test_an_edited_readable_payload_fails_the_verifier(cli: Cli) -> None:
    """Editing only the readable JSON (not the bytes the hash covers) is found too."""
    path = cli.export(counter_game(cli))
    lines = path.read_text().splitlines()
    lines[9] = lines[9].replace('"amount":3', '"amount":5')  # seq 9: the player added 3
    assert lines[9] != path.read_text().splitlines()[9]
    edited = cli.tmp / "readable.jsonl"
    edited.write_text("\n".join(lines) + "\n")
    code, out = verify(edited)
    assert code == 1 and out.startswith("FAILED at seq 9:") and "readable" in out, out
