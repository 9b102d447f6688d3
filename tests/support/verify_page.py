"""The browser verifier page (clients/web/verify.html, served at /verify) against
verifier/verify_export.py: real exports of every ruleset and the suite's forgery kinds
(tests/audit: test_forgery_kinds.py, test_verifier.py, test_takeback_audit.py), written
as files, verified by both, their verdicts compared.

The forgeries those tests make are theirs, from one copy (tests/support/forgery_kinds.py),
re-sealed where they re-seal them; the ones only this comparison makes (of any ruleset's
ended game) are below. Each edits a copy of an export's header and records in place."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.support.amendments import (
    SECOND_LINE_ROLL,
    amended_behind,
    amended_twice,
    play_to_the_end,
)
from tests.support.browser import wait_for
from tests.support.nonce_forgeries import NONCE_TAMPERS, TWENTY_DICE, rolled_game
from umpire.engine import registry
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.drivers import start_setup
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
from umpire.testing.support.forgery_kinds import (
    COUNTER_TAMPERS,
    GRAMMAR_FORGERIES,
    SYSTEM_BATCH_FORGERIES,
    TAKEBACK_FORGERIES,
    NotApplicable,
    bind_in_waived_game,
    cut,
    half,
    readable_roll_number,
    relabelled_opponent_roll,
    second_end,
    second_end_in_batch,
    secret_with_plain_digest,
    uncommitted_hidden_roll,
    version_1_after_version_2,
)
from umpire.testing.support.short_games import short_game
from umpire.testing.support.verifier import after_headline, verify, verify_with

Header = dict[str, Any]
Records = list[dict[str, Any]]
Forgery = Callable[[Header, Records], None]  # edits a copy of an export in place
ForgeryAt = Callable[[Header, Records], int]  # ... and returns the index to re-seal from
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


async def page_receipts(page: Any, receipts: Path | None) -> None:
    """Give the page `receipts` through its receipts input (None: forget any given), and
    wait until it has read them (and verified the chosen export again, if any)."""
    given = str(await page.evaluate("document.body.dataset.receipts || ''"))
    if receipts is None and not given:
        return
    loads = int(await page.evaluate("Number(document.body.dataset.receiptsLoads || 0)"))
    if receipts is None:
        await page.click("#receipts-clear")
    else:
        await page.set_input_files("#receipts-file", str(receipts))
    await wait_for(
        page, f"Number(document.body.dataset.receiptsLoads || 0) > {loads}", timeout=TIMEOUT
    )


async def page_verdict(
    page: Any, path: Path, commitment: str = "", receipts: Path | None = None
) -> tuple[int, str]:
    """Verify `path` through the page's file input, as a person would, with `receipts`
    given through the receipts input (or none); (exit code the page states, the verifier
    line it shows), the same shape as verify_export.py's."""
    await page_receipts(page, receipts)
    runs = int(await page.evaluate("Number(document.body.dataset.runs || 0)"))
    await page.fill("#commitment", commitment)
    await page.set_input_files("#export-file", str(path))
    await wait_for(page, f"Number(document.body.dataset.runs || 0) > {runs}", timeout=TIMEOUT)
    code = int(await page.get_attribute("#verdict", "data-exit") or -1)
    return code, str(await page.inner_text("#line"))


def python_verdict(
    path: Path, commitment: str = "", receipts: Path | None = None
) -> tuple[int, str]:
    """verify_export.py's exit code and first output line after its headline on `path`
    (the page shows the headline apart: `page_headline`)."""
    args = ["--commitment", commitment] if commitment else []
    if receipts is not None:
        args += ["--receipts", str(receipts)]
    code, out = verify_with(path, *args) if args else verify(path)
    out = after_headline(out.strip())
    return code, out.strip().splitlines()[0] if out.strip() else ""


def same_verdict(python: tuple[int, str], browser: tuple[int, str]) -> bool:
    """Both verifiers agree: the same exit code and line; for a file neither can read
    (exit 2), or payload bytes that do not decode, the same exit code, seq and words up to
    the exception's own (Python's wording, in parentheses)."""
    if python[0] == 2 and browser[0] == 2:
        return python[1].split(" (")[0] == browser[1].split(" (")[0]
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


def _first(indices: list[int], what: str) -> int:
    if not indices:
        raise NotApplicable(what)
    return indices[0]


def _server_roll(records: Records) -> int:
    rolls = _rolls(records)
    return _first([i for i in rolls if records[i]["payload"].get("by") != "player"], "server roll")


def _resealed(forgery: ForgeryAt) -> Forgery:
    """A forgery of tests/support/forgery_kinds.py, re-sealed from what it edited."""

    def edit(header: Header, records: Records) -> None:
        reseal(header, records, forgery(header, records))

    return edit


def _cut_to(keep: Callable[[Records], int], complete: bool) -> Forgery:
    def edit(header: Header, records: Records) -> None:
        cut(header, records, keep(records))
        if not complete:
            header["complete"] = False

    return edit


def _readable_roll_number(value: Any) -> Forgery:
    def forgery(header: Header, records: Records) -> None:
        readable_roll_number(records, value)  # only the readable copy lies
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
    "uncommitted hidden roll": _resealed(uncommitted_hidden_roll),
    "version 1 envelope after version 2": _resealed(version_1_after_version_2),
    "cut before the final reveal, still called complete": _cut_to(lambda r: len(r) - 1, True),
    "cut before the final reveal, called a prefix": _cut_to(lambda r: len(r) - 1, False),
    "cut in half, still called complete": _cut_to(half, True),
    "cut in half, called a prefix": _cut_to(half, False),
    "secret event with a plain digest": _resealed(secret_with_plain_digest),
    "client seed bound in a waived game": _resealed(bind_in_waived_game),
    "readable 1.0 for 1": _readable_roll_number(1.0),
    "readable true for 1": _readable_roll_number(True),
    "changed server face, as edited": lambda h, r: _face(h, r, False),
    "changed server face, chain re-hashed": lambda h, r: _face(h, r, True),
    "deleted roll, chain re-hashed": _deleted_roll,
    "swapped rolls, chain re-hashed": _swapped_rolls,
    "changed revealed seed, as edited": lambda h, r: _changed_seed(h, r, False),
    "changed revealed seed, chain re-hashed": lambda h, r: _changed_seed(h, r, True),
    "readable payload edited, not the bytes": _edited_readable_only,
    "second GameEnded after the end": _resealed(second_end),
    "second GameEnded inside the ending batch": _resealed(second_end_in_batch),
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
    """An honest ended game of `ruleset` and each forgery of it, as files; and the same
    game played with client entropy bound (every command carries a nonce) and its generic
    roll's nonce changed and dropped."""
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
    bound = cli.export(_bound_game(cli, ruleset))
    files["client entropy bound counter"] = bound
    header, records = read_lines(bound)
    command = next(i for i, r in enumerate(records) if r["type"] == "CommandRecorded"
                   and r["payload"]["command_type"] == "RollDice")  # fmt: skip
    assert records[command]["payload"]["nonce"], records[command]
    for name, tamper in NONCE_TAMPERS.items():
        h, r = copy.deepcopy(header), copy.deepcopy(records)
        tamper(r[command]["payload"])
        reseal(h, r, command)
        files[f"roll's nonce {name}, chain re-hashed"] = write(
            cli.tmp / f"{ruleset}-nonce-{name}.jsonl", h, r
        )
    return files


def _bound_game(cli: Cli, ruleset: str) -> str:
    """`short_game` with client entropy bound (`umpire new` binds a client seed, `umpire
    send` sends a nonce with each command, as every client does)."""
    made = cli("new", ruleset, "--json", "--setup", json.dumps(start_setup(ruleset)))
    assert made.code == 0, made.err
    game = str(json.loads(made.out)["game_id"])
    for command in registry.get(ruleset).openings:
        cli.send(game, msgspec.to_builtins(command))
    # Twenty dice: a changed nonce re-derives the same faces with odds of 6**-20 (2d6:
    # one time in 36), so its forgery fails every time.
    cli.send(game, TWENTY_DICE)
    cli.send(game, {"type": "EndGame", "result": "nonce test over"})
    return game


def nonce_files(cli: Cli) -> dict[str, Path]:
    """tests/audit/test_nonce_forgery.py's game (twenty dice under one nonce) and its
    forged nonces, as edited and with the chain re-hashed."""
    honest = cli.export(rolled_game(cli))
    header, records = read_lines(honest)
    files = {"nonced counter": honest}
    assert records[2]["type"] == "CommandRecorded" and records[2]["payload"]["nonce"]
    for name, tamper in NONCE_TAMPERS.items():
        for rehash in (False, True):
            h, r = copy.deepcopy(header), copy.deepcopy(records)
            tamper(r[2]["payload"])
            if rehash:
                reseal(h, r, 2)
            how = "chain re-hashed" if rehash else "as edited"
            files[f"nonce {name}, {how}"] = write(cli.tmp / f"nonce-{name}-{rehash}.jsonl", h, r)
    return files


# -- counter games: the suite's own forgeries of tests/audit/test_verifier.py and
# -- test_takeback_audit.py, over the games they play --------------------------------------


def ended_counter_files(cli: Cli) -> dict[str, Path]:
    """test_verifier's grammar forgeries of `ended_counter_game`."""
    honest = cli.export(ended_counter_game(cli))
    header, records = read_lines(honest)
    files = {"ended counter": honest}
    for n, (name, (forgery, _)) in enumerate(GRAMMAR_FORGERIES.items()):
        h, r = copy.deepcopy(header), copy.deepcopy(records)
        reseal(h, r, forgery(h, r))
        files[name] = write(cli.tmp / f"ended-{n}.jsonl", h, r)
    return files


def revealed_counter_files(cli: Cli) -> dict[str, Path]:
    """test_verifier's tampers (`COUNTER_TAMPERS`) of `ended_counter_game`, as edited and
    with the chain re-hashed: an ended game, whose final reveal opens its hidden roll too
    (issue #30 item 4), as test_verifier tampers it; and the counter game revealed mid-game,
    as only its operator's copy exports it (a player's would hold the sealed payloads)."""
    honest = cli.export(ended_counter_game(cli))
    header, records = read_lines(honest)
    files = {
        "revealed counter": cli.export(counter_game(cli), "--operator"),
        "ended counter": honest,
    }

    for n, (name, (tamper, seq, _, _)) in enumerate(COUNTER_TAMPERS.items()):
        for rehash in (False, True):
            h, r = copy.deepcopy(header), copy.deepcopy(records)
            tamper(r, seq)
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
    for n, (name, (edit, _, _)) in enumerate(SYSTEM_BATCH_FORGERIES.items()):
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

    for n, (name, (forgery, _, _, _)) in enumerate(TAKEBACK_FORGERIES.items()):
        h, r = copy.deepcopy(header), copy.deepcopy(records)
        reseal(h, r, forgery(h, r))
        files[name] = write(cli.tmp / f"takeback-{n}.jsonl", h, r)
    return files


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
    reseal(h, r, relabelled_opponent_roll(r, with_command=True))
    files["opponent's roll relabelled with its command"] = write(cli.tmp / "rel1.jsonl", h, r)
    h, r = copy.deepcopy(header), copy.deepcopy(records)
    reseal(h, r, relabelled_opponent_roll(r, with_command=False))
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
    files = {f"{ruleset} mid-game reveal counter": cli.export(game, "--operator")}
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


def dispute_files(cli: Cli) -> dict[str, Path]:
    """A counter game whose roll is disputed, found and upheld, then ended (issue 40), and
    its forgeries that need no rules to catch: a ruling by a spectator, an amend ruling, a
    finding moved onto a seq that is no dispute, a dispute of a recorded command."""
    game = cli.new("counter", {"target": 100})
    cli.send(game, {"type": "Push"})
    assert cli("dispute", game, "3", "--claim", "the roll").code == 0  # seqs 5, 6
    assert cli("rule", game, "5", "uphold").code == 0  # seq 7
    assert cli("dispute", game, "4", "--claim", "the push").code == 0  # seqs 8, 9
    cli.send(game, {"type": "EndGame", "result": "disputed"})
    honest = cli.export(game)
    header, records = read_lines(honest)
    files = {"disputed counter": honest}

    def by_spectator(h: Header, r: Records) -> int:
        r[6]["payload"]["by"] = "spectator"
        return 6

    def amend(h: Header, r: Records) -> int:
        r[6]["payload"]["ruling"] = "amend"
        return 6

    def moved(h: Header, r: Records) -> int:
        r[8]["payload"]["dispute"] = 7
        r[8]["command_id"] = "umpire:finding:7"
        return 8

    def not_a_decision(h: Header, r: Records) -> int:
        r[7]["payload"]["seq"] = 2  # the CommandRecorded
        return 7

    def ill_formed(h: Header, r: Records) -> int:
        r[5]["payload"].update(same=False)  # the lines never part (parts_at 0)
        return 5

    forgeries = {"ruling by a spectator": by_spectator, "amend ruling": amend,
                 "finding moved": moved, "not a decision": not_a_decision,
                 "finding not well formed": ill_formed}  # fmt: skip
    for name, forgery in forgeries.items():
        h, r = copy.deepcopy(header), copy.deepcopy(records)
        reseal(h, r, forgery(h, r))
        files[name] = write(cli.tmp / f"dispute-{name.replace(' ', '-')}.jsonl", h, r)
    # Sealed once every dispute is ruled; a dispute forged in after the seal.
    assert cli("rule", game, "8", "uphold").code == 0
    files["sealed counter"] = sealed = cli.export(game, "--seal")
    h, r = read_lines(sealed)
    r.append({**r[-2], "seq": r[-1]["seq"] + 1, "command_id": f"umpire:dispute:{r[-1]['seq'] + 1}"})
    h["events"] = len(r)
    reseal(h, r, len(r) - 1)
    files["after the seal"] = write(cli.tmp / "dispute-after-seal.jsonl", h, r)
    files.update(_amended_files(cli))
    files.update(_spectator_files(cli))
    return files


def _spectator_files(cli: Cli) -> dict[str, Path]:
    """A counter game whose roll a spectator and the player both dispute (docs/audit.md
    "Disputes": one open dispute of a seq per disputing role), the player's ruled, then
    ended and sealed with the spectator's still open; and its forgeries: the spectator's
    dispute relabelled the player's (a second open dispute of the player's), and the
    ruling moved onto the spectator's (the seal over the player's open dispute)."""
    game = cli.new("counter", {"target": 100})
    cli.send(game, {"type": "Push"})
    assert cli("dispute", game, "3", "--claim", "the roll", "--as", "spectator").code == 0
    assert cli("dispute", game, "3", "--claim", "the roll too").code == 0  # seqs 7, 8
    assert cli("rule", game, "7", "uphold").code == 0  # seq 9
    cli.send(game, {"type": "EndGame", "result": "disputed"})
    sealed = cli.export(game, "--seal")
    header, records = read_lines(sealed)
    files = {"spectator's open dispute sealed counter": sealed}

    def relabelled(h: Header, r: Records) -> int:
        r[4]["payload"]["who"] = "player"
        return 4

    def ruling_moved(h: Header, r: Records) -> int:
        r[8]["payload"]["dispute"] = 5
        r[8]["command_id"] = "umpire:ruling:5"
        return 8

    forgeries = {"spectator's dispute as the player's": relabelled,
                 "sealed over the player's dispute": ruling_moved}  # fmt: skip
    for name, forgery in forgeries.items():
        h, r = copy.deepcopy(header), copy.deepcopy(records)
        reseal(h, r, forgery(h, r))
        files[name] = write(cli.tmp / f"dispute-{name.replace(' ', '-')}.jsonl", h, r)
    return files


def _amended_files(cli: Cli) -> dict[str, Path]:
    """A counter game whose roll is disputed and amended (issue 40 item 4), played on and
    ended, and its forgeries: a re-applied roll with other faces, a GameAmended naming
    other superseded seqs, an amending ruling without its GameAmended."""
    game = cli.new("counter", {"target": 100})
    cli.send(game, {"type": "Push"})
    cli.send(game, {"type": "Push"})
    assert cli("dispute", game, "3", "--claim", "the roll").code == 0  # seqs 8, 9
    assert cli("rule", game, "8", "amend").code == 0  # seq 10 on
    cli.send(game, {"type": "EndGame", "result": "amended"})
    honest = cli.export(game)
    header, records = read_lines(honest)
    files = {"amended counter": honest}
    reused = next(i for i in range(11, len(records)) if records[i]["type"] == "DiceRolled")

    def roll(h: Header, r: Records) -> int:
        r[reused]["payload"]["faces"] = [f % 6 + 1 for f in r[reused]["payload"]["faces"]]
        return reused

    def superseded(h: Header, r: Records) -> int:
        r[10]["payload"]["superseded_to"] = 8
        return 10

    def unmarked(h: Header, r: Records) -> int:
        r[10]["command_id"] = "elsewhere"
        return 10

    # The finding (seq 9: the lines never part) answered otherwise, well formed: the amended
    # line shows it false (docs/audit.md "What a verifier without the rules checks").
    def answer(h: Header, r: Records) -> int:
        r[8]["payload"].update(same=False, parts_at=3, as_played="x", under_reading="y")
        return 8

    def parting(h: Header, r: Records) -> int:
        r[8]["payload"].update(same=True, parts_at=5, as_played="x", under_reading="y")
        return 8

    def reapplied(h: Header, r: Records) -> int:
        r[10]["payload"]["reapplied"] += 1
        return 10

    forgeries = {"amended roll": roll, "amended range": superseded,
                 "amend without its marker": unmarked, "amended finding answer": answer,
                 "amended finding parting seq": parting,
                 "amended count": reapplied}  # fmt: skip
    for name, forgery in forgeries.items():
        h, r = copy.deepcopy(header), copy.deepcopy(records)
        reseal(h, r, forgery(h, r))
        files[name] = write(cli.tmp / f"dispute-{name.replace(' ', '-')}.jsonl", h, r)
    # A re-applied command taken back after the amendment (the takeback stack as the fold
    # keeps it).
    game = cli.new("counter", {"target": 100})
    cli.send(game, {"type": "Push"})
    cli.send(game, {"type": "Add", "amount": 2})
    assert cli("dispute", game, "3", "--claim", "the roll").code == 0
    assert cli("rule", game, "7", "amend").code == 0
    assert cli("takeback", game).code == 0
    cli.send(game, {"type": "EndGame", "result": "taken back"})
    files["amended, taken back counter"] = cli.export(game)
    files.update(_amended_twice_files(cli))
    return files


def _amended_twice_files(cli: Cli) -> dict[str, Path]:
    """A counter game amended twice, the second time from a roll of its first amended line,
    and one whose second amendment returns behind its first, each played on to its end
    (tests/support/amendments.py), and the first's forgeries: a re-applied
    roll of the second line with other faces, a dispute moved onto a superseded seq."""
    honest = cli.export(amended_twice(cli))
    header, records = read_lines(honest)
    behind = amended_behind(cli)
    play_to_the_end(cli, behind)
    files = {"amended twice counter": honest, "amended behind counter": cli.export(behind)}

    def roll(h: Header, r: Records) -> int:
        payload = r[SECOND_LINE_ROLL - 1]["payload"]
        payload["faces"] = [f % 6 + 1 for f in payload["faces"]]
        return SECOND_LINE_ROLL - 1

    def superseded(h: Header, r: Records) -> int:
        r[20]["payload"]["seq"] = 6  # a roll the first amendment superseded
        return 20

    forgeries = {"second amended roll": roll, "dispute of a superseded seq": superseded}
    for name, forgery in forgeries.items():
        h, r = copy.deepcopy(header), copy.deepcopy(records)
        reseal(h, r, forgery(h, r))
        files[name] = write(cli.tmp / f"dispute-{name.replace(' ', '-')}.jsonl", h, r)
    return files
