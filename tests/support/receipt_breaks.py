"""The forgery kinds of issue #30 breaks 1 to 4, made on an export of `revealed_midway`
(tests/support/receipts.py), and what every verifier must say of each: without receipts,
what it could not check; with the player's receipts, the seq it fails at.

One copy for tests/audit/test_receipt_anchors.py (verify_export.py and `umpire audit
--file`) and tests/viewer/test_verify_page.py (the browser page against verify_export.py).
Each forgery edits a header and records in place, re-sealed as a forger would, and returns
its `Break`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from umpire.engine.dice import DiceKind, DiceSpec, derive_faces
from umpire.testing.support.forgery import reseal

Header = dict[str, Any]
Records = list[dict[str, Any]]
CHOSEN = bytes(range(100, 132))  # the seed the forger chose for epoch 1


@dataclass(frozen=True)
class Break:
    """What the verifiers say of one forgery.

    bare: how verify_export.py's line (and the page's) begins without receipts;
    seq: the seq every verifier fails at given the receipts;
    said: what verify_export.py's line says given them (each of these);
    kind: the check `umpire audit --file` names at that seq ("" for any)."""

    bare: str
    seq: int
    said: tuple[str, ...]
    kind: str = "receipt"


def command_of(records: Records, index: int) -> int:
    return max(i for i in range(index) if records[i]["type"] == "CommandRecorded")


def _receipt_seqs(receipts: Path) -> list[int]:
    return sorted(
        json.loads(line)["head_seq"]
        for line in receipts.read_text().splitlines()
        if '"receipt"' in line
    )


def rewrite_from_the_reveal(header: Header, records: Records, receipts: Path) -> Break:
    """Break 1: the mid-game reveal's next_commitment pointed at a seed the forger chose,
    and every server roll after it re-derived under that seed: consistent on its own."""
    reveal = next(i for i, r in enumerate(records)
                  if r["type"] == "SeedRevealed" and r["payload"]["next_commitment"])  # fmt: skip
    records[reveal]["payload"]["next_commitment"] = hashlib.sha256(CHOSEN).hexdigest()
    for record in records[reveal + 1 :]:
        p = record["payload"]
        if record["type"] == "DiceRolled" and p["by"] == "server":
            spec = DiceSpec(DiceKind(p["kind"]), tuple(p["sides"]), tuple(p["labels"]))
            p["faces"] = list(derive_faces(CHOSEN, "", p["roll"], spec))
            p["total"] = (p["faces"][0] * 10 + p["faces"][1] or 100) if p["kind"] == "d100" \
                else sum(p["faces"])  # fmt: skip
        if record["type"] == "SeedRevealed":
            p["seed"] = CHOSEN.hex()
    header["seed"] = CHOSEN.hex()
    reseal(header, records, reveal)
    return Break("OK: ", reveal + 1, ("on line",))


def relabelled_server_roll(header: Header, records: Records, receipts: Path) -> Break:
    """Break 2: the generic roll (the player's own): manual_dice flipped, by player, a new
    face."""
    index = max(i for i, r in enumerate(records) if r["type"] == "DiceRolled")
    roll = records[index]["payload"]
    assert roll["by"] == "server" and roll["owner"] == "player"
    roll["by"] = "player"
    roll["faces"][0] = roll["faces"][0] % 6 + 1
    roll["total"] = sum(roll["faces"])
    first = command_of(records, index)
    records[first]["payload"]["manual_dice"] = True
    reseal(header, records, first)
    seq = min(s for s in _receipt_seqs(receipts) if s >= first + 1)
    return Break("OK: ", seq, ("receipt on line", "the log was rewritten at or before"))


def relabelled_opponent_dice(header: Header, records: Records, receipts: Path) -> Break:
    """Break 2: the game made to allow the opponent's dice by hand, and the opponent's first
    roll (if the openings make one) relabelled physical, its face kept."""
    records[0]["payload"]["opponent_manual_dice"] = True
    theirs = [i for i, r in enumerate(records) if r["type"] == "DiceRolled"
              and r["payload"]["owner"] == "opponent"]  # fmt: skip
    if theirs:
        command = command_of(records, theirs[0])
        records[command]["payload"]["manual_dice"] = True
        # Every roll of that command is the player's now.
        for record in records[command + 1 :]:
            if record["command_id"] != records[command]["command_id"]:
                break
            if record["type"] == "DiceRolled":
                record["payload"]["by"] = "player"
    reseal(header, records, 0)
    seq = min(_receipt_seqs(receipts))
    return Break("OK: ", seq, ("receipt on line", "the log was rewritten at or before"))


def _cut(header: Header, records: Records, keep: int) -> Break:
    del records[keep:]
    seeds = [r["payload"]["seed"] for r in records if r["type"] == "SeedRevealed"]
    header.update(events=keep, last_hash=records[-1]["hash"], complete=False, seed=seeds[-1])
    return Break("PREFIX: ", keep + 1, ("receipt on line", f"the export ends at seq {keep}"))


def cut_before_the_final_reveal(header: Header, records: Records, receipts: Path) -> Break:
    """Break 3: ended without its final reveal, the header tidied to a prefix."""
    return _cut(header, records, len(records) - 1)


def cut_after_the_mid_game_reveal(header: Header, records: Records, receipts: Path) -> Break:
    """Break 3: cut right after the mid-game reveal, the header tidied to a prefix."""
    reveals = [i for i, r in enumerate(records) if r["type"] == "SeedRevealed"]
    return _cut(header, records, reveals[0] + 1)


def _first_roll_downgraded(header: Header, records: Records, version_1: bool) -> Break:
    index = next(i for i, r in enumerate(records) if r["type"] == "DiceRolled")
    if version_1:
        records[index]["envelope_version"] = 1
    else:
        records[index]["payload"]["hidden"] = True
    records[index]["committed"] = False
    reseal(header, records, index)
    seq = index + 1
    # The log's own check names it, with receipts or without.
    return Break(f"FAILED at seq {seq}: ", seq, (), kind="")


def hidden_roll_with_a_plain_digest(header: Header, records: Records, receipts: Path) -> Break:
    """Break 4: a hidden roll published with a plain SHA-256 digest."""
    return _first_roll_downgraded(header, records, version_1=False)


def version_1_envelope(header: Header, records: Records, receipts: Path) -> Break:
    """Break 4: an event re-sealed as envelope version 1 after version 2."""
    return _first_roll_downgraded(header, records, version_1=True)


BREAKS: dict[str, Callable[[Header, Records, Path], Break]] = {
    "1 rewrite from the mid-game reveal": rewrite_from_the_reveal,
    "2 server roll as physical": relabelled_server_roll,
    "2 opponent_manual_dice": relabelled_opponent_dice,
    "3 cut before the final reveal": cut_before_the_final_reveal,
    "3 cut after the mid-game reveal": cut_after_the_mid_game_reveal,
    "4 hidden roll with a plain digest": hidden_roll_with_a_plain_digest,
    "4 version 1 envelope": version_1_envelope,
}


def check_verifier(expected: Break, bare: tuple[int, str], given: tuple[int, str]) -> None:
    """verify_export.py's (or the page's) (exit code, line) without and with receipts."""
    code, line = bare
    assert line.startswith(expected.bare), (expected, line)
    assert code == (1 if expected.bare.startswith("FAILED") else 0), (code, line)
    if code == 0:  # what it could not check
        assert "not anchored: no receipts given" in line, line
    code, line = given
    assert code == 1 and line.startswith(f"FAILED at seq {expected.seq}: "), (expected, line)
    for words in expected.said:
        assert words in line, (words, line)


def check_audit(expected: Break, bare: tuple[int, str], given: tuple[int, str]) -> None:
    """`umpire audit --file`'s (exit code, output flattened) without and with receipts."""
    code, out = bare
    if expected.bare.startswith("FAILED"):
        assert code == 1 and f"first divergence at seq {expected.seq} " in out, out
    else:
        assert code == 0 and out.startswith(expected.bare) and "not anchored" in out, out
    code, out = given
    kind = f"({expected.kind})" if expected.kind else ""
    assert code == 1 and f"first divergence at seq {expected.seq} {kind}" in out, out
