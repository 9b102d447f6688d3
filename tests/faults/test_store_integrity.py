"""Nothing acknowledged is lost without a name (issue #43 items 1 to 4).

Ten counter games of thirty commands each are played through a real `umpire serve`, every
acknowledgement kept; then the store's real AOF is damaged and the real `umpire store`
commands run. On main, 16 bytes damaged at 30% of the file made `store repair` cut 70%
of it (225 of 300 acknowledged commands lost, named as "a command being written"), a
changed byte inside a stored value loaded and `store check` said "whole", and after any
cut `umpire audit` passed each shorter game.
"""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

import pytest

from tests.support.acked_games import (
    OPERATOR,
    Acked,
    events_in_steps_touching,
    more,
    named,
    named_lost,
    play,
    stored,
)
from tests.support.embedded_site import incr_aof, run_cli, start_serve, stop
from umpire.server.head_checkpoints import read_heads
from umpire.testing.support.gateways import http_get
from umpire.testing.support.peer import Peer

GAMES = 10
COMMANDS = 30
_MULTI = b"*1\r\n$5\r\nMULTI\r\n"
_EXEC = b"*1\r\n$4\r\nEXEC\r\n"
Played = tuple[Path, Acked, dict[str, str]]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A data directory holding the ten games (no serve running), every ack, and each
    game's player credential."""
    data_dir = tmp_path_factory.mktemp("played") / "data"
    acked: Acked = set()
    serve, port = start_serve(data_dir)
    try:
        players = asyncio.run(play(f"ws://127.0.0.1:{port}/ws", GAMES, COMMANDS, "c", acked))
    finally:
        stop(serve)
    return data_dir, acked, players


def _copy(played: Played, tmp_path: Path) -> tuple[Path, Acked]:
    data_dir, acked, _ = played
    copy = tmp_path / "data"
    shutil.copytree(data_dir, copy)
    return copy, set(acked)


def _games(acked: Acked) -> set[str]:
    return {gid for gid, _ in acked}


def test_mid_file_damage_is_found_refused_and_salvaged_naming_each_loss(
    played: Played, tmp_path: Path
) -> None:
    data_dir, acked = _copy(played, tmp_path)
    aof = incr_aof(data_dir)
    whole = aof.read_bytes()
    at = int(len(whole) * 0.3)
    damaged = whole[:at] + bytes(b ^ 0x5A for b in whole[at : at + 16]) + whole[at + 16 :]
    aof.write_bytes(damaged)
    expected_lost = events_in_steps_touching(whole, at, at + 16)
    assert expected_lost, "the damage should fall inside a step holding events"
    # Found: each damaged game and seq named.
    code, out, err = run_cli(data_dir, "store", "check")
    assert code == 1, out + err
    assert expected_lost <= named(out), out
    assert "is whole" not in out
    # Refused, naming what a cut would lose; nothing changed.
    code, out, err = run_cli(data_dir, "store", "repair")
    assert code == 1, out + err
    assert "refused" in out and "would lose: game" in out, out
    would_lose = {
        (gid, seq)
        for gid, first, last in re.findall(r"would lose: game (\S+) seqs? (\d+)(?: to (\d+))?", out)
        for seq in range(int(first), int(last or first) + 1)
    }
    after_damage = {(g, s) for g, s in acked if (g, s) not in expected_lost}
    assert len(would_lose) > 100 and expected_lost <= would_lose, out  # a cut's real price
    assert aof.read_bytes() == damaged
    # Salvaged: only the damaged step's events are lost, each named; the originals kept.
    code, out, err = run_cli(data_dir, "store", "repair", "--salvage")
    assert code == 0, out + err
    assert named_lost(out) == expected_lost, out
    (kept,) = (data_dir / "redis").glob("aof-backup-*")
    assert str(kept) in out
    assert (kept / aof.name).read_bytes() == damaged
    held = stored(data_dir, _games(acked))
    assert after_damage <= held, sorted(after_damage - held)[:10]
    assert not expected_lost & held
    # Every later check and audit names the loss; an untouched game audits clean.
    code, out, err = run_cli(data_dir, "store", "check")
    assert code == 1 and named_lost(out) == expected_lost, out + err
    assert "damaged:" not in out, out
    hit = sorted(_games(expected_lost))[0]
    code, out, err = run_cli(data_dir, "audit", hit, **OPERATOR)
    assert code == 1 and f"game {hit} lost seq" in out, out + err
    clean = sorted(_games(acked) - _games(expected_lost))[0]
    code, out, err = run_cli(data_dir, "audit", clean, **OPERATOR)
    assert code == 0, out + err


def test_a_changed_byte_inside_a_stored_value_is_found(played: Played, tmp_path: Path) -> None:
    data_dir, _ = _copy(played, tmp_path)
    aof = incr_aof(data_dir)
    data = bytearray(aof.read_bytes())
    # The `amount` field name inside an event's payload, far into the file: the framing
    # is untouched, so Valkey loads it and only the chain can tell.
    at = data.index(b"\xa6amount", len(data) // 2) + 1
    data[at] ^= 0x01
    aof.write_bytes(bytes(data))
    step = events_in_steps_touching(bytes(data), at, at + 1)
    code, out, err = run_cli(data_dir, "store", "check")
    assert code == 1, out + err
    assert "is whole" not in out
    damaged = named("\n".join(line for line in out.splitlines() if line.startswith("damaged:")))
    assert damaged and damaged <= step, out  # the game and the seq that changed


def test_a_restored_backup_names_exactly_the_acks_after_it(played: Played, tmp_path: Path) -> None:
    data_dir, before = _copy(played, tmp_path)
    backup = tmp_path / "backup"
    serve, port = start_serve(data_dir)
    url = f"ws://127.0.0.1:{port}/ws"
    after: Acked = set()
    try:
        code, out, err = run_cli(data_dir, "store", "backup", str(backup))
        assert code == 0, out + err  # while serving
        games = sorted(_games(before))

        async def later() -> None:
            peer = await Peer.open(url)
            try:
                for gid in games[:3]:
                    await peer.ok({"type": "auth", "credential": played[2][gid]})
                await more(peer, games[:3], 4, "after", after)
            finally:
                await peer.close()
            await play(url, 1, 2, "new", after)  # a game made after the backup: all lost

        asyncio.run(later())
        code, _, err = run_cli(data_dir, "store", "restore", str(backup), COLUMNS="400")
        assert code == 2 and "stop umpire serve first" in err, err  # not under a server
    finally:
        stop(serve)
    aof = incr_aof(data_dir)
    whole = aof.read_bytes()
    aof.write_bytes(whole[: len(whole) // 2] + b"\x00" * 16 + whole[len(whole) // 2 + 16 :])
    code, out, err = run_cli(data_dir, "store", "restore", str(backup))
    assert code == 0, out + err
    assert named_lost(out) == after, out
    assert stored(data_dir, _games(before | after)) == before
    code, out, err = run_cli(data_dir, "store", "check")
    assert code == 1 and named_lost(out) == after, out + err
    touched = games[0]
    code, out, err = run_cli(data_dir, "audit", touched, **OPERATOR)
    assert code == 1 and f"game {touched} lost seqs" in out, out + err
    code, out, err = run_cli(data_dir, "audit", games[5], **OPERATOR)
    assert code == 0, out + err
    (new,) = _games(after) - _games(before)  # made after the backup: lost whole
    code, out, err = run_cli(data_dir, "audit", new, **OPERATOR)
    assert code == 1 and f"game {new} lost seqs 1 to" in out, out + err


def test_a_restore_from_what_is_not_a_backup_is_refused_and_changes_nothing(
    played: Played, tmp_path: Path
) -> None:
    data_dir, _ = _copy(played, tmp_path)
    aof = incr_aof(data_dir)
    whole = aof.read_bytes()
    code, out, err = run_cli(data_dir, "store", "restore", str(tmp_path), COLUMNS="400")
    assert code == 2 and "error (backup_invalid)" in err, out + err
    assert "is not a backup made by umpire store backup" in err, err
    assert aof.read_bytes() == whole and not list((data_dir / "redis").glob("aof-before-*"))


def test_two_workers_record_every_acknowledged_head(tmp_path: Path) -> None:
    """Both workers of `umpire serve --workers 2` append to the one checkpoint file (one
    write per batch, O_APPEND, a CRC per line): every game's acknowledged head is there."""
    data_dir = tmp_path / "data"
    acked: Acked = set()
    serve, port = start_serve(data_dir, UMPIRE_WORKERS="2")
    url = f"ws://127.0.0.1:{port}/ws"
    served: set[str] = set()

    async def players() -> None:
        while len(served) < 2:  # the kernel spreads connections; until both have some
            await asyncio.gather(*(play(url, 2, 5, f"p{n}", acked, served) for n in range(4)))

    try:
        asyncio.run(players())
    finally:
        stop(serve)
    assert served == {"0", "1"}, served
    heads = read_heads(data_dir)
    assert heads.damaged_lines == 0
    top = {gid: max(s for g, s in acked if g == gid) for gid in _games(acked)}
    assert {gid: seq for gid, (seq, _) in heads.heads.items()} == top


def test_a_repair_or_restore_that_loses_nothing_says_so(played: Played, tmp_path: Path) -> None:
    # Fails without the fix: both said "0 run(s) of acknowledged events ..., each named
    # above", with nothing above.
    data_dir, _ = _copy(played, tmp_path)
    backup = tmp_path / "backup"
    code, out, err = run_cli(data_dir, "store", "backup", str(backup))
    assert code == 0, out + err
    code, out, err = run_cli(data_dir, "store", "restore", str(backup), COLUMNS="400")
    assert code == 0, out + err
    assert "every acknowledged event is in it" in out and "run(s)" not in out, out
    aof = incr_aof(data_dir)
    # A step torn as it was written, never acknowledged: the repair's own case, no loss.
    aof.write_bytes(aof.read_bytes() + b"*3\r\n$3\r\nSET\r\n$4\r\nsom")
    code, out, err = run_cli(data_dir, "store", "repair", COLUMNS="400")
    assert code == 0, out + err
    assert "repaired: cut its torn tail; no acknowledged event lost" in out, out


def _cut_last_step(data_dir: Path, game_id: str) -> Acked:
    """Cut the game's last MULTI ... EXEC step whole from the AOF, its framing intact (so
    Valkey loads the rest): the events it held, acknowledged, are gone."""
    aof = incr_aof(data_dir)
    whole = aof.read_bytes()
    start = whole.rindex(_MULTI, 0, whole.rindex(b"{" + game_id.encode() + b"}"))
    end = whole.index(_EXEC, start) + len(_EXEC)
    lost = events_in_steps_touching(whole, start, end)
    assert lost and _games(lost) == {game_id}
    aof.write_bytes(whole[:start] + whole[end:])
    return lost


def test_an_export_of_a_game_that_lost_acknowledged_events_names_them_or_is_refused(
    played: Played, tmp_path: Path
) -> None:
    # Fails without the fix: the game's last step cut whole from the AOF (its framing
    # intact: Valkey loads it), `umpire export` wrote the 28 events left with exit 0 and
    # no word of the loss, and the verifier found a clean prefix of the game, where
    # `store check` and `audit` named the lost seqs.
    data_dir, acked = _copy(played, tmp_path)
    hit = sorted(_games(acked))[0]
    lost = _cut_last_step(data_dir, hit)
    export = tmp_path / "export.jsonl"
    code, out, err = run_cli(data_dir, "export", hit, "--operator", "-o", str(export),
                             COLUMNS="400")  # fmt: skip
    assert code == 2 and "error (export_refused)" in err, out + err
    assert named_lost(err) == lost and "--with-losses" in err, err
    assert not export.exists()
    code, out, err = run_cli(data_dir, "export", hit, "--operator", "--with-losses", "-o",
                             str(export), COLUMNS="400")  # fmt: skip
    assert code == 0, out + err
    assert named_lost(err) == lost and "this export lacks acknowledged events" in err, err
    held = max(seq for gid, seq in acked if gid == hit) - len(lost)
    assert len(export.read_text().splitlines()) == 1 + held
    clean = sorted(_games(acked))[1]
    code, out, err = run_cli(data_dir, "export", clean, "--operator", "-o", str(export),
                             COLUMNS="400")  # fmt: skip
    assert code == 0 and "lost" not in err, out + err


def _step_of(whole: bytes, game_id: str, which: int) -> tuple[int, int]:
    """The bytes of the MULTI ... EXEC step holding the game's `which`-th stream write."""
    key = re.escape(b"{" + game_id.encode() + b"}:events")
    at = [m.start() for m in re.finditer(key, whole)][which]
    start = whole.rindex(_MULTI, 0, at)
    return start, whole.index(_EXEC, start) + len(_EXEC)


@pytest.mark.parametrize("damage", ["a step dropped", "two steps swapped"])
def test_an_export_of_a_log_with_a_gap_names_it_or_is_refused(
    played: Played, tmp_path: Path, damage: str
) -> None:
    # Fails without the fix: a middle step of the game dropped from the AOF, or two of
    # its steps swapped (the later one's events then land first, the earlier's are
    # refused as out of order), `store check` named the missing seqs but `umpire export`
    # wrote the events left with exit 0 and no word, with or without --with-losses.
    data_dir, acked = _copy(played, tmp_path)
    hit = sorted(_games(acked))[0]
    aof = incr_aof(data_dir)
    whole = aof.read_bytes()
    start, end = _step_of(whole, hit, 10)
    lost = events_in_steps_touching(whole, start, end)
    if damage == "a step dropped":
        aof.write_bytes(whole[:start] + whole[end:])
    else:
        later, after = _step_of(whole, hit, 14)
        # The later step's events land first; the game's events from the earlier step up
        # to it are then refused as out of order.
        between = events_in_steps_touching(whole, start, later - 1)
        lost = {(gid, seq) for gid, seq in between if gid == hit}
        aof.write_bytes(
            whole[:start] + whole[later:after] + whole[end:later] + whole[start:end] + whole[after:]
        )
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 1 and named_lost(out) == lost, out + err
    export = tmp_path / "export.jsonl"
    code, out, err = run_cli(data_dir, "export", hit, "--operator", "-o", str(export),
                             COLUMNS="400")  # fmt: skip
    assert code == 2 and "error (export_refused)" in err, out + err
    assert named_lost(err) == lost, err
    assert not export.exists()
    code, out, err = run_cli(data_dir, "export", hit, "--operator", "--with-losses", "-o",
                             str(export), COLUMNS="400")  # fmt: skip
    assert code == 0 and named_lost(err) == lost, out + err
    assert "this export lacks acknowledged events" in err, err


async def _three_moves(port: int, credential: str, game_id: str, acked: Acked) -> None:
    """Three more moves of `game_id` through the gateway at `port`, each ack in `acked`."""
    peer = await Peer.open(f"ws://127.0.0.1:{port}/ws")
    try:
        await peer.ok({"type": "auth", "credential": credential})
        await more(peer, [game_id], 3, "over", acked)
    finally:
        await peer.close()


def test_moves_written_over_lost_acknowledged_ones_leave_the_loss_named(
    played: Played, tmp_path: Path
) -> None:
    # Fails without the fix: once `umpire serve` wrote the player's next moves where the
    # lost ones had been, the checkpoint's head passed them, and `store check` said "the
    # store is whole" and `umpire audit` passed the game: two acknowledged seqs gone,
    # named nowhere.
    data_dir, acked = _copy(played, tmp_path)
    hit = sorted(_games(acked))[0]
    lost = _cut_last_step(data_dir, hit)
    serve, port = start_serve(data_dir)
    later: Acked = set()
    try:
        asyncio.run(_three_moves(port, played[2][hit], hit, later))
    finally:
        stop(serve)
    assert min(seq for _, seq in later) == min(seq for _, seq in lost)  # written over them
    assert max(seq for _, seq in later) > max(seq for _, seq in lost)  # and past them
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 1 and named_lost(out) == lost, out + err
    assert "is whole" not in out
    code, out, err = run_cli(data_dir, "audit", hit, "--no-receipts", COLUMNS="400", **OPERATOR)
    assert code == 1 and named_lost(out) == lost, out + err
    clean = sorted(_games(acked))[1]
    code, out, err = run_cli(data_dir, "audit", clean, "--no-receipts", **OPERATOR)
    assert code == 0, out + err


def test_serve_on_a_store_that_lost_acknowledged_events_names_them_at_start(
    played: Played, tmp_path: Path
) -> None:
    # Fails without the fix: `umpire serve` started on a store whose game had lost its
    # acknowledged last step said nothing (log, /metrics, head checkpoints) until the next
    # move of that game recorded the loss, and never for a game no one moved again.
    data_dir, acked = _copy(played, tmp_path)
    hit = sorted(_games(acked))[0]
    lost = _cut_last_step(data_dir, hit)
    serve, port = start_serve(data_dir)
    later: Acked = set()
    try:
        _, metrics = asyncio.run(http_get(port, "/metrics"))
        assert "umpire_store_lost_games 1.0" in metrics, metrics
        # Named at start in the head checkpoints, before any move.
        assert {(loss.game_id, seq) for loss in read_heads(data_dir).losses
                for seq in range(loss.first, loss.last + 1)} == lost  # fmt: skip
        asyncio.run(_three_moves(port, played[2][hit], hit, later))
    finally:
        output = stop(serve)
    assert named_lost(output) == lost and "umpire serve started" in output, output
    # Named once: the moves written over the lost seqs add no second loss line.
    assert len(read_heads(data_dir).losses) == 1, read_heads(data_dir).losses
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 1 and named_lost(out) == lost, out + err
    assert out.count(f"game {hit} lost") == 1, out
    # A second start names nothing again, and still counts the game.
    serve, port = start_serve(data_dir)
    try:
        _, metrics = asyncio.run(http_get(port, "/metrics"))
        assert "umpire_store_lost_games 1.0" in metrics, metrics
    finally:
        output = stop(serve)
    assert "lost" not in output, output
    assert len(read_heads(data_dir).losses) == 1


def test_a_store_without_its_head_checkpoints_is_not_called_whole(
    played: Played, tmp_path: Path
) -> None:
    # Fails without the fix: the checkpoint file gone (deleted, or not copied with the
    # store) and a game's acknowledged tail cut, `store check` said "the store is whole:
    # ... nothing acknowledged missing", which it could not know.
    data_dir, acked = _copy(played, tmp_path)
    (data_dir / "store-heads.log").unlink()
    _cut_last_step(data_dir, sorted(_games(acked))[0])
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 0, out + err
    assert "is whole" not in out and "nothing acknowledged missing" not in out, out
    unchecked = set(re.findall(r"unchecked: game (\S+) has no head checkpoint", out))
    assert unchecked == _games(acked), out
    assert "whether they lost acknowledged events cannot be told" in out, out


def test_a_lost_dedupe_entry_and_the_command_applied_twice_are_named(
    played: Played, tmp_path: Path
) -> None:
    # Fails without the fix: one command's dedupe entry dropped from the AOF (the chain
    # whole), `store check` said "the store is whole", and so it did once the player's
    # client sent the command again after a lost ack and the gateway applied it a second
    # time (only `umpire audit` of that game found the repeated id).
    data_dir, acked = _copy(played, tmp_path)
    hit = sorted(_games(acked))[0]
    aof = incr_aof(data_dir)
    whole = aof.read_bytes()
    entry = re.compile(
        rb"\*4\r\n\$6\r\nHSETNX\r\n\$\d+\r\numpire:\{" + hit.encode() + rb"\}:commands\r\n"
        rb"\$3\r\nc-5\r\n\$\d+\r\n(\d+):(\d+):[^\r]*\r\n"
    )
    (found,) = entry.finditer(whole)
    first, last = int(found[1]), int(found[2])
    aof.write_bytes(whole[: found.start()] + whole[found.end() :])
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 1 and "is whole" not in out, out + err
    assert f"game {hit} seqs {first} to {last}: command 'c-5' has no dedupe entry" in out, out
    serve, port = start_serve(data_dir)
    again: Acked = set()
    try:

        async def resend() -> None:
            peer = await Peer.open(f"ws://127.0.0.1:{port}/ws")
            try:
                await peer.ok({"type": "auth", "credential": played[2][hit]})
                reply = await peer.ok({"type": "command", "game_id": hit, "command_id": "c-5",
                                       "command": {"type": "Add", "amount": 1}})  # fmt: skip
                again.update((hit, seq) for seq in reply["seqs"])
            finally:
                await peer.close()

        asyncio.run(resend())
    finally:
        stop(serve)
    twice = sorted(seq for _, seq in again)
    assert twice[0] > last  # appended anew: what the entry was there to prevent
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 1, out + err
    assert (
        f"game {hit} seqs {twice[0]} to {twice[-1]}: command 'c-5' was applied again "
        f"(first at seq {first})"
    ) in out, out


def test_a_game_whose_seed_is_lost_is_named_and_a_copy_without_one_is_not(
    played: Played, tmp_path: Path
) -> None:
    # Fails without the fix: the game's `:secret` record dropped from the AOF (its seed,
    # committed at creation, and its sealing key), `store check` said "the store is
    # whole", and the game refused every command as if it were a re-adjudication copy:
    # its rolls since the last reveal can never be checked.
    data_dir, acked = _copy(played, tmp_path)
    hit, other = sorted(_games(acked))[:2]
    code, out, err = run_cli(data_dir, "readjudicate", other)  # a copy holds no seed
    assert code == 0, out + err
    aof = incr_aof(data_dir)
    whole = aof.read_bytes()
    found = re.search(
        rb"\*3\r\n\$3\r\nSET\r\n\$\d+\r\numpire:\{" + hit.encode() + rb"\}:secret\r\n\$(\d+)\r\n",
        whole,
    )
    assert found is not None
    aof.write_bytes(whole[: found.start()] + whole[found.end() + int(found[1]) + 2 :])
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 1 and "is whole" not in out, out + err
    damaged = [line for line in out.splitlines() if line.startswith("damaged:")]
    assert len(damaged) == 1, out
    assert f"game {hit} seqs 1 to " in damaged[0] and "dice seed and sealing key" in damaged[0]


def _drop_command(data_dir: Path, command: bytes, key: bytes) -> None:
    """Drop the first `command key ...` record from the AOF, its framing intact."""
    aof = incr_aof(data_dir)
    whole = aof.read_bytes()
    head = rb"\*(\d+)\r\n\$%d\r\n%s\r\n\$%d\r\n%s\r\n" % (
        len(command), command, len(key), re.escape(key)
    )  # fmt: skip
    found = re.search(head, whole)
    assert found is not None, key
    end = found.end()
    for _ in range(int(found[1]) - 2):  # the record's other arguments
        line = whole.index(b"\r\n", end)
        end = line + 2 + int(whole[end + 1 : line]) + 2
    aof.write_bytes(whole[: found.start()] + whole[end:])


@pytest.mark.parametrize(
    ("command", "key", "said"),
    [
        (b"HSETNX", b"umpire:receipt-keys", "its receipt key {key} is not in the store"),
        (b"ZADD", b"umpire:games", "not in the store's list of games"),
    ],
)
def test_a_lost_receipt_key_or_games_list_entry_is_named(
    played: Played, tmp_path: Path, command: bytes, key: bytes, said: str
) -> None:
    # Fails without the fix: either record dropped from the AOF, `store check` said "the
    # store is whole". Without the key every game that names it answers unsigned from
    # then on; a game missing from the list is in no listing (and no check, but for its
    # head checkpoint).
    data_dir, acked = _copy(played, tmp_path)
    _drop_command(data_dir, command, key)
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 1 and "is whole" not in out, out + err
    damaged = [line for line in out.splitlines() if line.startswith("damaged:")]
    named_games = {line.split()[2] for line in damaged}
    if command == b"ZADD":
        assert len(damaged) == 1 and said in damaged[0], out  # the first game made
    else:
        assert named_games == _games(acked), out  # every game names the one key
        key_id = re.search(r"its receipt key (\S+) is not", damaged[0])
        assert key_id is not None and all(said.format(key=key_id[1]) in d for d in damaged)


@pytest.mark.parametrize(
    "damage", ["revocation cut", "grant dropped", "cut, then changed", "cut, then changed unseen"]
)
def test_lost_credentials_are_named(played: Played, tmp_path: Path, damage: str) -> None:
    # Fails without the fix: the store cannot tell which credentials it gave out, so a
    # game's player credential revoked and the revocation's step then cut from the AOF
    # (the revoked credential works again), or its grant dropped (the player's credential
    # no longer works), left `store check` saying the store is whole.
    # "cut, then changed" (red team 9b): after the cut, a later change of the game's
    # credentials is counted with the lost change's number and brings the store's count
    # level with the record again; unrecorded, `store check` said the store is whole.
    # "cut, then changed unseen" (red team 10): the later change made by a process that had
    # not read the lost change's record (a serve worker started before the `umpire revoke`
    # whose step was cut) records the number again with no `K` line, and `store check`
    # said the store is whole.
    data_dir, acked = _copy(played, tmp_path)
    hit = sorted(_games(acked))[0]
    key = b"umpire:{" + hit.encode() + b"}:credentials"
    if damage.startswith(("revocation cut", "cut, then changed")):
        code, out, err = run_cli(data_dir, "revoke", played[2][hit], **OPERATOR)
        assert code == 0, out + err
        aof = incr_aof(data_dir)
        whole = aof.read_bytes()
        start = whole.rindex(_MULTI, 0, whole.rindex(key))
        end = whole.index(_EXEC, start) + len(_EXEC)
        assert b"HDEL" in whole[start:end]
        aof.write_bytes(whole[:start] + whole[end:])
        said = "its credentials lost changes"
        if damage.startswith("cut, then changed"):  # the credential works again: revoked again
            code, out, err = run_cli(data_dir, "revoke", played[2][hit], **OPERATOR)
            assert code == 0, out + err
        if damage == "cut, then changed unseen":  # as a process that had not read the first
            heads = data_dir / "store-heads.log"
            lines = heads.read_bytes().splitlines(keepends=True)
            heads.write_bytes(b"".join(x for x in lines if not x.startswith(b"K ")))
    else:
        _drop_command(data_dir, b"HSET", key)
        said = "its credentials were changed outside umpire"
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 1 and "is whole" not in out, out + err
    damaged = [line for line in out.splitlines() if line.startswith("damaged:")]
    assert len(damaged) == 1 and f"game {hit} " in damaged[0] and said in damaged[0], out
    # `umpire serve` names it in its log as it starts, before anyone plays.
    serve, _ = start_serve(data_dir)
    output = stop(serve)
    assert f"game {hit}: {said}" in output, output
    # And records it, so no later change brings the counts level and hides it.
    assert hit in read_heads(data_dir).credential_losses


def test_an_export_with_its_seal_is_refused_before_the_seal_closes_a_cut_log(
    played: Played, tmp_path: Path
) -> None:
    # Fails without the fix: `export --seal` wrote the seal (no event may follow it, for
    # good) on the log the cut left, and only then refused the export.
    data_dir, acked = _copy(played, tmp_path)
    hit = sorted(_games(acked))[0]
    lost = _cut_last_step(data_dir, hit)
    code, out, err = run_cli(data_dir, "send", hit, '{"type": "EndGame", "result": "over"}')
    assert code == 0, out + err
    code, out, err = run_cli(data_dir, "export", hit, "--seal", "--operator", COLUMNS="400")
    assert code == 2 and "error (export_refused)" in err, out + err
    assert named_lost(err) == lost, err
    code, out, err = run_cli(data_dir, "log", hit, "--json", "--as", "referee", **OPERATOR)
    assert code == 0 and "ExportSealed" not in out, out + err


def _forget_credential_counts(data_dir: Path) -> None:
    """The head checkpoints as a store made before credential changes were counted left
    them: heads and losses, no `C`, `D`, `K` or `B` line."""
    path = data_dir / "store-heads.log"
    kept = [line for line in path.read_bytes().splitlines(keepends=True) if line[:1] in b"HRL"]
    path.write_bytes(b"".join(kept))


def test_credentials_never_counted_are_named_then_counted_from_serves_start(
    played: Played, tmp_path: Path
) -> None:
    # Fails without the fix: games made before the credential counts have no `C` line,
    # and `store check` said the store is whole without a word of their credentials, and
    # went on saying so whatever the AOF lost of them (a grant dropped: the credential
    # given out no longer works), since nothing ever began counting them.
    data_dir, acked = _copy(played, tmp_path)
    _forget_credential_counts(data_dir)
    games = _games(acked)
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 0 and "is whole" not in out, out + err
    uncounted = set(re.findall(r"unchecked: credentials of game (\S+) were never counted", out))
    assert uncounted == games, out
    assert "credentials were never counted (named above)" in out, out
    # `umpire serve` names each at its start and counts them from then on.
    serve, _ = start_serve(data_dir)
    output = stop(serve)
    hit = sorted(games)[0]
    assert f"game {hit}: its credentials have no count in the head checkpoints" in output, output
    since = read_heads(data_dir).counted_since
    assert set(since) == games, since
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 0 and "never counted" not in out, out + err
    assert f"note: credentials of game {hit} counted since {since[hit]}" in out, out
    # A change lost from then on is named: a grant's record dropped from the AOF.
    _drop_command(data_dir, b"HSET", b"umpire:{" + hit.encode() + b"}:credentials")
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 1 and "is whole" not in out, out + err
    damaged = [line for line in out.splitlines() if line.startswith("damaged:")]
    assert len(damaged) == 1 and f"game {hit} " in damaged[0], out
    assert "its credentials were changed outside umpire" in damaged[0], out


@pytest.mark.parametrize("origin", ["made before counts", "C lines lost"])
def test_a_game_whose_credentials_were_never_counted_is_not_called_whole(
    played: Played, tmp_path: Path, origin: str
) -> None:
    # Fails without the fix (red team 10): a game the head checkpoints hold no `C` line
    # for (made before credentials were counted, or its lines lost when
    # store-heads.log was rewritten or truncated) had its player's grant dropped from the
    # AOF (the credential given out no longer works), and `store check` said "the store is
    # whole", as `umpire serve` said nothing at its start.
    data_dir, acked = _copy(played, tmp_path)
    hit = sorted(_games(acked))[0]
    key = b"umpire:{" + hit.encode() + b"}:credentials"
    heads = data_dir / "store-heads.log"
    kept = heads.read_bytes().splitlines(keepends=True)
    heads.write_bytes(b"".join(x for x in kept if not x.startswith(b"C " + hit.encode() + b" ")))
    if origin == "made before counts":  # the store counted nothing either
        _drop_command(data_dir, b"HINCRBY", key)
    _drop_command(data_dir, b"HSET", key)
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 0 and "is whole" not in out, out + err
    said = f"unchecked: credentials of game {hit} were never counted"
    assert [line for line in out.splitlines() if line.startswith("unchecked:")] == [
        line for line in out.splitlines() if said in line
    ] and said in out, out
    # `umpire serve` counts them as it starts, so a change lost after is named.
    serve, _ = start_serve(data_dir)
    output = stop(serve)
    assert f"game {hit}: its credentials have no count" in output, output
    assert hit in read_heads(data_dir).credentials
    code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    assert code == 0 and "unchecked:" not in out, out + err


def test_an_imported_game_is_not_called_damaged(played: Played, tmp_path: Path) -> None:
    # Fails without the fix (red team 10): a game exported from one server and imported
    # into another (`umpire import`, hashes unchanged) names the first server's receipt
    # key, which the second never held, and `store check` called the store damaged
    # ("its receipt key K is not in the store ... restore a backup for the key", exit 1)
    # after a routine import.
    data_dir, acked = _copy(played, tmp_path)
    hit = sorted(_games(acked))[0]
    exported = tmp_path / "exported.jsonl"
    code, out, err = run_cli(data_dir, "export", hit, "--operator", "-o", str(exported))
    assert code == 0, out + err
    other = tmp_path / "other"
    code, out, err = run_cli(other, "import", str(exported))
    assert code == 0 and f"imported game {hit}" in out, out + err
    code, out, err = run_cli(other, "store", "check", COLUMNS="400")
    assert code == 0 and "damaged" not in out and "is whole" in out, out + err
