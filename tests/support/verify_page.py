"""The browser verifier page (clients/web/verify.html, served at /verify) against
verifier/verify_export.py: real exports of every ruleset and the suite's forgery kinds
(tests/audit: test_forgery_kinds.py, test_verifier.py, test_takeback_audit.py), written
as files, verified by both, their verdicts compared.

The forgeries are the ones those tests make, rebuilt here from the same helpers
(tests/support/forgery.py), so that a test outside tests/audit can use them without
importing a test module. Each returns the header and records of a forged export (the
chain re-sealed where the suite's forgery re-seals it)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import wait_for
from umpire.engine.dice import d6, derive_faces
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.forgery import (
    Cli,
    counter_game,
    ended_counter_game,
    forged,
    insert,
    read_lines,
    renumber,
    reseal,
    write_lines,
)
from umpire.testing.support.short_games import short_game
from umpire.testing.support.verifier import verify, verify_with

Header = dict[str, Any]
Records = list[dict[str, Any]]
Forgery = Callable[[Header, Records], None]  # edits a copy of an export in place
TIMEOUT = 60_000  # ms for the page to verify one file (a loaded 2-core machine)


def make_cli(
    monkeypatch: pytest.MonkeyPatch,
    redis_server: EmbeddedRedis,
    prefix: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> Cli:
    """The command line on the suite's server under `prefix`, as tests/audit's `cli`."""
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("UMPIRE_PREFIX", prefix)
    monkeypatch.setenv("UMPIRE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("UMPIRE_EXTRA_RULESETS", "umpire_counter:RULESET")
    monkeypatch.setenv("UMPIRE_OPERATOR_TOKEN", "verify-page-tests-operator-token")
    return Cli(monkeypatch, capsys, prefix, redis_server.url, tmp_path)


# -- the page -----------------------------------------------------------------------------


async def page_verdict(page: Any, path: Path, commitment: str = "") -> tuple[int, str]:
    """Verify `path` through the page's file input, as a person would; (exit code the
    page states, the verifier line it shows), the same shape as verify_export.py's."""
    runs = int(await page.evaluate("Number(document.body.dataset.runs || 0)"))
    await page.fill("#commitment", commitment)
    await page.set_input_files("#export-file", str(path))
    await wait_for(page, f"Number(document.body.dataset.runs || 0) > {runs}", timeout=TIMEOUT)
    code = int(await page.get_attribute("#verdict", "data-exit") or -1)
    return code, str(await page.inner_text("#line"))


def python_verdict(path: Path, commitment: str = "") -> tuple[int, str]:
    """verify_export.py's exit code and first output line on `path`."""
    code, out = verify_with(path, "--commitment", commitment) if commitment else verify(path)
    return code, out.strip().splitlines()[0] if out.strip() else ""


def same_verdict(python: tuple[int, str], browser: tuple[int, str]) -> bool:
    """Both verifiers agree: the same exit code and line; for a file neither can read
    (exit 2), or payload bytes that do not decode, the same exit code and seq (the
    exception's wording is Python's own)."""
    if python[0] == 2 and browser[0] == 2:
        return browser[1].startswith("FAILED at seq 0: the file is not a readable export")
    undecoded = ": payload_b64 does not decode: "  # then the decoder's own words
    if undecoded in python[1] and undecoded in browser[1]:
        return python[0] == browser[0] and (
            python[1].split(undecoded)[0] == browser[1].split(undecoded)[0]
        )
    return python == browser


# -- forgeries of any ruleset's ended game (tests/audit/test_forgery_kinds.py and
# -- test_verifier.py's tampers, applied to an export of `short_game`) -------------------------


def _rolls(records: Records) -> list[int]:
    return [i for i, r in enumerate(records) if r["type"] == "DiceRolled"]


class NotApplicable(Exception):
    """The game holds nothing this forgery edits (e.g. no committed event)."""


def _first(indices: list[int], what: str) -> int:
    if not indices:
        raise NotApplicable(what)
    return indices[0]


def _server_roll(records: Records) -> int:
    rolls = _rolls(records)
    return _first([i for i in rolls if records[i]["payload"].get("by") != "player"], "server roll")


def uncommitted_hidden_roll(header: Header, records: Records) -> None:
    rolls = _rolls(records)
    index = ([i for i in rolls if records[i]["payload"]["hidden"]] or rolls)[0]
    records[index]["payload"]["hidden"] = True
    records[index]["committed"] = False
    reseal(header, records, index)


def version_1_after_version_2(header: Header, records: Records) -> None:
    index = len(records) // 2
    records[index]["envelope_version"] = 1
    records[index]["committed"] = False
    reseal(header, records, index)


def _cut(header: Header, records: Records, keep: int, complete: bool) -> None:
    del records[keep:]
    header["events"] = keep
    header["last_hash"] = records[-1]["hash"]
    if not complete:
        header["complete"] = False


def _half(records: Records) -> int:
    return max(
        i for i, r in enumerate(records[: len(records) // 2]) if r["type"] == "CommandRecorded"
    )


def cut_final_reveal(header: Header, records: Records) -> None:
    _cut(header, records, len(records) - 1, True)


def cut_final_reveal_prefix(header: Header, records: Records) -> None:
    _cut(header, records, len(records) - 1, False)


def cut_half(header: Header, records: Records) -> None:
    _cut(header, records, _half(records), True)


def cut_half_prefix(header: Header, records: Records) -> None:
    _cut(header, records, _half(records), False)


def secret_with_plain_digest(header: Header, records: Records) -> None:
    secret = [i for i, r in enumerate(records) if header["secrecy"][r["type"]] == "secret"]
    index = secret[0] if secret else _first([i for i, r in enumerate(records)
                                             if r["committed"]], "committed event")  # fmt: skip
    records[index]["committed"] = False
    reseal(header, records, index)


def bind_in_waived_game(header: Header, records: Records) -> None:
    bind = forged(records[1], {"type": "ClientSeedBound", "epoch": 0, "client_seed": "x"},
                  "umpire:bind:0")  # fmt: skip
    insert(header, records, 1, bind)
    reseal(header, records, 1)


def _readable_roll_number(value: Any) -> Forgery:
    def forgery(header: Header, records: Records) -> None:
        index = _first([i for i in _rolls(records) if records[i]["payload"]["roll"] == 1], "roll 1")
        records[index]["payload"]["roll"] = value  # only the readable copy lies
        header["_raw"] = True

    return forgery


def _face(header: Header, records: Records, rehash: bool) -> None:
    index = _server_roll(records)
    payload = records[index]["payload"]
    payload["faces"] = [f % 6 + 1 for f in payload["faces"]]
    payload["total"] = sum(payload["faces"])
    if rehash:
        reseal(header, records, 0)


def _deleted_roll(header: Header, records: Records) -> None:
    del records[_server_roll(records)]
    renumber(header, records)
    reseal(header, records, 0)


def _swapped_rolls(header: Header, records: Records) -> None:
    rolls = _rolls(records)
    if len(rolls) < 2:
        raise NotApplicable("two rolls")
    first, second = rolls[:2]
    records[first], records[second] = records[second], records[first]
    renumber(header, records)
    reseal(header, records, 0)


def _changed_seed(header: Header, records: Records, rehash: bool) -> None:
    payload = records[-1]["payload"]
    payload["seed"] = ("0" if payload["seed"][0] != "0" else "1") + payload["seed"][1:]
    if rehash:
        reseal(header, records, 0)


def _edited_readable_only(header: Header, records: Records) -> None:
    """The readable JSON edited, not the bytes: written raw (see `write`)."""
    header["_raw"] = True
    records[1]["payload"]["command_type"] = records[1]["payload"]["command_type"] + "X"


_END = {"type": "GameEnded", "result": "the bot won after all", "rule": ""}


def _second_end(header: Header, records: Records) -> None:
    insert(header, records, len(records), forged(records[-2], dict(_END), "forged-end"))
    reseal(header, records, len(records) - 1)


def _second_end_in_batch(header: Header, records: Records) -> None:
    end = next(i for i, r in enumerate(records) if r["type"] == "GameEnded")
    insert(header, records, end + 1, forged(records[end], dict(_END), records[end]["command_id"]))
    reseal(header, records, end + 1)


def _end_in_no_batch(header: Header, records: Records) -> None:
    end = next(i for i, r in enumerate(records) if r["type"] == "GameEnded")
    insert(header, records, 2, forged(records[end], dict(_END), "forged-lone-end"))
    reseal(header, records, 2)


def _relabelled_roll(header: Header, records: Records) -> None:
    index = _server_roll(records)
    records[index]["payload"]["by"] = "player"
    reseal(header, records, index)


def _relabelled_command(header: Header, records: Records) -> None:
    index = _server_roll(records)
    command = max(i for i in range(index) if records[i]["type"] == "CommandRecorded")
    records[command]["payload"]["manual_dice"] = True
    records[index]["payload"]["by"] = "player"
    reseal(header, records, command)


def _reserved_id(header: Header, records: Records) -> None:
    first = next(i for i, r in enumerate(records) if r["type"] == "CommandRecorded")
    old = records[first]["command_id"]
    for record in records:
        if record["command_id"] == old:
            record["command_id"] = "umpire:forged"
    reseal(header, records, first)


def _repeated_id(header: Header, records: Records) -> None:
    commands = [i for i, r in enumerate(records) if r["type"] == "CommandRecorded"]
    old, new = records[commands[1]]["command_id"], records[commands[0]]["command_id"]
    for record in records:
        if record["command_id"] == old:
            record["command_id"] = new
    reseal(header, records, commands[1])


def _cut_hash(header: Header, records: Records) -> None:
    header["last_hash"] = records[-2]["hash"]


def _header_count(header: Header, records: Records) -> None:
    header["events"] = len(records) + 1


def _chain_as_edited(header: Header, records: Records) -> None:
    """An event's recorded_at edited, the chain left as it was."""
    records[len(records) // 3]["recorded_at"] = "2020-01-01T00:00:00.000Z"


EVERY_RULESET: dict[str, Forgery] = {
    "uncommitted hidden roll": uncommitted_hidden_roll,
    "version 1 envelope after version 2": version_1_after_version_2,
    "cut before the final reveal, still called complete": cut_final_reveal,
    "cut before the final reveal, called a prefix": cut_final_reveal_prefix,
    "cut in half, still called complete": cut_half,
    "cut in half, called a prefix": cut_half_prefix,
    "secret event with a plain digest": secret_with_plain_digest,
    "client seed bound in a waived game": bind_in_waived_game,
    "readable 1.0 for 1": _readable_roll_number(1.0),
    "readable true for 1": _readable_roll_number(True),
    "changed server face, as edited": lambda h, r: _face(h, r, False),
    "changed server face, chain re-hashed": lambda h, r: _face(h, r, True),
    "deleted roll, chain re-hashed": _deleted_roll,
    "swapped rolls, chain re-hashed": _swapped_rolls,
    "changed revealed seed, as edited": lambda h, r: _changed_seed(h, r, False),
    "changed revealed seed, chain re-hashed": lambda h, r: _changed_seed(h, r, True),
    "readable payload edited, not the bytes": _edited_readable_only,
    "second GameEnded after the end": _second_end,
    "second GameEnded inside the ending batch": _second_end_in_batch,
    "GameEnded in no command's batch": _end_in_no_batch,
    "server roll relabelled as the player's": _relabelled_roll,
    "server roll and its command relabelled": _relabelled_command,
    "reserved command id": _reserved_id,
    "repeated command id": _repeated_id,
    "header last_hash of another event": _cut_hash,
    "header announcing one more event": _header_count,
    "recorded_at edited, chain as it was": _chain_as_edited,
}


def write(path: Path, header: Header, records: Records) -> Path:
    """Write a (forged) export. The readable payloads become the hashed bytes
    (forgery.write_lines), except for a forgery of the readable copy alone."""
    if header.pop("_raw", False):
        path.write_text("\n".join(json.dumps(r) for r in [header, *records]) + "\n")
        return path
    return write_lines(path, header, records)


def every_ruleset_files(cli: Cli, ruleset: str) -> dict[str, Path]:
    """An honest ended game of `ruleset` and each forgery of it, as files."""
    honest = cli.export(short_game(cli, ruleset))
    header, records = read_lines(honest)
    files = {"honest": honest}
    for n, (name, forgery) in enumerate(EVERY_RULESET.items()):
        h, r = copy.deepcopy(header), copy.deepcopy(records)
        try:
            forgery(h, r)
        except NotApplicable:
            continue  # e.g. a game that commits nothing has no commitment to strip
        files[name] = write(cli.tmp / f"{ruleset}-{n}.jsonl", h, r)
    return files


# -- counter games: the suite's own forgeries of tests/audit/test_verifier.py and
# -- test_takeback_audit.py, over the games they play --------------------------------------


def _lone_roll(header: Header, records: Records) -> None:
    """test_verifier: a DiceRolled as its own batch before EndGame, burning roll #3."""
    seed = bytes.fromhex(records[14]["payload"]["seed"])
    roll = dict(records[10]["payload"], roll=3, purpose="bot push")
    roll["faces"] = list(derive_faces(seed, records[0]["payload"]["client_seed"], 3, d6()))
    roll["total"] = sum(roll["faces"])
    insert(header, records, 12, forged(records[11], roll, "forged-roll"))
    reseal(header, records, 12)


def _forged_decision(header: Header, records: Records) -> None:
    """test_verifier: a decision inserted after the first push, under its own id."""
    insert(header, records, 4, forged(records[3], {"type": "counter.Added", "amount": 6},
                                      "forged-decision"))  # fmt: skip
    reseal(header, records, 4)


def ended_counter_files(cli: Cli) -> dict[str, Path]:
    """test_verifier's grammar forgeries of `ended_counter_game`."""
    honest = cli.export(ended_counter_game(cli))
    header, records = read_lines(honest)
    files = {"ended counter": honest}
    cases: dict[str, Forgery] = {
        "lone DiceRolled burning a roll": _lone_roll,
        "second GameEnded after the end": _second_end,
        "second GameEnded inside the ending batch": _second_end_in_batch,
        "forged decision under its own id": _forged_decision,
    }
    for n, (name, forgery) in enumerate(cases.items()):
        h, r = copy.deepcopy(header), copy.deepcopy(records)
        forgery(h, r)
        files[name] = write(cli.tmp / f"ended-{n}.jsonl", h, r)
    return files


def revealed_counter_files(cli: Cli) -> dict[str, Path]:
    """test_verifier's tampers of `counter_game` (revealed mid-game: a prefix), as edited
    and with the chain re-hashed."""
    honest = cli.export(counter_game(cli))
    header, records = read_lines(honest)
    files = {"revealed counter": honest}

    def face(seq: int) -> Callable[[Records], None]:
        def edit(r: Records) -> None:
            payload = r[seq - 1]["payload"]
            payload["faces"] = [f % 6 + 1 for f in payload["faces"]]
            payload["total"] = sum(payload["faces"])

        return edit

    def swap(r: Records) -> None:
        r[2], r[5] = r[5], r[2]

    def seed(r: Records) -> None:
        payload = r[12]["payload"]
        payload["seed"] = ("0" if payload["seed"][0] != "0" else "1") + payload["seed"][1:]

    tampers: dict[str, Callable[[Records], None]] = {
        "changed public face": face(3),
        "changed hidden face": face(6),
        "deleted roll": lambda r: r.__delitem__(2),
        "swapped rolls": swap,
        "changed revealed seed": seed,
    }
    for n, (name, tamper) in enumerate(tampers.items()):
        for rehash in (False, True):
            h, r = copy.deepcopy(header), copy.deepcopy(records)
            tamper(r)
            if rehash:
                renumber(h, r)
                reseal(h, r, 0)
            files[f"{name}, {'re-hashed' if rehash else 'as edited'}"] = write(
                cli.tmp / f"revealed-{n}-{rehash}.jsonl", h, r
            )
    return files


def bound_counter_files(cli: Cli) -> dict[str, Path]:
    """test_verifier's system-batch forgeries (a game that binds, pushes and is revealed)
    and its late bind of a rotated game."""
    made = cli("new", "counter", "--json", "--setup", json.dumps({"target": 40}))
    game = json.loads(made.out)["game_id"]
    cli.send(game, {"type": "Push"})
    assert cli("reveal", game).code == 0
    header, records = read_lines(cli.export(game))
    files = {"bound counter": cli.export(game)}
    cases: dict[str, Callable[[Records], None]] = {
        "bind renamed": lambda r: r[1].update(command_id="umpire:bind:1"),
        "reveal renamed": lambda r: r[5].update(command_id="my-reveal"),
        "bind after the roll": lambda r: r.insert(4, r.pop(1)),
        "reserved command id": lambda r: [x.update(command_id="umpire:push") for x in r[2:5]],
    }  # fmt: skip
    for n, (name, edit) in enumerate(cases.items()):
        h, r = copy.deepcopy(header), copy.deepcopy(records)
        edit(r)
        renumber(h, r)
        reseal(h, r, 0)
        files[name] = write(cli.tmp / f"bound-{n}.jsonl", h, r)
    # rotated: epoch 0 bound, revealed, epoch 1 bound, a push, the end
    made = cli("new", "counter", "--json", "--setup", json.dumps({"target": 1000}))
    game = json.loads(made.out)["game_id"]
    cli.send(game, {"type": "Push"})
    assert cli("reveal", game).code == 0
    assert cli("bind", game, "mine").code == 0
    cli.send(game, {"type": "Push"})
    cli.send(game, {"type": "EndGame", "result": "done"})
    rotated = cli.export(game)
    files["rotated counter"] = rotated
    header, records = read_lines(rotated)
    bind = [r["command_id"] for r in records].index("umpire:bind:1")
    records.insert(bind + 2, records.pop(bind))
    renumber(header, records)
    reseal(header, records, 0)
    files["epoch 1 bound after its roll"] = write(cli.tmp / "late-bind.jsonl", header, records)
    return files


def takeback_files(cli: Cli) -> dict[str, Path]:
    """test_takeback_audit's forged takebacks (Add 1, 2, 3, a takeback, a push, the
    reveal) and the honest log with takebacks."""
    game = cli.new("counter", {"target": 100})
    for n in (1, 2, 3):
        cli.send(game, {"type": "Add", "amount": n})
    assert cli("takeback", game).code == 0
    cli.send(game, {"type": "Push"})
    assert cli("reveal", game).code == 0
    honest = cli.export(game)
    header, records = read_lines(honest)
    files = {"takeback counter": honest}

    def after_roll(h: Header, r: Records) -> None:
        push = r[9]
        recorded = {"type": "CommandRecorded", "command_type": "TakeBack", "role": "player",
                    "command": {"type": "TakeBack"}, "manual_dice": False}  # fmt: skip
        taken = {"type": "CommandTakenBack", "seq": push["seq"], "command_id": push["command_id"],
                 "command_type": "Push", "rule": r[8]["payload"]["rule"]}  # fmt: skip
        insert(h, r, 12, forged(r[0], recorded, "forged-takeback"))
        insert(h, r, 13, forged(r[0], taken, "forged-takeback"))
        reseal(h, r, 12)

    def wrong_seq(h: Header, r: Records) -> None:
        r[8]["payload"].update(seq=2, command_id=r[1]["command_id"])
        reseal(h, r, 8)

    def lone(h: Header, r: Records) -> None:
        taken = dict(r[8]["payload"], seq=4, command_id=r[3]["command_id"])
        insert(h, r, 9, forged(r[8], taken, "forged-lone"))
        reseal(h, r, 9)

    cases: dict[str, Forgery] = {
        "takeback after a roll": after_roll,
        "takeback naming a command that is not the last": wrong_seq,
        "lone CommandTakenBack": lone,
    }
    for n, (name, forgery) in enumerate(cases.items()):
        h, r = copy.deepcopy(header), copy.deepcopy(records)
        forgery(h, r)
        files[name] = write(cli.tmp / f"takeback-{n}.jsonl", h, r)
    return files


def rewritten_game(cli: Cli) -> tuple[Path, str, str]:
    """test_verifier's whole log rewritten under a new seed: (the rewritten export, the
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


def running_counter_files(cli: Cli) -> dict[str, Path]:
    """test_verifier's relabelled rolls of a running game (an operator's export: its
    epoch unrevealed, its commitments still closed), and a game that lets the player enter
    the opponent's dice."""
    game = cli.new("counter", {"target": 40})
    cli.send(game, {"type": "Push"})
    exported = cli.export(game, "--operator")
    files = {"running counter": exported}
    header, records = read_lines(exported)
    h, r = copy.deepcopy(header), copy.deepcopy(records)
    r[1]["payload"]["manual_dice"] = True
    r[2]["payload"]["by"] = "player"
    reseal(h, r, 1)
    files["opponent's roll relabelled with its command"] = write(cli.tmp / "rel1.jsonl", h, r)
    h, r = copy.deepcopy(header), copy.deepcopy(records)
    r[2]["payload"]["by"] = "player"
    reseal(h, r, 2)
    files["opponent's roll relabelled alone"] = write(cli.tmp / "rel2.jsonl", h, r)
    made = cli("new", "counter", "--json", "--setup", '{"target": 40}', "--allow-opponent-dice")
    allowed = json.loads(made.out)["game_id"]
    cli.send(allowed, {"type": "Push"}, dice=[[6]])
    files["opponent dice allowed counter"] = cli.export(allowed, "--operator")
    return files


def two_epoch_files(cli: Cli, ruleset: str) -> dict[str, Path]:
    """A game of `ruleset` revealed mid-game (its secrets in play stay sealed: an export
    straight after the reveal), then played on in epoch 1 and ended: both honest."""
    game = short_game(cli, ruleset, end=False)
    assert cli("reveal", game).code == 0
    files = {f"{ruleset} mid-game reveal counter": cli.export(game)}
    cli.send(game, {"type": "RollDice", "dice": "2d6", "purpose": "epoch 1"})
    cli.send(game, {"type": "EndGame", "result": "two epochs"})
    path = cli.tmp / f"{ruleset}-two-epochs.jsonl"
    assert cli("export", game, "-o", str(path)).code == 0
    files[f"{ruleset} two epochs counter"] = path
    return files


def malformed_files(cli: Cli) -> dict[str, Path]:
    """Files that are barely exports, or not at all, cut from an honest ended counter
    game: how both verifiers read the file itself (section 1)."""
    honest = cli.export(short_game(cli, "counter"))
    text = honest.read_text()
    lines = text.splitlines()
    header = json.loads(lines[0])

    def swap_in(index: int, old: str, new: str) -> str:
        edited = list(lines)
        assert old in edited[index], (old, edited[index])
        edited[index] = edited[index].replace(old, new, 1)
        return "\n".join(edited) + "\n"

    def edit(index: int, **fields: Any) -> str:
        edited = list(lines)
        edited[index] = json.dumps(dict(json.loads(edited[index]), **fields))
        return "\n".join(edited) + "\n"

    other_format = json.dumps(dict(header, format="umpire-export/0"))
    texts: dict[str, str | bytes] = {
        "empty file": "",
        "header only": lines[0] + "\n",
        "another format": "\n".join([other_format, *lines[1:]]) + "\n",
        "not JSON": "this is not an export\n",
        "CRLF line ends and blank lines": "\r\n\r\n".join(lines) + "\r\n",
        "a byte-order mark": "\ufeff" + text,
        "not UTF-8": text.encode() + b"\xff\xfe\n",
        "no payload_b64": swap_in(2, '"payload_b64":', '"payload_b46":'),
        "payload_b64 not base64": swap_in(2, '"payload_b64":"', '"payload_b64":"!'),
        "payload bytes with a byte after them": edit(2, payload_b64="wMA="),  # nil, nil
        "seq written as a float": swap_in(2, '"seq":2,', '"seq":2.0,'),
        "header count as text": "\n".join(
            [json.dumps(dict(header, events=str(header["events"]))), *lines[1:]]
        )
        + "\n",
        "header count missing": "\n".join(
            [json.dumps({k: v for k, v in header.items() if k != "events"}), *lines[1:]]
        )
        + "\n",
        "a record without its hash": swap_in(3, '"hash":"', '"hash_":"'),
        "a list for a header": "[1, 2]\n" + "\n".join(lines[1:]) + "\n",
    }
    files = {"honest": honest}
    for n, (name, content) in enumerate(texts.items()):
        path = cli.tmp / f"malformed-{n}.jsonl"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode())
        files[name] = path
    return files
