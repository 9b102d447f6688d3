"""Logs recorded before the ruleset kit (engine/kit/) still fold and replay the same.

tests/data/golden/ holds one log per shipped ruleset, recorded on main before the rulesets
moved onto the kit (tests/support/golden_logs.py). Folding the stored events must reach
the stored state hash (games already in a store keep their state), and replaying the
stored commands with the same dice must append byte-identical events (every encoding and
citation string unchanged).
"""

from __future__ import annotations

import pytest

from engine.game import apply, codec_for
from engine.registry import get
from tests.support.golden_logs import encoded, load, send, start, state_digest

RULESETS = ["age_of_dogfights", "conflict_of_heroes", "down_in_flames", "downtown", "nightfighter"]


@pytest.mark.parametrize("name", RULESETS)
def test_recorded_log_folds_to_the_recorded_state_hash(name: str) -> None:
    data = load(name)
    ruleset = get(name)
    codec = codec_for(ruleset)
    game = start(ruleset, data["setup"])
    for tag, version, payload in data["events"]:
        game = apply(ruleset, game, codec.decode(tag, version, bytes.fromhex(payload)))
    assert state_digest(game) == data["state_hash"]


@pytest.mark.parametrize("name", RULESETS)
def test_recorded_commands_replay_to_byte_identical_events(name: str) -> None:
    data = load(name)
    ruleset = get(name)
    game = start(ruleset, data["setup"])
    events = []
    for command in data["commands"]:
        game, appended = send(ruleset, game, command)
        events += appended
    assert encoded(ruleset, events) == data["events"]
    assert state_digest(game) == data["state_hash"]
