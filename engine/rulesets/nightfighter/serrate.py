"""SCENARIO 7: Serrate searches, the cup of 2 Ju88 among 28 counters, and focused Serrate.

In each radar search phase the Mosquito may use Serrate either for a general search of
every bomber counter in its wide radar arc (any range; each revealed on a 5 or 6) or for
a focused search of one revealed Ju88 counter in that arc, which narrows its position as
a search value one radar (setup radar of kind `serrate`) would, with the extra -1 when
the other revealed Ju88 or any unrevealed bomber counter is within four hexes.
A revealed counter draws from the cup: not a Ju88, both are removed; a Ju88 replaces the
bomber counter.
"""

from __future__ import annotations

from umpire.engine.dice import d6, draw
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.nightfighter.geometry import distance, in_wide_arc
from umpire.engine.rulesets.nightfighter.labels import LABELS
from umpire.engine.rulesets.nightfighter.radar_search import resolve
from umpire.engine.rulesets.nightfighter.serrate_messages import (
    JU88,
    RULE,
    CounterRevealed,
    SerrateSearched,
)

# The commands are named as serrate.X by decide.py and actions.py: exported from here too.
from umpire.engine.rulesets.nightfighter.serrate_messages import FocusedSerrate as FocusedSerrate
from umpire.engine.rulesets.nightfighter.serrate_messages import RevealCounter as RevealCounter
from umpire.engine.rulesets.nightfighter.serrate_messages import SerrateSearch as SerrateSearch
from umpire.engine.rulesets.nightfighter.setup import modification
from umpire.engine.rulesets.nightfighter.state import Counter, State, counter_at, fighter_by_id
from umpire.engine.rulesets.nightfighter.terms import Phase, RadarKind, Status
from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn
from umpire.events.types import Owner


def _ready(state: State, fighter_id: str) -> None:
    if not modification(state.setup, "7"):
        raise RuleError("Serrate is used in scenario 7 only", rule=RULE)
    if state.phase is not Phase.RADAR_SEARCH:
        now = LABELS.words("phase", state.phase)
        raise RuleError(f"Serrate searches in the radar search phase (now {now})", rule=RULE)
    if state.serrate_used:
        raise RuleError("Serrate has already searched this phase (general or focused)", rule=RULE)
    if fighter_by_id(state, fighter_id) is None:
        raise RuleError(f"no nightfighter {fighter_id!r}", rule=RULE)


def reveal(turn: NightfighterTurn, counter: Counter, how: str) -> None:
    """Draw from the cup for a revealed counter."""
    state = turn.state
    if not state.cup:
        raise RuleError("the cup is empty", rule=RULE)
    roll = turn.roll(draw(len(state.cup)), f"cup draw for {counter.id}", RULE, owner=Owner.OPPONENT)
    drawn = state.cup[roll.total - 1]
    ju88 = drawn == JU88
    what = "a Ju88 replaces it" if ju88 else f"{drawn}: both counters are removed"
    turn.emit(
        CounterRevealed(
            rule=RULE,
            dice=(roll.roll,),
            explanation=f"{counter.id} revealed ({how}); cup draw {what}",
            counter=counter.id,
            drawn=drawn,
            ju88=ju88,
        )
    )


def general(turn: NightfighterTurn, command: SerrateSearch) -> None:
    """SCENARIO 7: dice for every unrevealed bomber counter in the wide arc; 5-6 reveals."""

    state = turn.state

    _ready(state, command.fighter)
    fighter = fighter_by_id(state, command.fighter)
    assert fighter is not None
    targets = sorted(
        (c for c in state.counters
         if c.status is Status.ON_MAP and not c.ju88 and in_wide_arc(state.setup, fighter, c.hex)),
        key=lambda c: c.hex,
    )  # fmt: skip
    nums: list[int] = []
    found: list[str] = []
    for target in targets:
        roll = turn.roll(d6(), f"Serrate on {target.id}", RULE, owner=Owner.PLAYER)
        nums.append(roll.roll)
        if roll.total >= 5:
            found.append(target.id)
            reveal(turn, target, "Serrate")
    turn.emit(
        SerrateSearched(
            rule=RULE,
            dice=tuple(nums),
            explanation=f"Serrate searches {len(targets)} counters in the wide arc; "
            f"revealed: {', '.join(found) or 'none'}",
            fighter=command.fighter,
            focused=False,
            revealed=tuple(found),
        )
    )


def focused(turn: NightfighterTurn, command: FocusedSerrate) -> None:
    """SCENARIO 7: a focused search narrows (or tracks) a revealed Ju88 in the wide arc."""

    state = turn.state

    _ready(state, command.fighter)
    fighter = fighter_by_id(state, command.fighter)
    counter = counter_at(state, command.hex)
    assert fighter is not None
    if counter is None or not counter.ju88:
        raise RuleError(f"a focused Serrate search needs a revealed Ju88 in {command.hex}",
                        rule=RULE)  # fmt: skip
    if not in_wide_arc(state.setup, fighter, counter.hex):
        raise RuleError(f"{command.hex} is not within {fighter.id}'s wide radar arc", rule=RULE)
    radar = next((r for r in state.setup.radars if r.kind is RadarKind.SERRATE), None)
    if radar is None:
        raise RuleError("the scenario sets up no radar of kind 'serrate'", rule=RULE)
    crowd = int(
        any(
            c.id != counter.id
            and c.status is Status.ON_MAP
            and distance(state.setup, c.hex, counter.hex) <= 4
            for c in state.counters
        )
    )
    resolve(turn, radar, counter, crowd=crowd)
    turn.emit(
        SerrateSearched(
            rule=RULE,
            explanation=f"focused Serrate search of {counter.id}",
            fighter=command.fighter,
            focused=True,
        )
    )


def reveal_by_sight(turn: NightfighterTurn, command: RevealCounter) -> None:
    """SCENARIO 7: the published visual identification check revealed a counter."""
    state = turn.state

    if not modification(state.setup, "7"):
        raise RuleError("counters are revealed in scenario 7 only", rule=RULE)
    counter = counter_at(state, command.hex)
    if counter is None or counter.ju88:
        raise RuleError(f"no unrevealed bomber counter in {command.hex}", rule=RULE)
    reveal(turn, counter, "visual identification")
