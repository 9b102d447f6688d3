"""Issue #30 item 4: a mid-game reveal opens the epoch's dice, never a ruleset secret still
in play. Before the fix, `umpire explain GAME 6` of a Downtown game showed the player the
hidden AAA pool's densities after `umpire reveal` (every commitment of the epoch opened).

For every ruleset that declares secrets (read from its redaction declarations, not a
list kept here) with a scripted opening that seals one: the player's and the spectator's
channels show the same of every sealed event after the reveal as before it (the feed's
frames, which the gateway sends, `log --json`, `explain --json`), the state of every
`replay --at` is unchanged, and the sealed commitments stay shut for the verifier until
the game ends; the final reveal then opens every one of them. (Nightfighter's opening seals
nothing: tests/rulesets/nightfighter/test_sealed_reveal.py plays to a failed
localisation; tests/server/test_sealed_reveal_gateway.py reads the frames over websockets.)
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from umpire.engine import registry
from umpire.engine.roles import Role
from umpire.events.redis_store import RedisEventStore
from umpire.server.game_feed import GameFeed
from umpire.testing.support.forgery import Cli
from umpire.testing.support.short_games import opening
from umpire.testing.support.verifier import after_headline

VERIFIER = Path(__file__).resolve().parents[2] / "verifier" / "verify_export.py"
LIMITED = ("player", "spectator")


SECRET_HOLDING = sorted(name for name in registry.available() if registry.get(name).has_secrets)


def test_the_rulesets_with_secrets_come_from_their_declarations() -> None:
    assert {"downtown", "nightfighter"} <= set(SECRET_HOLDING)
    for name in SECRET_HOLDING:  # each has an opening that makes its decisions
        assert registry.get(name).openings, f"{name} has secrets and declares no opening"


def _referee_lines(cli: Cli, game: str) -> list[dict[str, Any]]:
    result = cli("log", game, "--json", "--as", "referee")
    assert result.code == 0, result.err
    return [json.loads(line) for line in result.out.splitlines()]


def _frames(cli: Cli, ruleset: str, game: str, role: Role) -> list[bytes]:
    """The frames the gateway's feed sends `role` from seq 1, read from the store."""

    async def read() -> list[bytes]:
        store = RedisEventStore.from_url(cli.redis_url, prefix=cli.prefix)
        try:
            feed = GameFeed(store, game, registry.get(ruleset))
            await feed.refresh()
            return await feed.frames(1, role)
        finally:
            await store.close()

    return asyncio.run(read())


def _channels(cli: Cli, ruleset: str, game: str, head: int) -> dict[str, Any]:
    """What the player and a spectator get of seqs 1..head, channel by channel."""
    seen: dict[str, Any] = {}
    for role in LIMITED:
        frames = [json.loads(f) for f in _frames(cli, ruleset, game, Role(role))]
        seen[f"frames/{role}"] = {
            f["seq"]: f.get("payload") for f in frames if f.get("seq", head + 1) <= head
        }
        result = cli("log", game, "--json", "--as", role)
        assert result.code == 0, result.err
        seen[f"log/{role}"] = {
            r["seq"]: r["payload"] for r in map(json.loads, result.out.splitlines())
        }
        for seq in range(1, head + 1):
            explained = cli("explain", game, str(seq), "--json", "--as", role)
            assert explained.code == 0, explained.err
            seen[f"explain/{role}/{seq}"] = json.loads(explained.out)
            at = cli("replay", game, "--at", str(seq), "--json", "--as", role)
            assert at.code == 0, at.err
            seen[f"replay/{role}/{seq}"] = json.loads(at.out)["state"]
    return seen


@pytest.mark.parametrize("ruleset", SECRET_HOLDING)
def test_a_mid_game_reveal_leaves_every_secret_in_play_sealed(
    cli: Cli, ruleset: str, tmp_path: Path
) -> None:
    setup, commands = opening(ruleset)
    game = cli.new(ruleset, setup)
    for command in commands:
        cli.send(game, command)
    lines = _referee_lines(cli, game)
    head = len(lines)
    sealed = [r["seq"] for r in lines if r["committed"] and r["type"] != "DiceRolled"]
    hidden_rolls = [r["seq"] for r in lines if r["committed"] and r["type"] == "DiceRolled"]
    if ruleset in ("downtown", "counter"):
        assert sealed, f"{ruleset}'s opening seals no secret: the test would prove nothing"
    if not sealed:
        pytest.skip(f"{ruleset}'s opening seals no ruleset secret")
    before = _channels(cli, ruleset, game, head)
    assert cli("reveal", game).code == 0
    after = _channels(cli, ruleset, game, head)
    for channel in ("frames", "log"):
        for role in LIMITED:
            for seq in sealed + hidden_rolls:  # a hidden roll's faces stay hidden too
                key = f"{channel}/{role}"
                assert after[key].get(seq) == before[key].get(seq), (channel, role, seq)
    for role in LIMITED:
        for seq in sealed + hidden_rolls:
            # The explanation of a sealed event is unchanged, the faces of its command's
            # hidden rolls included (they derive from the sealing key, not the seed).
            was, now = before[f"explain/{role}/{seq}"], after[f"explain/{role}/{seq}"]
            assert now == was, (role, seq)
        for seq in range(1, head + 1):  # the state of any seq: a reveal opens no state
            assert after[f"replay/{role}/{seq}"] == before[f"replay/{role}/{seq}"], (role, seq)
    # The sealed commitments stay shut for a verifier until the end, then all open. A
    # player's export is refused while they are shut; the operator's copy holds them.
    assert cli("export", game).code != 0
    path = cli.export(game, "--operator")
    done = _verify(path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(sealed)} still closed" in done.stdout or "still closed" in done.stdout
    cli.send(game, {"type": "EndGame", "result": "sealed test over"})
    final = tmp_path / "final.jsonl"
    assert cli("export", game, "-o", str(final)).code == 0
    done = _verify(final)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 still closed" in done.stdout, done.stdout
    header = json.loads(final.read_text().splitlines()[0])
    assert header["operator_secret"] is None
    last = json.loads(final.read_text().splitlines()[-1])
    assert last["type"] == "SeedRevealed" and len(last["payload"]["sealing_key"]) == 64
    audited = cli("audit", "--file", str(final))
    assert audited.code == 0, audited.out + audited.err
    # Every sealed event, shown after the end, is the referee's own.
    for role in LIMITED:
        result = cli("log", game, "--json", "--as", role)
        shown = {r["seq"]: r["payload"] for r in map(json.loads, result.out.splitlines())}
        for seq in sealed:
            assert shown[seq] == lines[seq - 1]["payload"]


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-I", str(VERIFIER), str(path)], capture_output=True, text=True,
        timeout=120, cwd=path.parent,
    )  # fmt: skip


def test_the_sealing_key_moves_with_an_operator_export_and_opens_at_the_end(
    cli: Cli, tmp_path: Path
) -> None:
    """An operator export carries the sealing key (`operator_sealing_key`); the game
    imported elsewhere seals its later secrets under it and publishes it when it ends, so
    every commitment of the game opens, before the move and after it."""
    game = cli.new("counter", {"target": 1000})
    cli.send(game, {"type": "Hide"})  # sealed under the sealing key
    path = cli.export(game, "--operator")
    header = json.loads(path.read_text().splitlines()[0])
    assert len(header["operator_sealing_key"]) == 64
    cli.use_prefix(cli.prefix + "b")
    assert cli("import", str(path)).code == 0
    cli.send(game, {"type": "Hide"})  # sealed on the new server
    cli.send(game, {"type": "EndGame", "result": "moved and over"})
    final = tmp_path / "moved.jsonl"
    assert cli("export", game, "-o", str(final)).code == 0
    records = [json.loads(line) for line in final.read_text().splitlines()[1:]]
    assert sum(r["committed"] and r["type"] != "DiceRolled" for r in records) == 2
    done = _verify(final)
    assert done.returncode == 0 and after_headline(done.stdout).startswith("OK: "), done.stdout
    assert " 0 still closed" in done.stdout, done.stdout
    audited = cli("audit", "--file", str(final))
    assert audited.code == 0 and after_headline(audited.out).startswith("OK: "), audited.out


def test_a_readjudicated_copy_opens_its_sealed_events_with_the_originals_key(
    cli: Cli, tmp_path: Path
) -> None:
    game = cli.new("counter", {"target": 1000})
    cli.send(game, {"type": "Hide"})
    cli.send(game, {"type": "EndGame", "result": "over"})
    copy = cli("readjudicate", game, "--json")
    assert copy.code == 0, copy.err
    new_id = json.loads(copy.out)["new_game_id"]
    path = tmp_path / "copy.jsonl"
    assert cli("export", new_id, "-o", str(path)).code == 0
    done = _verify(path)
    assert done.returncode == 0 and " 0 still closed" in done.stdout, done.stdout
