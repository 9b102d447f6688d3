"""S7.0 MOVING BOMBERS (with S8.0 entry and the base-game searchlight hand-off)."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import nd6
from umpire.engine.errors import RuleError
from umpire.engine.hexgrid import Hex
from umpire.engine.rulesets.nightfighter.commands import MoveBombers
from umpire.engine.rulesets.nightfighter.entry import counters_due
from umpire.engine.rulesets.nightfighter.events import (
    CounterMoved,
    MarkersLost,
    PhaseBegan,
    SearchlightHandedOff,
)
from umpire.engine.rulesets.nightfighter.geometry import grid_of, off_grid
from umpire.engine.rulesets.nightfighter.labels import LABELS
from umpire.engine.rulesets.nightfighter.searchlights import zone_of
from umpire.engine.rulesets.nightfighter.state import Counter, State, counter_at
from umpire.engine.rulesets.nightfighter.terms import Marker, Phase, Status, cite
from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn
from umpire.events.types import Owner

RULE = cite("S7.0")
HANDOFF_RULE = cite("S14.0 (base-game searchlight hand-off)")


def _path(state: State, start: Hex, counter: Counter, steps: int) -> tuple[str, int]:
    """Where a counter ends after `steps` hexes along its heading: a hex label, or '' when
    it leaves the map. S7.0: it may never move into a hex holding another bomber counter,
    so it stops short of one (README interpretation)."""
    grid, free = grid_of(state.setup), off_grid(state.setup)
    here = start
    moved = 0
    for _ in range(steps):
        nxt = free.neighbour(here, counter.heading)
        if grid.contains(nxt):
            other = counter_at(state, nxt.label)
            if other is not None and other.id != counter.id:
                break
        elif grid.contains(here):
            return "", moved + 1
        here, moved = nxt, moved + 1
    return (here.label if grid.contains(here) else ""), moved


def _ordinal(n: int) -> str:
    # A counter's hexes of movement are few (speed 3, 4 accelerating): 1st to 9th.
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n if n < 10 else 0, "th")
    return f"{n}{suffix}"


def _lead_first(counter: Counter) -> tuple[int, str]:
    # Move the leading counter first, so a counter never blocks the one behind it.
    return (-Hex.parse(counter.hex).row if counter.heading == 3 else 0, counter.id)


def move_bombers(turn: NightfighterTurn, command: MoveBombers) -> None:
    """S7.0/S8.0: create the counters of bombers due, move every counter on the map its
    full MPs along its course (off the map edge = exit), then enter the counters due."""
    state = turn.state

    if state.phase is not Phase.BOMBER_MOVEMENT:
        raise RuleError(
            f"bombers move only in the bomber movement phase "
            f"(now {LABELS.words('phase', state.phase)})",
            rule=RULE,
        )
    on_map = sorted((c for c in state.counters if c.status is Status.ON_MAP), key=_lead_first)
    known = {c.id for c in on_map}
    unknown = sorted(set(command.accelerate) - known)
    if unknown:
        raise RuleError(f"accelerate names counters not on the map: {unknown}", rule=RULE)
    handoff_dice = command.handoff_dice if isinstance(command.handoff_dice, int) else 0
    if handoff_dice and not any(c.searchlight for c in on_map):
        raise RuleError(
            "handoff_dice is for a searchlight-fixed bomber handed off to another zone, and "
            "no bomber counter holds a searchlight fix: send it as 0 (or leave it out)",
            rule=HANDOFF_RULE,
        )
    counters_due(turn, state, state.turn)
    for counter in on_map:
        steps = counter.speed + (1 if counter.id in command.accelerate else 0)
        to_hex, moved = _path(turn.state, Hex.parse(counter.hex), counter, steps)
        # Said as the counter moved (S7.0): "flies 3 hexes to 1506", or "flies off the map
        # edge on its 2nd hex of 3" (`moved` counts the step off), never "after 2 hexes".
        said = (
            f"{counter.id} flies {steps} hexes to {to_hex}"
            if to_hex
            else f"{counter.id} flies off the map edge on its {_ordinal(moved)} hex of {steps}"
        )
        turn.emit(
            CounterMoved(
                rule=RULE,
                counter=counter.id,
                from_hex=counter.hex,
                to_hex=to_hex,
                hexes=moved,
                explanation=said,
            )
        )
        if to_hex and counter.searchlight:
            _handoff(turn, counter, to_hex, handoff_dice)
    work = turn.state
    entering = sorted(
        (c for c in work.counters if c.status is Status.PENDING and c.enter_turn <= work.turn),
        key=lambda c: c.id,
    )
    for counter in entering:
        start = Hex(col=counter.enter_col, row=state.setup.min_row - 1)
        to_hex, moved = _path(turn.state, start, counter, counter.speed)
        if not to_hex:
            continue  # S7.0: its entry hex is held by another counter; it enters later
        turn.emit(
            CounterMoved(
                rule=cite("S8.0"),
                counter=counter.id,
                from_hex="",
                to_hex=to_hex,
                hexes=moved,
                explanation=(
                    f"{counter.id} enters in column {counter.enter_col:02d} with its full "
                    f"{counter.speed} MPs to {to_hex or 'off the map'}"
                ),
            )
        )
    # Said as every other phase's start is ("Fighter Movement phase"), not left blank.
    turn.emit(
        PhaseBegan(rule=RULE, phase=Phase.FIGHTER_MOVEMENT, explanation="Fighter Movement phase")
    )


def _handoff(turn: NightfighterTurn, counter: Counter, to_hex: str, dice: int = 0) -> None:
    """A searchlight-fixed bomber keeps its fix in its zone; entering another active zone
    needs a 6 on that zone's dice (the hand-off); leaving every zone loses the fix. `dice`
    (MoveBombers.handoff_dice) replaces the zone's number when the base game cuts it
    (rule 28.3, which the example of play applies to a zone's search: README ledger)."""
    old = counter.searchlight
    new = zone_of(turn.state.setup, to_hex)
    if new is not None and new.name == old:
        return
    if new is None:
        turn.emit(
            MarkersLost(
                rule=HANDOFF_RULE,
                counter=counter.id,
                lost=(Marker.SEARCHLIGHT_FIX,),
                explanation=f"{counter.id} leaves searchlight zone {old}: fix lost",
            )
        )
        return
    count = dice or new.dice
    roll = turn.roll(
        nd6(count),
        f"searchlight hand-off to zone {new.name}"
        + (f" ({count} dice as entered, not the zone's {new.dice})" if dice else ""),
        HANDOFF_RULE,
        owner=Owner.OPPONENT,
    )
    kept = 6 in roll.faces
    cands = (
        Candidate(option="keep the fix", chosen=kept, reason="a 6 rolled" if kept else "no 6"),
        Candidate(option="lose the fix", chosen=not kept, reason="no 6" if not kept else "a 6"),
    )
    if kept:
        turn.emit(
            SearchlightHandedOff(
                rule=HANDOFF_RULE,
                dice=(roll.roll,),
                candidates=cands,
                counter=counter.id,
                from_zone=old,
                to_zone=new.name,
                explanation=f"zone {new.name} rolls {list(roll.faces)}: hand-off made",
            )
        )
        return
    turn.emit(
        MarkersLost(
            rule=HANDOFF_RULE,
            dice=(roll.roll,),
            candidates=cands,
            counter=counter.id,
            lost=(Marker.SEARCHLIGHT_FIX,),
            explanation=f"zone {new.name} rolls {list(roll.faces)}: no 6, hand-off fails",
        )
    )
