"""Fresh cases worked by hand from 001_989a2f850da69b66.txt (rules session 9): the ends of
the altitude stands for the Approach destination, and "remaining" player fighters in the
retreat's climb, each with its dice stated and worked from the seed's text."""

from __future__ import annotations

import pytest

from tests.rulesets.age_of_dogfights.setups import (
    arrange,
    combat_state,
    of_type,
    run_until,
)
from umpire.engine.rulesets.age_of_dogfights.altitude import destination_level
from umpire.engine.rulesets.age_of_dogfights.events import BotMoved
from umpire.engine.rulesets.age_of_dogfights.retreat import fly_retreat
from umpire.engine.rulesets.age_of_dogfights.terms import Attitude


@pytest.mark.parametrize(
    ("level", "attitude", "destination"),
    [(1, "nose-down", 1), (6, "nose-up", 6), (2, "nose-down", 1), (5, "nose-up", 6)],
)
def test_approach_destination_stays_on_the_altitude_stands(
    level: int, attitude: str, destination: int
) -> None:
    """Approach Maneuver: Altitude: "If it is tilted downwards, the destination point will be
    one level below. If ... nose-up ... one level above it." P1 nose-down at L1 has no level
    below: the destination stays at L1; nose-up at L6 (the stands' top) stays at L6
    (ledger "ends of the board"); from L2 and L5 the level below and above are L1 and L6."""
    s = combat_state({"P1": ("se5a", (7, 6), "E", level)}, {"B1": ("se5a", (12, 6), "W", 3)})
    s = arrange(s, "P1", attitude=attitude)
    assert destination_level(s, s.plane("P1")) == destination


def test_a_lost_player_fighter_is_not_one_of_the_remaining() -> None:
    """General Rules: "If more than half of the remaining player fighter planes have a
    service ceiling lower than the service ceiling of a retreating bot, the bot must climb
    to its maximum altitude level". SPAD bot (ceiling L6) against two Nieuport 17s (L4)
    and an SE5a (L6); one Nieuport is lost. Remaining: one Nieuport (lower) and the SE5a:
    1 of 2 is not more than half, so the bot descends. Dice: green die 1. With all three
    remaining, 2 of 3 are lower and it would climb."""
    players = {"P1": ("nieuport_17", (2, 2), "E", 3), "P2": ("se5a", (2, 10), "E", 3),
               "P3": ("nieuport_17", (2, 6), "E", 3)}  # fmt: skip
    s = combat_state(players, {"B1": ("spad_xiii", (8, 6), "E", 3)})
    s = arrange(s, "B1", retreating=True)
    lost = arrange(s, "P3", out="lost")
    events, _ = run_until(lost, lambda ctx: fly_retreat(ctx, "B1"), [[1], [1]])
    (moved,) = of_type(events, BotMoved)
    assert moved.attitude is Attitude.NOSE_DOWN and "descends" in moved.explanation
    events, _ = run_until(s, lambda ctx: fly_retreat(ctx, "B1"), [[1], [1]])
    (moved,) = of_type(events, BotMoved)
    assert "climbs" in moved.explanation
