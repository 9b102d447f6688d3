"""Games played through a real `umpire serve`, with every acknowledgement kept: what the
store-integrity tests hold the store to ("nothing acknowledged is lost without a name")."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.support.embedded_site import run_cli
from umpire.testing.support.peer import Peer

OPERATOR = {"UMPIRE_OPERATOR_TOKEN": "integrity-test-operator-token-0123"}
Acked = set[tuple[str, int]]  # (game id, seq) of every acknowledged event
_LOST = re.compile(r"game (\S+) lost seqs? (\d+)(?: to (\d+))?")
_MULTI = b"*1\r\n$5\r\nMULTI\r\n"
_EXEC = b"*1\r\n$4\r\nEXEC\r\n"
_EVENT = re.compile(rb"\{([^{}]+)\}:events\r\n\$\d+\r\n(\d+)-0\r\n")


async def play(
    url: str, games: int, commands: int, tag: str, acked: Acked, served: set[str] | None = None
) -> dict[str, str]:
    """Create `games` counter games and send each `commands` commands, over one
    websocket; every acknowledged (game, seq) is added to `acked` (and the worker that
    served the connection, if named, to `served`). Each game's player credential."""
    peer = await Peer.open(url)
    if served is not None and peer.ws.response is not None:
        served.add(peer.ws.response.headers.get("X-Umpire-Worker", ""))
    made = {}
    try:
        for _ in range(games):
            created = await peer.ok({"type": "create", "ruleset": "counter", "setup": {},
                                     "client_entropy": "waived"})  # fmt: skip
            made[created["game_id"]] = created["player_credential"]
            acked.update((created["game_id"], seq) for seq in range(1, created["head_seq"] + 1))
        await more(peer, list(made), commands, tag, acked)
    finally:
        await peer.close()
    return made


async def more(peer: Peer, games: list[str], commands: int, tag: str, acked: Acked) -> None:
    """`commands` more commands to each game, round robin; each ack's seqs into `acked`."""
    for n in range(commands):
        for gid in games:
            reply = await peer.ok({"type": "command", "game_id": gid,
                                   "command_id": f"{tag}-{n}",
                                   "command": {"type": "Add", "amount": 1}})  # fmt: skip
            acked.update((gid, seq) for seq in reply["seqs"])


def stored(data_dir: Path, games: set[str]) -> Acked:
    """Every (game, seq) the store holds for `games`, read with `umpire log` (no serve)."""
    held: Acked = set()
    for gid in sorted(games):
        code, out, err = run_cli(data_dir, "log", gid, "--json", "--as", "referee", **OPERATOR)
        if code != 0:
            assert "game_not_found" in err, err
            continue
        held.update((gid, json.loads(line)["seq"]) for line in out.splitlines() if line)
    return held


def named_lost(output: str) -> Acked:
    """Every (game, seq) an output names lost ("game X lost seqs 41 to 57")."""
    lost: Acked = set()
    for gid, first, last in _LOST.findall(output):
        lost.update((gid, seq) for seq in range(int(first), int(last or first) + 1))
    return lost


def named(output: str) -> Acked:
    """Every (game, seq) any line of an output names ("game X seq 4", "game X seqs 4 to
    9", "game X lost seqs 4 to 9")."""
    out: Acked = set()
    for gid, first, last in re.findall(r"game (\S+) (?:lost )?seqs? (\d+)(?: to (\d+))?", output):
        out.update((gid, seq) for seq in range(int(first), int(last or first) + 1))
    return out


def events_in_steps_touching(aof: bytes, start: int, end: int) -> Acked:
    """The events of every MULTI ... EXEC step of `aof` that overlaps bytes start..end:
    what damage there may take with it (found here without umpire's own scanner)."""
    out: Acked = set()
    at = aof.find(_MULTI)
    while at != -1:
        close = aof.index(_EXEC, at) + len(_EXEC)
        if at < end and start < close:
            out.update((m[1].decode(), int(m[2])) for m in _EVENT.finditer(aof, at, close))
        at = aof.find(_MULTI, close)
    return out
