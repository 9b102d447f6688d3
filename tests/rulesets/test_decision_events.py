"""Every opponent decision event of every shipped ruleset derives from engine.decision.Decision
(issue #19 item 1): an event type that carries a rule, the dice and the candidates is a
Decision, so `rule`, `dice`, `candidates` and `explanation` mean the same everywhere."""

from __future__ import annotations

import msgspec
import pytest

from umpire.engine.decision import Decision
from umpire.engine.registry import get
from umpire.engine.rulesets.nightfighter.campaign import CampaignRolled, CampaignWeekEnded
from umpire.engine.rulesets.nightfighter.serrate_messages import CounterRevealed, SerrateSearched

RULESETS = ["age_of_dogfights", "conflict_of_heroes", "down_in_flames", "downtown", "nightfighter"]
DECISION_FIELDS = {"rule", "dice", "candidates"}


@pytest.mark.parametrize("name", RULESETS)
def test_every_event_with_rule_dice_and_candidates_is_a_decision(name: str) -> None:
    undeclared = [
        t.__name__
        for t in get(name).event_types
        if set(t.__struct_fields__) >= DECISION_FIELDS and not issubclass(t, Decision)
    ]
    assert undeclared == [], f"{name}: decision events not derived from Decision: {undeclared}"


@pytest.mark.parametrize(
    ("event", "own"),
    [
        (CounterRevealed(rule="r", counter="NF01", drawn="NF02", ju88=False), "counter"),
        (SerrateSearched(rule="r", fighter="F1", focused=True), "fighter"),
        (CampaignRolled(rule="r", step="fly"), "step"),
        (
            CampaignWeekEnded(
                rule="r", week=1, score=0, aircraft="Me110E-4", out_until=0, wounded_until=0,
                idle_weeks=0,
            ),
            "week",
        ),
    ],
)  # fmt: skip
def test_nightfighter_decisions_kept_their_encoding(event: msgspec.Struct, own: str) -> None:
    """Nightfighter's four already listed the Decision fields first, with its defaults, so
    deriving from Decision left their encoding (and every stored log's bytes) as it was."""
    keys = list(msgspec.msgpack.decode(msgspec.msgpack.encode(event)))
    assert keys[:6] == ["type", "rule", "dice", "candidates", "explanation", own], keys
    assert getattr(type(event), "version", 1) == 1
