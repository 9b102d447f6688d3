"""Firing: the Long Burst decision, ammunition, and firing whenever a move ends in position.

001_989a2f850da69b66.txt Long Burst: "If the firing position permits a long burst, roll a
standard die ... 1-3 = short burst | 4-6 = long burst. If the bot has less than half of its
ammunition left for the machine guns that are firing: 1-4 = short burst | 5-6 = long burst".
Base game (placeholder): the chart row says whether a long burst is permitted; a short
burst uses `short_burst_ammo`, a long one `long_burst_ammo` (model.py). The hits are the
base game's business: the player resolves them and reports the results.
"""

from __future__ import annotations

from itertools import groupby

from umpire.engine.decision import Candidate
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.choice import target_tie
from umpire.engine.rulesets.age_of_dogfights.events import BurstChosen
from umpire.engine.rulesets.age_of_dogfights.exposure import Pose
from umpire.engine.rulesets.age_of_dogfights.firing import Shot, shots
from umpire.engine.rulesets.age_of_dogfights.state import is_mission
from umpire.engine.rulesets.age_of_dogfights.tables.seed_tables import (
    LONG_BURST,
    LONG_BURST_LOW_AMMO,
)
from umpire.engine.rulesets.age_of_dogfights.terms import Gun
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn


def fire(turn: AgeOfDogfightsTurn, bot_id: str, shot: Shot) -> None:
    """Long Burst: choose the burst for `shot` and use the ammunition."""
    bot = turn.state.plane(bot_id)
    kind = turn.state.kind_of(bot)
    model = turn.state.model
    ammo = bot.ammo_nose if shot.gun is Gun.NOSE else bot.ammo_dorsal
    rule = c.LONG_BURST
    if shot.long_burst:
        low = ammo * 2 < kind.ammo
        table = LONG_BURST_LOW_AMMO if low else LONG_BURST
        burst = turn.table(bot.id, table, purpose=f"burst at {shot.target}")
        rule = table.citation
        why = "less than half ammunition left" if low else "the position permits a long burst"
    else:
        burst = "short"
        why = "the position does not permit a long burst"
    used = min(ammo, model.long_burst_ammo if burst == "long" else model.short_burst_ammo)
    turn.emit(
        BurstChosen(
            aircraft=bot.id,
            rule=rule,
            candidates=(
                Candidate(option="short", chosen=burst == "short", reason=why),
                Candidate(option="long", chosen=burst == "long", reason=why),
            ),
            explanation=f"fires a {burst} burst with the {shot.gun.value} guns at "
            f"{shot.target} (column {shot.column.value}, range {shot.range}); {why}",
            target=shot.target,
            gun=shot.gun,
            column=shot.column,
            burst=burst,
            ammo_used=used,
            ammo_left=ammo - used,
        )
    )


def fire_if_in_position(turn: AgeOfDogfightsTurn, bot_id: str) -> None:
    """A bot that ends any move in a firing position fires (base game: an aircraft in a
    firing position may fire; not firing would be illogical, cardinal rule). The target is
    chosen by the Step II priorities."""

    bot = turn.state.plane(bot_id)
    if bot.out:
        return
    state = turn.state
    found = shots(state, bot, Pose(position=bot.position, heading=bot.heading, level=bot.level))
    if not found:
        return

    def key(s: Shot) -> tuple[str, bool, bool]:
        t = state.plane(s.target)
        return (s.column.value, not is_mission(state, t), not t.damaged)

    found.sort(key=lambda s: (*key(s), state.plane(s.target).number))
    first_group = list(next(groupby(found, key=key))[1])
    index = 0
    if len(first_group) > 1:
        index = target_tie(turn, bot.id, [state.plane(s.target) for s in first_group])
    fire(turn, bot_id, first_group[index])
