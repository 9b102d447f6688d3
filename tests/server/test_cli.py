"""The `umpire` command line against a real store: new, send, log, games, reveal."""

from __future__ import annotations

import asyncio
import json
import os

import msgspec
import pytest

from umpire.engine.audit import audit
from umpire.engine.game import ruleset_of
from umpire.events.redis_store import RedisEventStore
from umpire.server.cli import main
from umpire.server.embedded import EmbeddedRedis


@pytest.fixture
def cli_env(monkeypatch: pytest.MonkeyPatch, redis_server: EmbeddedRedis, prefix: str) -> str:
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("UMPIRE_PREFIX", prefix)
    monkeypatch.setenv("UMPIRE_EXTRA_RULESETS", "umpire_counter:RULESET")
    return prefix


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_game_driven_from_the_command_line(cli_env: str, capsys, redis_server) -> None:
    code, out, _ = run(capsys, "new", "counter", "--setup", '{"target": 20}', "--json",
                       "--client-seed", "cli-seed", "--allow-opponent-dice")  # fmt: skip
    assert code == 0
    game = json.loads(out)["game_id"]
    assert json.loads(out)["client_seed"] == "cli-seed"  # bound after the commitment: seq 2
    code, out, _ = run(capsys, "send", game, '{"type": "Push"}', "--command-id", "p1")
    assert code == 0 and "seqs 3..5" in out and "bot push" in out
    code, out, _ = run(capsys, "send", game, '{"type": "Push"}', "--dice", "[[6]]")
    assert code == 0 and "(player)" in out
    code, out, _ = run(capsys, "send", game, '{"type": "Push"}', "--command-id", "p1")
    assert code == 0 and "already applied" in out
    code, out, _ = run(capsys, "log", game)
    # Types in words (the JSON lines keep them exact).
    assert code == 0 and "Bot pushed" in out and "Game created" in out
    assert "counter.BotPushed" not in out and "GameCreated" not in out
    code, out, _ = run(capsys, "games")
    assert code == 0 and game in out
    code, out, _ = run(capsys, "reveal", game)
    assert code == 0 and "seed revealed" in out
    code, out, _ = run(capsys, "log", game, "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [r["seq"] for r in lines] == list(range(1, len(lines) + 1))
    assert lines[-1]["type"] == "SeedRevealed"


async def test_the_cli_log_passes_the_audit(cli_env: str, redis_server, prefix) -> None:
    import asyncio

    def drive() -> str:
        import contextlib
        import io

        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            main(["new", "counter", "--json"])
        game = json.loads(buffer.getvalue())["game_id"]
        for _ in range(3):
            main(["send", game, '{"type": "Hide"}'])
        # Hidden rolls are checked once the final reveal opens their key (issue #30 item 4).
        main(["send", game, '{"type": "EndGame", "result": "over"}'])
        return game

    game = await asyncio.get_running_loop().run_in_executor(None, drive)
    store = RedisEventStore.from_url(redis_server.url, prefix=prefix)
    try:
        report = audit(await store.read(game))
    finally:
        await store.close()
    assert report.ok and report.rolls_verified == 3


def test_bad_input_exits_non_zero_with_a_clear_message(cli_env: str, capsys) -> None:
    code, _, err = run(capsys, "new", "chess")
    assert code == 2 and "unknown ruleset 'chess'" in err
    code, _, err = run(capsys, "new", "counter", "--setup", "{not json")
    assert code == 2 and "--setup is not valid JSON" in err
    code, _, err = run(capsys, "send", "nosuchgame", '{"type": "Push"}')
    assert code == 2 and "game_not_found" in err and "nosuchgame" in err
    code, _, err = run(capsys, "send", "bad{id}", '{"type": "Push"}')
    assert code == 2 and "not allowed" in err


def test_revoke_refuses_the_credential_from_then_on(cli_env: str, capsys, redis_server) -> None:
    import asyncio

    from umpire.engine.roles import Role
    from umpire.events.redis_store import RedisEventStore
    from umpire.server import credentials
    from umpire.server.credentials import Unauthorized

    code, out, _ = run(capsys, "new", "counter", "--json")
    game = json.loads(out)["game_id"]

    async def issue() -> str:
        store = RedisEventStore.from_url(redis_server.url, prefix=cli_env)
        try:
            return await credentials.issue(store, game, Role.PLAYER)
        finally:
            await store.close()

    credential = asyncio.run(issue())
    assert run(capsys, "revoke", credential)[0] == 0
    code, _, err = run(capsys, "revoke", credential)
    assert code == 1 and "no such credential" in err

    async def verify() -> None:
        store = RedisEventStore.from_url(redis_server.url, prefix=cli_env)
        try:
            await credentials.verify(store, credential)
        finally:
            await store.close()

    with pytest.raises(Unauthorized):
        asyncio.run(verify())


def test_the_log_ends_with_the_receipt_of_its_head(cli_env: str, capsys) -> None:
    """docs/audit.md "Receipts": `umpire log` prints the head and each role's state hash,
    the same a player got in its `accepted` reply."""
    from umpire.engine.game import fold
    from umpire.engine.redaction import view_for
    from umpire.engine.roles import Role
    from umpire.events.receipt import receipt_state_hash

    code, out, _ = run(capsys, "new", "counter", "--setup", '{"target": 20}', "--json")
    game = json.loads(out)["game_id"]
    run(capsys, "send", game, '{"type": "Hide"}')
    code, out, _ = run(capsys, "log", game)
    assert code == 0

    async def expected() -> tuple[str, str]:
        store = RedisEventStore.from_url(os.environ["REDIS_URL"], prefix=cli_env)
        try:
            log = await store.read(game)
        finally:
            await store.close()
        folded = fold(log)
        assert folded is not None
        view = msgspec.to_builtins(
            view_for(ruleset_of(log[0]), folded.state, Role.PLAYER, revealed=False)
        )
        return log[-1].hash, receipt_state_hash(len(log), log[-1].hash, view)

    head_hash, state_hash = asyncio.run(expected())
    flat = " ".join(out.split())
    assert f"receipt head: seq 5, hash {head_hash}" in flat  # seq 2 binds the client seed
    assert f"state hash (player): {state_hash}" in flat
