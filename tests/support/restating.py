"""A report that restates the game as umpire holds it changes nothing (issue 41 item 8):
its type's listed schema leaves it out, and the rules refuse it `nothing_to_do` with
nothing written. One check for every ruleset's tests of it."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from umpire.engine.actions import legal_actions
from umpire.engine.errors import NothingToDo
from umpire.engine.registry import get
from umpire.engine.roles import Role
from umpire.server.games import Games
from umpire.testing.support.schema_sampler import accepts


async def listed_schema(games: Games, gid: str, kind: str) -> dict[str, Any] | None:
    """The schema of `kind` as it is listed to the player now (JSON values), or None."""
    _, game = await games.load(gid)
    ruleset = get(game.meta.ruleset)
    for action in legal_actions(ruleset, game.state, Role.PLAYER, ended=False, game=game):
        if action.type == kind:
            schema: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(action.schema))
            return schema
    return None


async def refused_as_nothing_to_do(
    games: Games, gid: str, command_id: str, command: dict[str, Any]
) -> NothingToDo:
    """`command` is outside its type's listed schema (or the type is not listed), and is
    refused `nothing_to_do` with the log left as it was; the refusal, to read its words."""
    schema = await listed_schema(games, gid, command["type"])
    assert schema is None or not accepts(schema, command), f"listed: {command} in {schema}"
    version = await games.store.version(gid)
    with pytest.raises(NothingToDo) as info:
        await games.handle(gid, command_id, command)
    assert info.value.code == "nothing_to_do"
    assert await games.store.version(gid) == version
    return info.value
