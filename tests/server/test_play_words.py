"""`umpire play`'s own words, as a newcomer types them: `help` (or `?`) lists what the
player may send now with its fields, `quit` leaves; and a roll in a seed epoch the reveal
left unbound binds fresh client entropy by itself, where the player had no way to from
`play` (the refusal named the protocol's `bind_seed` message)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.support.processes import REPO, client_env, start_gateway
from umpire.clients import UmpireClient
from umpire.server.embedded import EmbeddedRedis


async def test_help_quit_and_a_roll_after_a_mid_game_reveal(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    # Fails without the fix: "refused (invalid_command): unknown command type 'help'",
    # the Push after the reveal refused (client_seed_required), and the Add after `quit`
    # sent.
    gateway, port = start_gateway(redis_server.url, prefix)
    url = f"ws://127.0.0.1:{port}/ws"
    env = {**client_env(tmp_path), "REDIS_URL": redis_server.url, "UMPIRE_PREFIX": prefix}
    try:
        async with UmpireClient(url) as owner:
            created = await owner.create("counter", {"target": 1000})
        revealed = subprocess.run(
            [sys.executable, "-m", "umpire.server.cli", "reveal", created.game_id],
            capture_output=True, text=True, timeout=60, env=env, cwd=REPO,
        )  # fmt: skip
        assert revealed.returncode == 0, revealed.stderr
        play = subprocess.run(
            [sys.executable, "-m", "umpire.server.cli", "play", "--url", url,
             "--credential", created.player_credential],
            input="help\nPush\nquit\nAdd amount=1\n", capture_output=True, text=True,
            timeout=60, env=env, cwd=REPO,
        )  # fmt: skip
        assert play.returncode == 0, play.stderr
        out = play.stdout
        assert "help lists what you may send now, quit leaves" in out, out
        assert "you may send now:" in out and "\n  Push  " in out, out
        assert "fields: amount" in out, out  # Add's field
        assert "unknown command type" not in out, out
        assert "bound a fresh client seed to the game's new seed epoch" in out, out
        assert "accepted: seqs" in out and "(client_seed_required)" not in out, out
        assert out.count("accepted: seqs") == 1, out  # nothing after `quit`
    finally:
        gateway.terminate()
        gateway.wait(20)


async def test_a_field_given_twice_is_refused_by_play_and_send(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    # Fails without the fix: Python's JSON parser keeps the last of a field given twice,
    # so `{"type":"Add","amount":1,"amount":5}` typed to `umpire play` or `umpire send`
    # added 5 without a word (the gateway refuses the same frame), and `dice_faces` given
    # twice as words rolled the last.
    gateway, port = start_gateway(redis_server.url, prefix)
    url = f"ws://127.0.0.1:{port}/ws"
    env = {**client_env(tmp_path), "REDIS_URL": redis_server.url, "UMPIRE_PREFIX": prefix}
    try:
        async with UmpireClient(url) as owner:
            created = await owner.create("counter", {"target": 1000})
            head = await owner.view(created.game_id)
        lines = [
            '{"type":"Add","amount":1,"amount":5}',
            '{"type":"RollDice","dice":"d6","purpose":"x","dice_faces":[[2]],"dice_faces":[[3]]}',
            "RollDice dice=d6 purpose=x dice_faces=[[1]] dice_faces=[[6]]",
        ]
        play = subprocess.run(
            [sys.executable, "-m", "umpire.server.cli", "play", "--url", url,
             "--credential", created.player_credential],
            input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60,
            env=env, cwd=REPO,
        )  # fmt: skip
        assert play.returncode == 0, play.stderr
        out = play.stdout
        assert "accepted" not in out, out
        assert "field 'amount' is given twice" in out, out
        assert out.count("field 'dice_faces' is given twice") == 2, out
        send = subprocess.run(
            [sys.executable, "-m", "umpire.server.cli", "send", created.game_id,
             '{"type":"Add","amount":1,"amount":5}'],
            capture_output=True, text=True, timeout=60, env=env, cwd=REPO,
        )  # fmt: skip
        assert send.returncode != 0 and "field 'amount' is given twice" in send.stderr, (
            send.stdout + send.stderr
        )
        async with UmpireClient(url) as reader:
            await reader.auth(created.spectator_credential)
            assert (await reader.view(created.game_id)).seq == head.seq  # nothing written
    finally:
        gateway.terminate()
        gateway.wait(20)


async def test_a_line_nested_too_deeply_is_refused_and_play_goes_on(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    # Fails without the fix (red team 10): a typed line whose JSON nests deeper than
    # Python's parser goes (a command typed as JSON, or `dice_faces=` as words) ended
    # `umpire play` with a RecursionError's traceback, and the next line was never read;
    # an integer of more digits than Python converts was called "not words" (a quote left
    # open). `umpire send` refuses both with a line.
    gateway, port = start_gateway(redis_server.url, prefix)
    url = f"ws://127.0.0.1:{port}/ws"
    env = {**client_env(tmp_path), "REDIS_URL": redis_server.url, "UMPIRE_PREFIX": prefix}
    try:
        async with UmpireClient(url) as owner:
            created = await owner.create("counter", {"target": 1000})
        deep = "[" * 100_000
        lines = [
            '{"type":"Add","amount":' + deep,
            "Add amount=1 dice_faces=" + deep,
            '{"type":"Add","amount":1' + "0" * 5000 + "}",
            "Add amount=1",
        ]
        play = subprocess.run(
            [sys.executable, "-m", "umpire.server.cli", "play", "--url", url,
             "--credential", created.player_credential],
            input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60,
            env=env, cwd=REPO,
        )  # fmt: skip
        assert play.returncode == 0 and "Traceback" not in play.stderr, play.stderr
        out = play.stdout
        assert out.count("nests arrays or objects too deeply") == 2, out
        assert "not words" not in out and "more digits" in out, out
        assert out.count("accepted: seqs") == 1, out  # the last line, read and sent
    finally:
        gateway.terminate()
        gateway.wait(20)
