"""`umpire watch` and `umpire play` as real processes against a real gateway process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.processes import REPO, client_env, start_gateway
from umpire.clients import UmpireClient
from umpire.server.embedded import EmbeddedRedis


async def test_play_sends_json_lines_and_words_and_watch_prints_the_events(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    gateway, port = start_gateway(redis_server.url, prefix)
    url = f"ws://127.0.0.1:{port}/ws"
    env = client_env(tmp_path)
    try:
        async with UmpireClient(url) as owner:
            created = await owner.create("counter", {"target": 1000}, client_entropy="waived")
        commands = (
            '{"type": "Push"}\n{"type": "Fly"}\n{"type": "Add", "amount": 2}\n'
            # The same as words, and a misspelt field, refused before anything is sent.
            "Add amount=3\nAdd amont=3\n"
        )
        play = subprocess.run(
            [sys.executable, "-m", "umpire.server.cli", "play", "--url", url,
             "--credential", created.player_credential],
            input=commands, capture_output=True, text=True, timeout=60, env=env, cwd=REPO,
        )  # fmt: skip
        assert play.returncode == 0, play.stderr
        assert "accepted: seqs 2..4" in play.stdout
        assert "refused (invalid_command)" in play.stdout and "Fly" in play.stdout
        assert "accepted: seqs 5..6" in play.stdout
        assert "accepted: seqs 7..8" in play.stdout
        assert "Add has no field 'amont'; it takes amount" in " ".join(play.stdout.split())
        assert "seqs 9" not in play.stdout
        # Its receipts, in this machine's data directory (docs/audit.md 8.2).
        kept = (tmp_path / "receipts" / f"{created.game_id}.jsonl").read_text().splitlines()
        accepted = [json.loads(line) for line in kept[1:]]
        accepted = [r["head_seq"] for r in accepted if r["reply"] == "accepted"]
        assert accepted == [4, 6, 8]
        watch = subprocess.run(
            [sys.executable, "-m", "umpire.server.cli", "watch", "--url", url, "--limit", "6",
             "--credential", created.spectator_credential],
            capture_output=True, text=True, timeout=60, env=env, cwd=REPO,
        )  # fmt: skip
        assert watch.returncode == 0, watch.stderr
        lines = [line for line in watch.stdout.splitlines() if line.strip()[:1].isdigit()]
        assert [int(line.split()[0]) for line in lines] == [1, 2, 3, 4, 5, 6]
        assert "as spectator" in watch.stdout and "roll 1: d6" in watch.stdout
    finally:
        gateway.terminate()
        gateway.wait(20)


async def test_watch_of_an_ended_game_says_why_it_goes_on(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    # Fails without the fix: after the final reveal the watch printed nothing more and
    # sat there, with no word that the game had ended or what it still waits for.
    gateway, port = start_gateway(redis_server.url, prefix)
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        async with UmpireClient(url) as owner:
            created = await owner.create("counter", {"target": 1000}, client_entropy="waived")
            await owner.auth(created.player_credential)
            await owner.send(created.game_id, {"type": "EndGame", "result": "over"})
        watch = subprocess.run(  # its 4 events: created, EndGame, ended, final reveal
            [sys.executable, "-m", "umpire.server.cli", "watch", "--url", url, "--limit", "4",
             "--credential", created.spectator_credential],
            capture_output=True, text=True, timeout=60, env=client_env(tmp_path), cwd=REPO,
        )  # fmt: skip
        assert watch.returncode == 0, watch.stderr
        lines = watch.stdout.splitlines()
        assert "seed revealed" in lines[-2], watch.stdout
        assert lines[-1].strip() == (
            "the game has ended; still watching for disputes and rulings (Ctrl-C to stop)"
        ), watch.stdout
    finally:
        gateway.terminate()
        gateway.wait(20)
