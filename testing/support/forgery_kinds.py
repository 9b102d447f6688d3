"""The forgery kinds the audit tests make, written once: tests/audit (test_verifier.py,
test_forgery_kinds.py, test_takeback_audit.py) check `umpire audit --file` and
verifier/verify_export.py against them, and tests/viewer/test_verify_page.py checks the
browser verifier against verify_export.py on the same files.

Each forgery edits an export's header and records in place and returns the index of the
first record it changed, from which the caller re-seals the chain (`forgery.reseal`), as a
forger would. The seqs named in the tables are those of the games the comments give.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from umpire.engine.dice import d6, derive_faces
from umpire.testing.support.forgery import Cli, forged, insert, read_lines

Header = dict[str, Any]
Records = list[dict[str, Any]]
Forgery = Callable[[Header, Records], int]  # edits in place, returns the index edited


class NotApplicable(Exception):
    """The game holds nothing this forgery edits (e.g. no always-secret event)."""


# -- any ruleset's ended game (tests/support/short_games.py: `short_game`) -------------------


def uncommitted_hidden_roll(header: Header, records: Records) -> int:
    """A hidden roll (or the first roll, made hidden) published with a plain SHA-256 digest
    (`committed: false`): a player could test guesses against it before the reveal."""
    rolls = [i for i, r in enumerate(records) if r["type"] == "DiceRolled"]
    index = ([i for i in rolls if records[i]["payload"]["hidden"]] or rolls)[0]
    records[index]["payload"]["hidden"] = True
    records[index]["committed"] = False
    return index


def version_1_after_version_2(header: Header, records: Records) -> int:
    """The middle event re-sealed as envelope version 1, after version-2 events."""
    index = len(records) // 2
    records[index]["envelope_version"] = 1
    records[index]["committed"] = False
    return index


def secret_with_plain_digest(header: Header, records: Records) -> int:
    """The first always-secret event (by the header's secrecy classes) with a plain digest."""
    secret = [i for i, r in enumerate(records) if header["secrecy"][r["type"]] == "secret"]
    if not secret:
        raise NotApplicable("no always-secret event")
    records[secret[0]]["committed"] = False
    return secret[0]


def bind_in_waived_game(header: Header, records: Records) -> int:
    """A ClientSeedBound inserted at seq 2 of a game that waived client entropy."""
    bind = forged(records[1], {"type": "ClientSeedBound", "epoch": 0, "client_seed": "x"},
                  "umpire:bind:0")  # fmt: skip
    insert(header, records, 1, bind)
    return 1


def readable_roll_number(records: Records, value: Any) -> int:
    """Roll 1's readable copy says `value` (1.0 or true for 1); the hashed bytes are left as
    they are, so the file must be written raw. Returns the roll's index."""
    rolls = [i for i, r in enumerate(records)
             if r["type"] == "DiceRolled" and r["payload"]["roll"] == 1]  # fmt: skip
    if not rolls:
        raise NotApplicable("roll 1")
    records[rolls[0]]["payload"]["roll"] = value
    return rolls[0]


def cut(header: Header, records: Records, keep: int) -> None:
    """The log cut to its first `keep` records, the header's count and head tidied (and
    still `complete`, unless the caller says otherwise)."""
    del records[keep:]
    header["events"] = keep
    header["last_hash"] = records[-1]["hash"]


def half(records: Records) -> int:
    """How many records to keep to cut at a batch boundary before the middle."""
    return max(
        i for i, r in enumerate(records[: len(records) // 2]) if r["type"] == "CommandRecorded"
    )


_END = {"type": "GameEnded", "result": "the bot won after all", "rule": ""}


def second_end(header: Header, records: Records) -> int:
    """A second GameEnded after the final reveal, under its own id."""
    insert(header, records, len(records), forged(records[-2], dict(_END), "forged-end"))
    return len(records) - 1


def second_end_in_batch(header: Header, records: Records) -> int:
    """A second GameEnded between the ending batch's GameEnded and its final reveal."""
    end = next(i for i, r in enumerate(records) if r["type"] == "GameEnded")
    insert(header, records, end + 1, forged(records[end], dict(_END), records[end]["command_id"]))
    return end + 1


# -- the counter games of tests/support/forgery.py -------------------------------------------
# `counter_game`: 1 created; 2-4 push (3 roll #0); 5-7 hide (6 hidden roll #1); 8-9 add;
# 10-12 push (11 roll #2); 13 SeedRevealed. `ended_counter_game`: 1-12 the same; 13-15
# EndGame (14 GameEnded, 15 the final SeedRevealed).


def changed_face(records: Records, seq: int) -> None:
    """The faces of the roll at `seq` changed (its total too)."""
    payload = records[seq - 1]["payload"]
    payload["faces"] = [f % 6 + 1 for f in payload["faces"]]
    payload["total"] = sum(payload["faces"])


def deleted(records: Records, seq: int) -> None:
    del records[seq - 1]


def swapped(records: Records, seq: int) -> None:
    """The roll at `seq` and the next roll (counter_game: seqs 3 and 6) swapped."""
    records[seq - 1], records[5] = records[5], records[seq - 1]


def changed_seed(records: Records, seq: int) -> None:
    """The revealed seed at `seq`, its first hex digit changed."""
    payload = records[seq - 1]["payload"]
    payload["seed"] = ("0" if payload["seed"][0] != "0" else "1") + payload["seed"][1:]


# name: (tamper, seq it touches, seq named without re-hashing, seq named by the verifier
# after a forger re-hashed the chain from the edit on, renumbering after a deletion)
COUNTER_TAMPERS: dict[str, tuple[Callable[[Records, int], None], int, int, int]] = {
    "changed public face": (changed_face, 3, 3, 3),
    "changed hidden face": (changed_face, 6, 6, 6),
    "deleted roll": (deleted, 3, 3, 5),
    "swapped rolls": (swapped, 3, 3, 3),
    "changed revealed seed": (changed_seed, 15, 15, 15),  # an ended game (issue #30 item 4)
}


def lone_roll(header: Header, records: Records) -> int:
    """`ended_counter_game`: a DiceRolled appended as its own batch before EndGame, with the
    next roll number and the faces the seed gives: it burns roll #3."""
    seed = bytes.fromhex(records[14]["payload"]["seed"])
    roll = dict(records[10]["payload"], roll=3, purpose="bot push")
    roll["faces"] = list(derive_faces(seed, records[0]["payload"]["client_seed"], 3, d6()))
    roll["total"] = sum(roll["faces"])
    insert(header, records, 12, forged(records[11], roll, "forged-roll"))
    return 12


def forged_decision(header: Header, records: Records) -> int:
    """A decision event inserted after the first push, under its own command id."""
    added = {"type": "counter.Added", "amount": 6}
    insert(header, records, 4, forged(records[3], added, "forged-decision"))
    return 4


# name: (forgery of `ended_counter_game`, the seq the verifier and `umpire audit` name)
GRAMMAR_FORGERIES: dict[str, tuple[Forgery, int]] = {
    "lone DiceRolled burning a roll": (lone_roll, 13),
    "second GameEnded after the end": (second_end, 16),
    "second GameEnded inside the ending batch": (second_end_in_batch, 15),
    "forged decision under its own id": (forged_decision, 5),
}

# A game that binds its client seed (seq 2, umpire:bind:0), pushes (3-5) and is revealed
# (6, umpire:reveal): each system batch moved or renamed, renumbered and re-sealed from 0.
# name: (edit, the seq the verifier names, what its reason says)
SYSTEM_BATCH_FORGERIES: dict[str, tuple[Callable[[Records], Any], int, str]] = {
    "bind renamed": (lambda r: r[1].update(command_id="umpire:bind:1"), 2, "names epoch 1"),
    "reveal renamed": (lambda r: r[5].update(command_id="my-reveal"), 6, "'my-reveal'"),
    "bind after the roll": (lambda r: r.insert(4, r.pop(1)), 3, "before the client seed"),
    "reserved command id": (
        lambda r: [x.update(command_id="umpire:push") for x in r[2:5]], 3, "reserved"
    ),
}  # fmt: skip


def relabelled_opponent_roll(records: Records, with_command: bool) -> int:
    """A running counter game's push (1 created, 2-4 push, 3 its roll, the opponent's):
    the roll marked as the player's, and with `with_command` its command as hand-entered."""
    records[2]["payload"]["by"] = "player"
    if with_command:
        records[1]["payload"]["manual_dice"] = True
        return 1
    return 2


# -- takebacks (Add 1, 2, 3 at seqs 2-7, a takeback of Add 3 at 8-9, a push at 10-12 with
# -- its roll at 11, the reveal at 13) ----------------------------------------------------


def takeback_after_roll(header: Header, records: Records) -> int:
    """A TakeBack batch after the Push (whose roll blocks any takeback) and before the
    reveal (seqs 13-14), taking the Push back anyway."""
    push = records[9]  # the Push's CommandRecorded
    assert push["payload"]["command_type"] == "Push"
    recorded = {"type": "CommandRecorded", "command_type": "TakeBack", "role": "player",
                "command": {"type": "TakeBack"}, "manual_dice": False}  # fmt: skip
    taken = {"type": "CommandTakenBack", "seq": push["seq"], "command_id": push["command_id"],
             "command_type": "Push", "rule": records[8]["payload"]["rule"]}  # fmt: skip
    index = 12
    insert(header, records, index, forged(records[0], recorded, "forged-takeback"))
    insert(header, records, index + 1, forged(records[0], taken, "forged-takeback"))
    return index


def takeback_wrong_seq(header: Header, records: Records) -> int:
    """The honest takeback at seq 9 edited to name Add 1 (seq 2), not the last command."""
    records[8]["payload"].update(seq=2, command_id=records[1]["command_id"])
    return 8


def lone_takeback(header: Header, records: Records) -> int:
    """A CommandTakenBack standing alone under its own id (no TakeBack recorded)."""
    taken = dict(records[8]["payload"], seq=4, command_id=records[3]["command_id"])
    insert(header, records, 9, forged(records[8], taken, "forged-lone"))
    return 9


# name: (forgery, seq the audit names, its check, seq the verifier names)
TAKEBACK_FORGERIES: dict[str, tuple[Forgery, int, str, int]] = {
    "takeback after a roll": (takeback_after_roll, 13, "decision", 14),
    "takeback naming a command that is not the last": (takeback_wrong_seq, 9, "decision", 9),
    "lone CommandTakenBack": (lone_takeback, 10, "grammar", 10),
}


def rewritten_game(cli: Cli) -> tuple[Path, str, str]:
    """A whole log rewritten under a new seed (the same commands, game id and client seed,
    in a fresh store): (the rewritten export, the
    commitment the player kept, the rewritten log's own commitment)."""
    made = cli("new", "counter", "--json", "--setup", json.dumps({"target": 40}))
    original = json.loads(made.out)
    game = original["game_id"]
    cli.send(game, {"type": "Push"})
    cli.use_prefix(cli.prefix[:26] + "-forge")
    args = ["new", "counter", "--json", "--setup", json.dumps({"target": 40}),
            "--game-id", game, "--client-seed", original["client_seed"]]  # fmt: skip
    assert cli(*args).code == 0
    cli.send(game, {"type": "Push"})
    assert cli("reveal", game).code == 0
    path = cli.export(game)
    own = read_lines(path)[1][0]["payload"]["seed_commitment"]
    return path, original["seed_commitment"], own
