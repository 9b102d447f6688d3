"""A misspelt setup field is refused by name, at any depth, and creates nothing
(engine/setup_fields.py). Before (red team, 2026-11-29), a ruleset whose setup type lets
msgspec drop unknown fields dropped a typo without a word and started the game from the
field's default: nightfighter's `{"visbility": "dark"}` made a game in clear weather, and
a Down in Flames scenario with `"pilot_qualty": "ace"` on an aircraft gave that pilot the
default quality, through the real gateway like every create."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tests.support.embedded_site import run_cli
from umpire.engine import registry, scenarios, setup_fields
from umpire.server.app import Running
from umpire.testing.support.drivers import driven_setup, rulesets
from umpire.testing.support.peer import Peer


async def _refused(gateway: Running, ws_url: str, create: dict[str, Any]) -> dict[str, Any]:
    store = gateway.gateway.store
    before = await store.games()
    peer = await Peer.open(ws_url)
    try:
        reply = await peer.request({"type": "create", **create})
    finally:
        await peer.close()
    assert reply["type"] == "error" and reply["code"] == "invalid_setup", reply
    assert await store.games() == before  # nothing was created
    return reply


@pytest.mark.parametrize("name", rulesets())
async def test_an_unknown_setup_field_is_refused_in_every_ruleset(
    gateway: Running, ws_url: str, name: str
) -> None:
    setup = {**driven_setup(name), "bogus_field": 1}
    reply = await _refused(gateway, ws_url, {"ruleset": name, "setup": setup})
    assert "unknown field `bogus_field`" in reply["message"], reply


async def test_a_typo_in_a_nightfighter_setup_is_named_with_the_fields_allowed(
    gateway: Running, ws_url: str
) -> None:
    reply = await _refused(
        gateway, ws_url, {"ruleset": "nightfighter", "setup": {"visbility": "dark"}}
    )
    assert "unknown field `visbility`" in reply["message"], reply
    assert "fields allowed at $:" in reply["message"] and "visibility" in reply["message"]


async def test_a_typo_inside_a_down_in_flames_aircraft_is_named_at_its_path(
    gateway: Running, ws_url: str
) -> None:
    ruleset = registry.get("down_in_flames")
    name = scenarios.scenarios(ruleset)[0].name
    aircraft = copy.deepcopy(scenarios.resolve(ruleset, {}, name)["aircraft"])
    aircraft[0]["pilot_qualty"] = "ace"
    reply = await _refused(
        gateway,
        ws_url,
        {"ruleset": "down_in_flames", "scenario": name, "setup": {"aircraft": aircraft}},
    )
    message = reply["message"]
    assert "unknown field `pilot_qualty` - at `$.aircraft[0]`" in message, reply
    assert "pilot_quality" in message  # the fields allowed there


def test_a_setup_file_that_gives_a_field_twice_is_refused(tmp_path: Path) -> None:
    """`umpire new --setup FILE.json` with a field given twice: refused naming it, no game
    (before: the second value was played, where another reader of the file takes the
    first)."""
    data_dir = tmp_path / "data"
    setup = tmp_path / "night.json"
    setup.write_text('{"visibility": "poor", "visibility": "good"}')
    code, out, err = run_cli(data_dir, "new", "nightfighter", "--setup", str(setup), COLUMNS="400")
    assert code == 2 and "Traceback" not in err, out + err
    assert "gives the field 'visibility' twice" in err and "night.json" in err, err
    code, out, err = run_cli(data_dir, "games")
    assert code == 0 and "nightfighter" not in out, out + err


def test_a_setup_type_is_described_once_however_many_games_it_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """msgspec's type description took ~1.4 ms of a worker's loop for every new Downtown
    game (a cProfile of 100 creations: the largest own-time entry); it is made once."""
    setup_fields._type_info.cache_clear()
    calls: list[Any] = []
    real = setup_fields.inspect.type_info

    def counted(t: Any) -> Any:
        calls.append(t)
        return real(t)

    monkeypatch.setattr(setup_fields.inspect, "type_info", counted)
    ruleset = registry.get("downtown")
    setup = driven_setup("downtown")
    for _ in range(3):
        assert setup_fields.unknown_field(ruleset.setup_type, setup) is None
    assert setup_fields.unknown_field(ruleset.setup_type, {**setup, "bogus": 1}) == ("bogus", "$")
    assert calls == [ruleset.setup_type]
