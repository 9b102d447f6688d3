"""A restore names all it loses, once (receipt keys, credentials), and a log read with a
gap says so (red team 9).

Two counter games are played through a real `umpire serve`; then a backup is taken, the
store moves on past it (a receipt key rotation, a revoked credential), and the real
`umpire store restore` puts the backup back; or a middle step of a game is dropped from
the real AOF and the log is read with the real `umpire log` and `umpire replay`, and
followed over real websockets through a real gateway.
"""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.acked_games import OPERATOR, Acked, events_in_steps_touching, named, play
from tests.support.embedded_site import incr_aof, run_cli, start_serve, stop
from umpire.clients.client import UmpireClient, UmpireError
from umpire.testing.support.peer import Peer

Played = tuple[Path, dict[str, str]]
_MULTI = b"*1\r\n$5\r\nMULTI\r\n"
_EXEC = b"*1\r\n$4\r\nEXEC\r\n"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A data directory holding two games (no serve running), and each game's player
    credential."""
    data_dir = tmp_path_factory.mktemp("played") / "data"
    acked: Acked = set()
    serve, port = start_serve(data_dir)
    try:
        players = asyncio.run(play(f"ws://127.0.0.1:{port}/ws", 2, 3, "c", acked))
    finally:
        stop(serve)
    return data_dir, players


def _copy_with_backup(played: Played, tmp_path: Path) -> tuple[Path, Path]:
    data_dir = tmp_path / "data"
    shutil.copytree(played[0], data_dir)
    backup = tmp_path / "backup"
    code, out, err = run_cli(data_dir, "store", "backup", str(backup))
    assert code == 0, out + err
    return data_dir, backup


def _drop_a_middle_step(data_dir: Path, game_id: str) -> Acked:
    """Drop a command's step of `game_id`, mid-log, from the real AOF: the events lost."""
    aof = incr_aof(data_dir)
    whole = aof.read_bytes()
    key = re.escape(b"{" + game_id.encode() + b"}:events")
    at = [m.start() for m in re.finditer(key, whole)][2]  # a command's step, mid-log
    start = whole.rindex(_MULTI, 0, at)
    end = whole.index(_EXEC, start) + len(_EXEC)
    aof.write_bytes(whole[:start] + whole[end:])
    return events_in_steps_touching(whole, start, end)


@pytest.mark.parametrize("files", ["loading", "damaged"])
def test_a_key_rotated_after_the_backup_is_kept_by_its_restore(
    played: Played, tmp_path: Path, files: str
) -> None:
    # Fails without the fix: the rotated key vanished without a word, and every receipt
    # it signed could no longer be checked against the server's keys.
    data_dir, backup = _copy_with_backup(played, tmp_path)
    code, out, err = run_cli(data_dir, "keys", "--rotate", COLUMNS="400")
    assert code == 0, out + err
    found = re.search(r"new games take receipt key (\S+) ", out)
    assert found is not None, out
    rotated = found[1]
    if files == "damaged":  # files that no longer load: why most restores are made
        aof = incr_aof(data_dir)
        whole = aof.read_bytes()
        aof.write_bytes(whole[: len(whole) // 2] + b"\x00" * 16 + whole[len(whole) // 2 + 16 :])
    code, out, err = run_cli(data_dir, "store", "restore", str(backup), COLUMNS="400")
    assert code == 0, out + err
    assert f"kept: receipt key {rotated}, not in the backup" in out, out
    assert ("do not load" in out) == (files == "damaged"), out
    code, out, err = run_cli(data_dir, "keys", COLUMNS="400")
    assert code == 0, out + err
    listed = [line for line in out.splitlines() if line.startswith(rotated)]
    assert len(listed) == 1 and "(current)" not in listed[0], out  # the backup's stays current


def test_credentials_a_restore_lost_are_named_by_it_once(played: Played, tmp_path: Path) -> None:
    # Fails without the fix: the restore said nothing of the credentials, and its `C`
    # line was never rebased, so every `store check` after it named them lost, forever.
    data_dir, backup = _copy_with_backup(played, tmp_path)
    hit = sorted(played[1])[0]
    code, out, err = run_cli(data_dir, "revoke", played[1][hit], **OPERATOR)
    assert code == 0, out + err
    code, out, err = run_cli(data_dir, "store", "restore", str(backup), COLUMNS="400")
    assert code == 0, out + err
    said = [line for line in out.splitlines() if line.startswith("lost:")]
    assert len(said) == 1 and said[0].startswith(f"lost: game {hit}: its credentials lost"), out
    for _ in range(2):  # named once, by the restore: not by each check after it
        code, out, err = run_cli(data_dir, "store", "check", COLUMNS="400")
        assert "its credentials" not in out, out + err


def test_a_log_with_a_gap_is_named_by_log_and_replay(played: Played, tmp_path: Path) -> None:
    # Fails without the fix: a middle step of the game dropped from the AOF, `umpire log`
    # printed the rows on either side of the gap (and `replay` a state folded over it)
    # with exit 0 and no word, where `audit` and `store check` named the missing seqs.
    data_dir = tmp_path / "data"
    shutil.copytree(played[0], data_dir)
    hit = sorted(played[1])[0]
    lost = _drop_a_middle_step(data_dir, hit)
    for argv in (["log", hit], ["log", hit, "--json"], ["replay", hit, "--at", "1"]):
        code, out, err = run_cli(data_dir, *argv, "--as", "referee", **OPERATOR, COLUMNS="400")
        assert code == 0, out + err
        assert "this log lacks acknowledged events" in err and named(err) == lost, err
    code, out, err = run_cli(data_dir, "log", sorted(played[1])[1], **OPERATOR)
    assert code == 0 and "lacks" not in err, out + err  # a whole log: no word


def test_a_subscriber_is_told_of_a_gap_not_left_waiting(played: Played, tmp_path: Path) -> None:
    # Fails without the fix: with a middle step of the game dropped from the AOF, a
    # subscriber (`umpire watch`, the table) was sent the events before the gap and then
    # nothing, waiting without a word for events that could never come in order.
    data_dir = tmp_path / "data"
    shutil.copytree(played[0], data_dir)
    hit = sorted(played[1])[0]
    lost = sorted(seq for _, seq in _drop_a_middle_step(data_dir, hit))
    serve, port = start_serve(data_dir)
    try:

        async def watch() -> list[dict[str, Any]]:
            peer = await Peer.open(f"ws://127.0.0.1:{port}/ws")
            told: list[dict[str, Any]] = []
            try:
                await peer.ok({"type": "auth", "credential": played[1][hit]})
                # Told as the feed first reads the gap, and again when a later subscribe
                # catches up to it.
                for _ in range(2):
                    await peer.ok({"type": "subscribe", "game_id": hit, "from_seq": 0})
                    told.append(
                        await peer.wait_for(
                            lambda f: (
                                f["type"] == "error"
                                and f.get("code") == "log_gap"
                                and all(f is not t for t in told)
                            )
                        )
                    )
                seqs = [f["seq"] for f in peer.events(hit)]
                assert seqs == [*range(1, lost[0]), *range(1, lost[0])], seqs
            finally:
                await peer.close()
            # The Python client (`umpire watch`) ends its iterator with the notice.
            async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
                await client.auth(played[1][hit])
                with pytest.raises(UmpireError) as ended:
                    async for _ in client.subscribe(hit, 0):
                        pass
                assert ended.value.code == "log_gap", ended.value
            return told

        told = asyncio.run(watch())
    finally:
        output = stop(serve)
    for notice in told:
        assert notice["details"] == {
            "game_id": hit, "head": lost[0] - 1, "first": lost[0], "last": lost[-1]
        }, notice  # fmt: skip
        assert f"the store lost seq{'s' if len(lost) > 1 else ''} {lost[0]}" in notice["message"]
    assert f"game {hit}: the log skips seqs {lost[0]} to {lost[-1]}" in output, output
