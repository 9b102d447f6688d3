"""The terminal says the rules in words, as the browser table does: a key the rules wrote
into their own text (Nightfighter's corkscrew "loses tally, ai_fix", Downtown's
`in_the_air`) and an event's type ("downtown.SamSetUp") are shown in words by `umpire
watch`, `play`, `log`, `send`, `explain` and `replay` (events/rules_words.py), and `watch` and
`play` cite the rulebook by its titles as `log` does (events/citation_words.py). The
events keep their text, and the machine-readable outputs (`log --json`, `explain
--json`) the exact types. Driven through a real gateway and a real store."""

from __future__ import annotations

import asyncio
import io
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest

from umpire.clients import UmpireClient, cli
from umpire.events.types import DiceRolled, Owner, Roller
from umpire.events.wire import EventFrame
from umpire.server import render, replay_command, store_commands
from umpire.server.app import Running, running_gateway
from umpire.server.cli import main
from umpire.server.config import Settings
from umpire.server.embedded import EmbeddedRedis

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
DRV_AIR = {"type": "DeployDrvAir", "early_warning": "good", "placement": "in_the_air"}
# One bomber in column 04 found by the fighter's AI radar, then tallied: a corkscrew
# loses both (S17.0). The opponent's dice are entered (the game allows it), so the
# same corkscrew comes every run.
NIGHT_SETUP = {
    "bombers": [{"id": "B1", "turn": 1}],
    "radars": [{"name": "W", "search_value": 1}],
    "fighters": [{"id": "F1", "hex": "0405", "facing": 0}],
    "pace": "every_phase",
}
NIGHT_LINES = [  # Nightfighter v9: the game opens at turn 1's Bomber Movement
    '{"type": "MoveBombers"}',
    '{"type": "EndPhase"}',
    '{"type": "EndPhase"}',
    'SearchAI fighter=F1 hex=0403 "dice_faces=[[4,4],[1]]"',
    '{"type": "EndPhase"}',
    '{"type": "EndPhase"}',
    '{"type": "AttemptTally", "fighter": "F1", "hex": "0405", "dice": 3, '
    '"dice_faces": [[6, 1, 1]]}',
    '{"type": "EndPhase"}',
    '{"type": "Corkscrew", "fighter": "F1", "hex": "0405"}',
]


@pytest.fixture
async def gateway(
    redis_server: EmbeddedRedis,
    prefix: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[Running]:
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("UMPIRE_PREFIX", prefix)
    monkeypatch.setenv("UMPIRE_DATA_DIR", str(tmp_path))  # `play` keeps its receipts there
    for console in (cli.console, store_commands.console, replay_command.console):
        monkeypatch.setattr(console, "width", 5000)  # no line wraps
    async with running_gateway(Settings(port=0, prefix=prefix), redis_server.url) as running:
        yield running


async def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    code = await asyncio.get_running_loop().run_in_executor(None, main, list(argv))
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def said_by_the_rules(out: str) -> list[str]:
    """The printed lines but the commands' (their fields stay as typed)."""
    return [line for line in out.splitlines() if " command " not in line]


async def test_watch_and_log_say_downtowns_keys_and_types_in_words(
    gateway: Running, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"ws://127.0.0.1:{gateway.port}/ws"
    async with UmpireClient(url) as client:
        created = await client.create("downtown", scenario="D4")
        for command in ({"type": "DeployGroundUnits"}, {"type": "CheckDrvRadar"}, DRV_AIR):
            accepted = await client.send(created.game_id, command)
    head = accepted.seqs[-1]
    watched = await run(capsys, "watch", "--url", url, "--credential",
                        created.player_credential, "--limit", str(head))  # fmt: skip
    assert "placement=in_the_air" in watched  # the command, as typed
    assert "in the air" in watched
    assert "SAM set up: " in watched and "DRV flight generated: " in watched
    assert "downtown." not in watched
    # Citations by the rulebook's titles, as `umpire log` and the table say them.
    assert "— Downtown solo rules 3.1.2 (SAM Setup Procedure)" in watched
    assert "000_842c81c5c58bc2f6.txt" not in watched
    rules = said_by_the_rules(watched)
    assert not [k for line in rules for k in SNAKE.findall(line)], rules
    game = created.game_id
    logged = await run(capsys, "log", game)
    assert "│ SAM set up " in logged and "│ Dice rolled " in logged and "│ Game created " in logged
    assert "in the air" in logged and "downtown." not in logged and "DiceRolled" not in logged
    # The JSON lines keep the exact types for tools.
    types = {json.loads(line)["type"] for line in (await run(capsys, "log", game, "--json"))
             .splitlines()}  # fmt: skip
    assert {"downtown.SamSetUp", "DiceRolled", "GameCreated"} <= types
    # `replay --at` says the view as `umpire state` does, in the ruleset's words, not JSON.
    replayed = await run(capsys, "replay", game, "--at", str(head))
    assert "  AAA concentrations:\n" in replayed and "{" not in replayed


async def test_play_and_watch_say_a_nightfighter_corkscrew_in_words(
    gateway: Running, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"ws://127.0.0.1:{gateway.port}/ws"
    async with UmpireClient(url) as client:
        created = await client.create("nightfighter", NIGHT_SETUP, opponent_manual_dice=True)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(NIGHT_LINES) + "\n"))
    played = await run(capsys, "play", "--url", url, "--credential", created.player_credential)
    assert "refused" not in played, played
    assert "Corkscrewed: B1-1 corkscrews: loses tally, ai fix; reverts to low" in played
    assert "AI searched: " in played and "nightfighter." not in played
    assert "ai_fix" not in played
    assert "— Nightfighter solitaire rules S17.0" in played and ".txt" not in played
    head = int(re.findall(r"accepted: seqs \d+\.\.(\d+)", played)[-1])
    watched = await run(capsys, "watch", "--url", url, "--credential",
                        created.spectator_credential, "--limit", str(head))  # fmt: skip
    assert "Corkscrewed: B1-1 corkscrews: loses tally, ai fix; reverts to low" in watched
    assert "Marker placed: " in watched and "Phase began: Fighter Movement phase" in watched
    rules = said_by_the_rules(watched)
    assert not [k for line in rules for k in SNAKE.findall(line)], rules
    # `explain` says it so too; its JSON keeps the event as decided.
    seq = next(int(line.split()[0]) for line in watched.splitlines() if "Corkscrewed" in line)
    explained = await run(capsys, "explain", created.game_id, str(seq))
    assert explained.startswith(f"Event {seq}: Corkscrewed\n")
    assert "loses tally, ai fix" in explained
    exact = json.loads(await run(capsys, "explain", created.game_id, str(seq), "--json"))
    assert exact["event_type"] == "nightfighter.Corkscrewed" and "ai_fix" in exact["summary"]
    # A decision's details in words, never JSON ("enter turn 1", not "enter_turn": 1).
    due = next(int(line.split()[0]) for line in watched.splitlines() if "Counters due" in line)
    details = (await run(capsys, "explain", created.game_id, str(due))).split("Details:")[1]
    assert "  - counters: id B1-1, enter turn 1, enter col 4; id B1-2, " in details
    assert "{" not in details and '"' not in details


def test_watch_leaves_a_commands_empty_fields_out_as_log_does() -> None:
    # Fails on the previous commit: "player command UnitAction action=fire, ap=2, caps=0,
    # cards=[], moves=[], note=, units=[P-RIFLE-1]".
    command = {"type": "UnitAction", "units": ["P-RIFLE-1"], "action": "fire", "ap": 2,
               "caps": 0, "cards": [], "moves": [], "note": ""}  # fmt: skip
    frame = EventFrame(
        game_id="g1", seq=20, event_type="CommandRecorded", version=1, command_id="c1",
        payload={"type": "CommandRecorded", "role": "player", "command_type": "UnitAction",
                 "command": command},
        recorded_at="", prev_hash="", hash="",
    )  # fmt: skip
    assert cli.describe_frame(frame, ()) == (
        "player command UnitAction units=[P-RIFLE-1], action=fire, ap=2, caps=0"
    )


def test_watch_says_a_roll_as_log_does() -> None:
    # Fails on the previous commit: watch left out whose roll it was ("· the opponent's
    # roll", which log says) and put a hidden roll's purpose after "[hidden]".
    rolls = [
        DiceRolled(roll=3, kind="2d6", sides=(6, 6), faces=(2, 5), total=7, purpose="to_hit",
                   rule="r 1.1", owner=Owner.OPPONENT),
        DiceRolled(roll=4, kind="d6", sides=(6,), faces=(4,), total=4, purpose="morale",
                   rule="r 2", by=Roller.PLAYER, owner=Owner.PLAYER),
        DiceRolled(roll=5, kind="d10", sides=(10,), faces=(), total=0, purpose="aaa_pool",
                   rule="r 3", hidden=True),
    ]  # fmt: skip
    for event in rolls:
        frame = EventFrame(
            game_id="g1", seq=9, event_type="DiceRolled", version=1, command_id="c1",
            payload=msgspec.to_builtins(event), recorded_at="", prev_hash="", hash="",
        )  # fmt: skip
        assert cli.describe_frame(frame, ()) == render.describe(event), event
    assert render.describe(rolls[0]).endswith("· the opponent's roll")
