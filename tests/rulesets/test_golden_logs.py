"""Logs recorded before the ruleset kit (engine/kit/) still fold and replay the same.

tests/data/golden/ holds one log per shipped ruleset, recorded on main before the rulesets
moved onto the kit (tests/support/golden_logs.py). Folding the stored events must reach
the stored state hash (games already in a store keep their state), and replaying the
stored commands with the same dice must append byte-identical events (every encoding and
citation string unchanged). Every shipped scenario's shorter log (kept as digests) must
replay to the same events and state.

tests/data/golden/old-format/ keeps the logs recorded before an event type's version was
bumped (Down in Flames' five decision events moved onto engine.decision.Decision in
version 2, which orders their fields differently): they must still fold to their state
hash, and their commands must replay to the events they hold, read as the current version;
only the bumped types may differ in bytes.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.golden_logs import (
    digest,
    encoded,
    load,
    load_old_format,
    load_scenarios,
    send,
    start,
    state_digest,
)
from umpire.engine.game import apply, codec_for
from umpire.engine.registry import get
from umpire.engine.scenarios import scenario
from umpire.events.codec import canonical_json

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


OLD_FORMAT = ["down_in_flames"]


@pytest.mark.parametrize("name", OLD_FORMAT)
def test_old_format_log_folds_and_replays_as_the_current_versions(name: str) -> None:
    data = load_old_format(name)
    ruleset = get(name)
    codec = codec_for(ruleset)
    stored = [codec.decode(tag, v, bytes.fromhex(payload)) for tag, v, payload in data["events"]]
    game = start(ruleset, data["setup"])
    for event in stored:
        game = apply(ruleset, game, event)
    assert state_digest(game) == data["state_hash"]
    game = start(ruleset, data["setup"])
    events = []
    for command in data["commands"]:
        game, appended = send(ruleset, game, command)
        events += appended
    # The same decisions, read as the current versions (compared as the audit compares).
    assert [canonical_json(e) for e in events] == [canonical_json(e) for e in stored]
    bumped = {t.__struct_config__.tag for t in ruleset.event_types if hasattr(t, "old_versions")}
    now = encoded(ruleset, events)
    moved = {old[0] for old, new in zip(data["events"], now, strict=True) if old != new}
    assert moved and moved <= bumped, moved - bumped
    assert all(new[1] > old[1] for old, new in zip(data["events"], now, strict=True) if old != new)


SCENARIO_LOGS = load_scenarios()


@pytest.mark.parametrize(
    "log", SCENARIO_LOGS, ids=[f"{s['ruleset']}-{s['scenario']}" for s in SCENARIO_LOGS]
)
def test_recorded_scenario_commands_replay_to_the_recorded_events_and_state(
    log: dict[str, Any],
) -> None:
    ruleset = get(log["ruleset"])
    game = start(ruleset, dict(scenario(ruleset, log["scenario"]).setup))
    events = []
    for command in log["commands"]:
        game, appended = send(ruleset, game, command)
        events += appended
    assert digest(ruleset, events) == log["events_sha256"]
    assert state_digest(game) == log["state_hash"]
