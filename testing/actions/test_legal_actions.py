"""The legal-actions contract: who gets actions, what an unlisted command meets, what the
frames and the command line carry, and that every listed schema describes its command."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from umpire.clients import UmpireError as ErrorFrame
from umpire.engine import registry
from umpire.engine.actions import legal_actions
from umpire.engine.errors import CommandNotAllowed, InvalidCommand, InvalidSetup
from umpire.engine.game import parse_setup
from umpire.engine.handling import command_types, parse_command
from umpire.engine.roles import Role
from umpire.events.redis_store import RedisEventStore
from umpire.server.cli import main
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.dice import seed_source
from umpire.testing.support.drivers import rulesets, start_setup
from umpire.testing.support.legal_play import gateway_client
from umpire.testing.support.schema_sampler import sample

RULESETS = rulesets()


def _start(name: str) -> Any:
    ruleset = registry.get(name)
    return ruleset, ruleset.initial_state(parse_setup(ruleset, start_setup(name)))


@pytest.mark.parametrize("name", RULESETS)
def test_a_spectator_and_an_ended_game_get_no_actions(name: str) -> None:
    ruleset, state = _start(name)
    assert legal_actions(ruleset, state, Role.SPECTATOR, ended=False) == []
    assert legal_actions(ruleset, state, Role.PLAYER, ended=True) == []
    player = [a.type for a in legal_actions(ruleset, state, Role.PLAYER, ended=False)]
    assert player[-2:] == ["RollDice", "EndGame"] and len(player) > 2


@pytest.mark.parametrize("name", RULESETS)
def test_every_listed_schema_describes_its_command(name: str) -> None:
    """Values drawn from each action's schema alone parse as that command; every action
    names its rule in its description."""
    ruleset, state = _start(name)
    rng = random.Random(7)
    for action in legal_actions(ruleset, state, Role.PLAYER, ended=False):
        assert action.type in command_types(ruleset)
        assert action.rule in action.description
        for _ in range(20):
            command = sample(action.schema, rng)
            assert command["type"] == action.type
            parse_command(ruleset, command)


async def test_an_unlisted_command_is_refused_and_writes_nothing(
    request: pytest.FixtureRequest,
    redis_server: EmbeddedRedis,
    store: RedisEventStore,
    prefix: str,
) -> None:
    """On the player's turn (3.0) TakeAiTurn is not listed: refused with the type, the
    allowed types and the rules' own reason; the log is unchanged. Fails without the
    refusal: the old engine passed the command to the ruleset's RuleError."""
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        created = await client.create("conflict_of_heroes", {})
        view = await client.view(created.game_id)
        listed = [a.type for a in view.actions]
        assert "TakeAiTurn" not in listed and "Pass" in listed
        version = await store.version(created.game_id)
        with pytest.raises(ErrorFrame) as info:
            await client.send(created.game_id, {"type": "TakeAiTurn"})
        assert info.value.code == CommandNotAllowed.code
        assert info.value.details["allowed"] == listed
        assert "TakeAiTurn is not allowed now" in info.value.message
        assert "it is the player's turn" in info.value.message  # the rules' reason
        assert await store.version(created.game_id) == version
        # The listed command is accepted, and then TakeAiTurn is listed.
        await client.send(created.game_id, {"type": "Pass"})
        after = await client.view(created.game_id)
        assert "TakeAiTurn" in [a.type for a in after.actions]


async def test_frames_carry_the_role_s_actions(
    request: pytest.FixtureRequest, redis_server: EmbeddedRedis, prefix: str
) -> None:
    """A player's view lists actions; a spectator's none; a past `at_seq` view none."""
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        created = await client.create("counter", {"target": 30})
        await client.send(created.game_id, {"type": "Push"})
        mine = await client.view(created.game_id)
        assert [a.type for a in mine.actions] == ["Add", "Push", "Hide", "RollDice", "EndGame"]
        add = mine.actions[0].schema["properties"]["amount"]
        assert add["maximum"] == min(6, 30 - mine.state["total"])
        past = await client.request({"type": "view", "game_id": created.game_id, "at_seq": 1})
        assert past.actions == []
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as watcher:
        await watcher.auth(created.spectator_credential)
        seen = await watcher.view(created.game_id)
        assert seen.role == "spectator" and seen.actions == []


def test_a_missing_type_and_a_bad_enum_say_what_is_allowed() -> None:
    downtown = registry.get("downtown")
    with pytest.raises(InvalidCommand) as info:
        parse_command(downtown, {"dice": "d6"})
    assert "needs a 'type' field" in info.value.message
    assert "RollDice" in info.value.message and "DeployDrvAir" in info.value.message
    with pytest.raises(InvalidCommand) as info:
        parse_command(
            downtown, {"type": "DeployDrvAir", "early_warning": "x", "placement": "in_the_air"}
        )
    # The field and its values by their words: the player reads the message as it is.
    assert "early warning: 'x' is not one of its values" in info.value.message
    assert "allowed: one of poor, average, good" in info.value.message
    with pytest.raises(InvalidCommand) as info:
        parse_command(downtown, {"type": "MoveUsFlight", "flight_id": "S1", "hex": "0101",
                                 "altitude": "low", "facing": 9})  # fmt: skip
    assert "allowed: 0 to 5" in info.value.message


def test_a_bad_setup_enum_says_what_is_allowed() -> None:
    with pytest.raises(InvalidSetup) as info:
        parse_setup(registry.get("nightfighter"), {"visibility": "foggy"})
    assert "allowed: one of 'good', 'moderate', 'poor'" in info.value.message


def test_umpire_actions_prints_the_player_s_actions(
    monkeypatch: pytest.MonkeyPatch,
    redis_server: EmbeddedRedis,
    prefix: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("UMPIRE_PREFIX", prefix)
    monkeypatch.setenv("UMPIRE_EXTRA_RULESETS", "umpire_counter:RULESET")
    assert main(["new", "counter", "--setup", '{"target": 3}', "--json"]) == 0
    game = msgspec.json.decode(capsys.readouterr().out)["game_id"]
    assert main(["actions", game]) == 0
    out = capsys.readouterr().out
    assert "Add" in out and "amount: integer 1..3" in out and "test-counter R1" in out
    assert main(["actions", game, "--role", "spectator"]) == 0
    assert "no actions" in capsys.readouterr().out
    assert main(["actions", game, "--json"]) == 0
    listed = msgspec.json.decode(capsys.readouterr().out)
    assert [a["type"] for a in listed] == ["Add", "Push", "Hide", "RollDice", "EndGame"]
