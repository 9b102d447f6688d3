"""Terminal polish (issue 18, item 9), each found on main and fixed:

- d100 rolls showed no faces and hidden rolls read `d10 = 0`: rich took "[tens=4 units=5]"
  and "[hidden]" for markup and dropped them;
- `log` repeated the event type in its "what" column;
- events without an explanation (nightfighter's PhaseBegan) printed as a Python dict;
- `replay --diff` printed a whole list to show one new element (views hold tuples, which
  the diff compared as single values);
- raw tracebacks from `watch`/`play` on a malformed or revoked credential and a refused
  connection, and from `umpire log --json | head` (BrokenPipeError).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import msgspec
import pytest

from tests.support.processes import REPO
from umpire.clients import UmpireClient
from umpire.clients.cli import describe_frame
from umpire.engine.replay import diff
from umpire.events.redis_store import RedisEventStore
from umpire.events.wire import EventFrame
from umpire.server import credentials, replay_command, store_commands
from umpire.server.app import running_gateway
from umpire.server.cli import main
from umpire.server.config import Settings
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games

DRV_AIR = '{"type": "DeployDrvAir", "early_warning": "good", "placement": "in_the_air"}'


@pytest.fixture
def cli_env(monkeypatch: pytest.MonkeyPatch, redis_server: EmbeddedRedis, prefix: str) -> str:
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("UMPIRE_PREFIX", prefix)
    monkeypatch.setenv("UMPIRE_EXTRA_RULESETS", "umpire_counter:RULESET")
    monkeypatch.setattr(store_commands.console, "width", 5000)
    monkeypatch.setattr(replay_command.console, "width", 5000)
    return prefix


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def frame_of(event_type: str, payload: dict[str, object]) -> EventFrame:
    """An event frame as the gateway sends it."""
    return EventFrame(game_id="g", seq=4, event_type=event_type, version=1, payload=payload,
                      command_id="c", recorded_at="", prev_hash="", hash="")  # fmt: skip


def _downtown(capsys: pytest.CaptureFixture[str]) -> tuple[str, list[str]]:
    game = json.loads(run(capsys, "new", "downtown", "--json")[1])["game_id"]
    outputs = [run(capsys, "send", game, command)[1]
               for command in ('{"type": "DeployGroundUnits"}', '{"type": "CheckDrvRadar"}',
                               DRV_AIR)]  # fmt: skip
    return game, outputs


def test_rolls_show_their_faces_and_hidden_rolls_say_hidden(
    cli_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _, (ground, _, air) = _downtown(capsys)
    assert "d100 [tens=" in air and "units=" in air
    lines = ground.splitlines()
    hidden = [line for line in lines if "AAA Generation Table" in line and "roll " in line]
    assert hidden and all("[hidden]" in line for line in hidden if "roll " in line)
    assert "= 0 (server)" not in ground
    # The client side (`umpire watch` and `play`) too.
    frame = frame_of("DiceRolled", {
        "roll": 0, "kind": "d10", "sides": [10], "faces": [], "total": 0, "purpose": "AAA",
        "rule": "r", "by": "server", "labels": [], "hidden": True})  # fmt: skip
    assert "[hidden]" in describe_frame(frame) and "= 0" not in describe_frame(frame)
    shown = frame_of("DiceRolled", {
        "roll": 1, "kind": "d100", "sides": [10, 10], "faces": [4, 5], "total": 45,
        "purpose": "profile", "rule": "r", "by": "server",
        "labels": ["tens", "units"]})  # fmt: skip
    assert "d100 [tens=4 units=5] = 45" in describe_frame(shown)


def test_log_names_the_type_once_and_prints_no_dicts(
    cli_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    game, _ = _downtown(capsys)
    _, log, _ = run(capsys, "log", game)
    phases = [line for line in log.splitlines() if "│ Phase began " in line]
    assert phases and all(line.count("Phase began") == 1 for line in phases)
    night = json.loads(run(capsys, "new", "nightfighter", "--json")[1])["game_id"]
    _, sent, _ = run(capsys, "send", night, '{"type": "MoveBombers"}')  # v9's first step
    began = next(line for line in sent.splitlines() if "Phase began" in line)
    # Said as the rules name the phase (Nightfighter v9), not as a field list.
    assert "Fighter Movement phase" in began and "{" not in began and "dice" not in began
    frame = frame_of(
        "nightfighter.PhaseBegan", {"type": "nightfighter.PhaseBegan", "phase": "tally"}
    )
    assert describe_frame(frame) == "Phase began (phase: tally)"


def test_a_payload_that_is_no_object_is_said_not_raised() -> None:
    # `umpire watch` raised AttributeError ('list' has no 'get') on a frame whose payload
    # was not an object: a line, not a traceback, whatever a gateway sends.
    odd = frame_of("nightfighter.PhaseBegan", {})
    for payload in (["\x1b[2J", 3], "text", 7):
        said = describe_frame(msgspec.structs.replace(odd, payload=payload))
        assert said.startswith("Phase began (") and "\x1b" not in said


def test_replay_diff_shows_one_new_element_as_one_change(
    cli_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    game, _ = _downtown(capsys)
    _, log, _ = run(capsys, "log", game, "--json")
    seqs = [json.loads(line) for line in log.splitlines()]
    before = max(r["seq"] for r in seqs if r["type"] == "CommandRecorded")  # DeployDrvAir
    _, out, _ = run(capsys, "replay", game, "--diff", str(before), str(seqs[-1]["seq"]), "--json")
    paths = [c["path"] for c in json.loads(out)]
    assert "drv" not in paths and "drv[0]" in paths
    # One flight inserted at the front of a list is one change, not one per index.
    old = {"drv": ({"id": "M1"}, {"id": "M2"})}
    new = {"drv": ({"id": "M0"}, {"id": "M1"}, {"id": "M2"})}
    assert [c.path for c in diff(old, new)] == ["drv[0]"]
    moved = {"drv": ({"id": "M1", "hex": "0102"}, {"id": "M2"})}
    assert [(c.path, c.after) for c in diff(old, moved)] == [("drv[0].hex", "0102")]


async def test_credentials_and_connections_fail_in_one_line(
    redis_server: EmbeddedRedis, prefix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(port=0, prefix=prefix)
    async with running_gateway(settings, redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        async with UmpireClient(url) as client:
            created = await client.create("counter", {"target": 100})
        store = RedisEventStore.from_url(redis_server.url, prefix=prefix)
        try:
            await credentials.revoke(store, created.player_credential)
        finally:
            await store.close()
        loop = asyncio.get_running_loop()
        cases = [
            (["watch", "--credential", "not a credential", "--url", url], "unauthorized"),
            (["watch", "--credential", created.player_credential, "--url", url], "unauthorized"),
            (["play", "--credential", created.player_credential, "--url", url], "unauthorized"),
            (["watch", "--credential", "x.y", "--url", "ws://127.0.0.1:1/ws"], "nothing answers"),
        ]
        for argv, said in cases:
            capsys.readouterr()
            code = await loop.run_in_executor(None, main, argv)
            err = " ".join(capsys.readouterr().err.split())
            assert code == 2 and said in err and "Traceback" not in err, (argv, err)


async def test_log_json_into_head_stops_quietly(
    redis_server: EmbeddedRedis, prefix: str, games: Games
) -> None:
    created = await games.create("counter", {"target": 100_000})
    for n in range(400):  # well over a pipe buffer of output
        await games.handle(created.game_id, f"c{n}", {"type": "Push"})
    env = {**os.environ, "PYTHONPATH": str(REPO), "REDIS_URL": redis_server.url,
           "UMPIRE_PREFIX": prefix,
           "UMPIRE_EXTRA_RULESETS": "umpire_counter:RULESET"}  # fmt: skip
    shell = f"{sys.executable} -m umpire.server.cli log {created.game_id} --json | head -1"
    done = await asyncio.to_thread(
        subprocess.run, ["bash", "-c", shell], capture_output=True, text=True, env=env,
        cwd=REPO, timeout=120,
    )  # fmt: skip
    assert json.loads(done.stdout)["seq"] == 1
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
