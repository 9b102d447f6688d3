"""evolve: the state after one event. Total (unknown events leave the state as it is)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from msgspec import Struct
from msgspec.structs import replace

from umpire.engine.rulesets.nightfighter import events as ev
from umpire.engine.rulesets.nightfighter.campaign import (
    CampaignKind,
    CampaignRolled,
    CampaignWeekEnded,
    evolve_campaign,
    start,
)
from umpire.engine.rulesets.nightfighter.entry import check_schedule
from umpire.engine.rulesets.nightfighter.scenario_rules import adjusted
from umpire.engine.rulesets.nightfighter.serrate_messages import (
    CounterRevealed,
    SerrateSearched,
    cup_for,
)
from umpire.engine.rulesets.nightfighter.setup import Setup
from umpire.engine.rulesets.nightfighter.state import Counter, FighterState, State
from umpire.engine.rulesets.nightfighter.terms import (
    Marker,
    Phase,
    Status,
    Track,
    Uncertainty,
)

# The first version whose games open at turn 1's bomber movement (README ledger "the
# opening"); a game recorded under an earlier one opened before turn 1.
OPENS_AT_TURN_1 = 9


def initial_state(setup: Setup) -> State:
    """The state a game opens in: turn 1's Bomber Movement Phase, the first step of the
    sequence of play (EXAMPLE OF PLAY, turn 1: the first counters enter and move first),
    fighters placed, no bomber counters yet (they enter as the bombers move, S8.0)."""

    setup = adjusted(setup)
    check_schedule(setup)
    fighters = tuple(FighterState(id=f.id, hex=f.hex, facing=f.facing) for f in setup.fighters)
    campaign = start(CampaignKind(setup.campaign), setup.campaign_aircraft)
    return State(
        setup=setup,
        fighters=fighters,
        campaign=campaign,
        cup=cup_for(setup),
        turn=1,
        phase=Phase.BOMBER_MOVEMENT,
    )


def opened_under(version: str, state: State) -> State:
    """The opening of a game recorded under `version`: before v9, turn 0 (before turn 1,
    its Combat Phase over), which the first command's TurnStarted ended, so that an old
    log, and the view at its seq 1 that its receipts hash, fold as they did."""
    if version.isdigit() and int(version) < OPENS_AT_TURN_1:
        return replace(state, turn=0, phase=Phase.COMBAT)
    return state


def settle(counter: Counter) -> Counter:
    """S5.1/S16.0: no uncertainty while any marker is on top; with none left, the counter
    reverts to low uncertainty (track contact beneath), never displaced."""
    fixed = (
        bool(counter.tallied_by)
        or bool(counter.ai_fixed_by)
        or bool(counter.searchlight)
        or counter.track is Track.ON_TOP
    )
    if fixed or counter.certain:
        return replace(counter, level=Uncertainty.NONE)
    if counter.level is Uncertainty.NONE:
        return replace(counter, level=Uncertainty.LOW, track=Track.BENEATH)
    return counter


def add_marker(counter: Counter, marker: Marker, by: str) -> Counter:
    """The counter with one more marker on top."""
    if marker is Marker.TALLY:
        counter = replace(counter, tallied_by=tuple(sorted({*counter.tallied_by, by})))
    elif marker is Marker.AI_FIX:
        counter = replace(counter, ai_fixed_by=tuple(sorted({*counter.ai_fixed_by, by})))
    elif marker is Marker.SEARCHLIGHT_FIX:
        counter = replace(counter, searchlight=by)
    else:
        counter = replace(counter, track=Track.ON_TOP)
    return settle(counter)


def drop_markers(counter: Counter, lost: Iterable[Marker], fighters: tuple[str, ...]) -> Counter:
    """The counter without the lost markers (tallies/AI fixes of `fighters`, or all)."""
    for marker in lost:
        if marker is Marker.TALLY:
            keep = tuple(f for f in counter.tallied_by if fighters and f not in fighters)
            counter = replace(counter, tallied_by=keep)
        elif marker is Marker.AI_FIX:
            keep = tuple(f for f in counter.ai_fixed_by if fighters and f not in fighters)
            counter = replace(counter, ai_fixed_by=keep)
        elif marker is Marker.SEARCHLIGHT_FIX:
            counter = replace(counter, searchlight="")
        elif counter.track is Track.ON_TOP:
            counter = replace(counter, track=Track.BENEATH)
    return settle(counter)


def _counter(state: State, counter_id: str, change: Callable[[Counter], Counter]) -> State:
    return replace(
        state, counters=tuple(change(c) if c.id == counter_id else c for c in state.counters)
    )


def _fighter(state: State, fighter_id: str, **changes: object) -> State:
    return replace(
        state,
        fighters=tuple(replace(f, **changes) if f.id == fighter_id else f for f in state.fighters),
    )


def _phantom(state: State, e: ev.PhantomTested) -> State:
    level = Uncertainty(e.now_level)
    out = []
    for c in state.counters:
        if c.id in e.removed:
            c = replace(c, status=Status.REMOVED)
        elif c.id in e.now_moderate:
            track = Track.BENEATH if level is Uncertainty.LOW else c.track
            c = replace(c, level=level, track=track)
        out.append(c)
    return replace(state, counters=tuple(out))


def _exclude(state: State, bomber: str, hexes: tuple[str, ...]) -> State:
    excluded = dict(state.excluded)
    excluded[bomber] = tuple(sorted({*excluded.get(bomber, ()), *hexes}))
    return replace(state, excluded=excluded)


def evolve(state: State, event: Struct) -> State:
    """The state after `event`."""
    if isinstance(event, ev.TurnStarted):
        fighters = tuple(
            replace(f, moved=False, ai_searched=False, basic_tally_failed=False, tally_attempts=0)
            for f in state.fighters
        )
        counters = tuple(replace(c, corkscrewed=False) for c in state.counters)
        return replace(
            state,
            turn=event.turn,
            phase=Phase.BOMBER_MOVEMENT,
            fighters=fighters,
            counters=counters,
            excluded={},
            radar_searched=(),
            radar_placed=False,
            zones_done=(),
            serrate_used=False,
        )
    if isinstance(event, ev.PhaseBegan):
        return replace(state, phase=event.phase, zones_done=())
    if isinstance(event, ev.CountersDue):
        new = tuple(
            Counter(
                id=n.id,
                bomber=event.bomber,
                status=Status.PENDING,
                level=Uncertainty(event.level),
                enter_turn=n.enter_turn,
                enter_col=n.enter_col,
                speed=event.speed,
                heading=event.heading,
                h2s=event.h2s,
                certain=event.certain,
                track=Track.BENEATH if event.level == Uncertainty.LOW else Track.ABSENT,
            )
            for n in event.counters
        )
        return replace(state, counters=state.counters + new)
    if isinstance(event, ev.CounterMoved):
        if event.to_hex:
            return _counter(
                state, event.counter, lambda c: replace(c, hex=event.to_hex, status=Status.ON_MAP)
            )
        return _counter(
            state,
            event.counter,
            lambda c: replace(
                c,
                hex="",
                status=Status.OFF_MAP,
                tallied_by=(),
                ai_fixed_by=(),
                searchlight="",
                track=Track.BENEATH if c.level is Uncertainty.NONE else c.track,
                level=Uncertainty.LOW if c.level is Uncertainty.NONE else c.level,
            ),
        )
    if isinstance(event, ev.MarkersLost):
        return _counter(state, event.counter, lambda c: drop_markers(c, event.lost, event.fighters))
    if isinstance(event, ev.SearchlightHandedOff):
        return _counter(state, event.counter, lambda c: replace(c, searchlight=event.to_zone))
    if isinstance(event, ev.PhantomTested):
        return _phantom(state, event)
    if isinstance(event, ev.Localised):
        return _counter(
            state,
            event.counter,
            lambda c: add_marker(replace(c, hex=event.to_hex), event.marker, event.by),
        )
    if isinstance(event, ev.MarkerPlaced):
        return _counter(state, event.counter, lambda c: add_marker(c, event.marker, event.by))
    if isinstance(event, ev.LocalisationFailed):
        return _exclude(state, event.bomber, event.excluded) if event.excluded else state
    if isinstance(event, ev.CounterShifted):
        return _counter(state, event.counter, lambda c: _shift(c, event))
    if isinstance(event, ev.FighterMoved):
        return _fighter(state, event.fighter, hex=event.to_hex, facing=event.facing, moved=True)
    if isinstance(event, ev.RadarSearchesPlaced):
        return replace(state, radar_placed=True)
    if isinstance(event, ev.RadarSearchResolved | ev.TrackContactKept):
        tracks = event.tracks if isinstance(event, ev.RadarSearchResolved) else True
        if tracks and event.counter and event.counter not in state.radar_searched:
            return replace(state, radar_searched=(*state.radar_searched, event.counter))
        return state
    if isinstance(event, ev.AISearched):
        return _fighter(state, event.fighter, ai_searched=True)
    if isinstance(event, ev.SearchlightSearched):
        done = tuple(z for z in (event.zone, event.also_zone) if z and z not in state.zones_done)
        return replace(state, zones_done=state.zones_done + done)
    if isinstance(event, ev.TallyAttempted):
        fighter = next(f for f in state.fighters if f.id == event.fighter)
        failed = fighter.basic_tally_failed or (event.kind == "basic" and not event.succeeded)
        return _fighter(
            state,
            event.fighter,
            tally_attempts=fighter.tally_attempts + 1,
            basic_tally_failed=failed,
        )
    if isinstance(event, ev.BomberShotDown):
        return _counter(
            state,
            event.counter,
            lambda c: replace(
                c,
                status=Status.SHOT_DOWN,
                tallied_by=(),
                ai_fixed_by=(),
                searchlight="",
                track=Track.ABSENT,
            ),
        )
    if isinstance(event, ev.Corkscrewed):
        return _counter(
            state,
            event.counter,
            lambda c: replace(drop_markers(c, event.lost, ()), corkscrewed=True),
        )
    if isinstance(event, CampaignRolled | CampaignWeekEnded):
        return replace(state, campaign=evolve_campaign(state.campaign, event))
    if isinstance(event, SerrateSearched):
        return replace(state, serrate_used=True)
    if isinstance(event, CounterRevealed):
        cup = list(state.cup)
        if event.drawn in cup:
            cup.remove(event.drawn)
        state = replace(state, cup=tuple(cup))
        if event.ju88:
            return _counter(state, event.counter, lambda c: replace(c, ju88=True))
        return _counter(state, event.counter, lambda c: replace(c, status=Status.REMOVED))
    return state


def _shift(c: Counter, e: ev.CounterShifted) -> Counter:
    if not e.to_hex:
        return replace(c, hex="", status=Status.OFF_MAP, level=Uncertainty.LOW)
    if e.track_on_top:
        return settle(replace(c, hex=e.to_hex, track=Track.ON_TOP))
    return replace(c, hex=e.to_hex, level=Uncertainty.LOW, track=Track.BENEATH)
