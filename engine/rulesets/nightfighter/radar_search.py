"""S13.0 RADAR SEARCH, with S24.0 (Flensburg, Naxos, jamming) and S25.0 (GCI, MEW)."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import d6, nd6
from umpire.engine.errors import RuleError
from umpire.engine.hexgrid import Hex
from umpire.engine.rulesets.nightfighter.commands import PlaceRadarSearches
from umpire.engine.rulesets.nightfighter.events import (
    CounterShifted,
    JammingTested,
    MarkersLost,
    RadarSearchesPlaced,
    RadarSearchResolved,
    TrackContactKept,
)
from umpire.engine.rulesets.nightfighter.geometry import distance, grid_of, in_wide_arc, shifted
from umpire.engine.rulesets.nightfighter.labels import LABELS
from umpire.engine.rulesets.nightfighter.location_roll import blocked
from umpire.engine.rulesets.nightfighter.phantom_test import phantom_test
from umpire.engine.rulesets.nightfighter.setup import Radar
from umpire.engine.rulesets.nightfighter.state import (
    Counter,
    State,
    counter_at,
    counter_by_id,
    fighter_by_id,
)
from umpire.engine.rulesets.nightfighter.tables.localisation import low_cell
from umpire.engine.rulesets.nightfighter.terms import (
    Jamming,
    Marker,
    Phase,
    RadarKind,
    Status,
    Track,
    Uncertainty,
    cite,
)
from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn
from umpire.events.types import Owner

RULE = cite("S13.0")
RULE_JAM = cite("S24.0")
RULE_GCI = cite("S25.0")


def effective_jamming(radar: Radar) -> Jamming:
    """S25.0: lightly jammed GCI is an unjammed search radar; heavily jammed GCI a lightly
    jammed one. Other radars as set up (S24.0)."""
    if radar.kind is RadarKind.GCI:
        return {Jamming.NONE: Jamming.NONE, Jamming.LIGHT: Jamming.NONE}.get(
            radar.jamming, Jamming.LIGHT
        )
    return radar.jamming


def _radar(state: State, name: str) -> Radar:
    found = next((r for r in state.setup.radars if r.name == name), None)
    if found is None:
        names = [r.name for r in state.setup.radars]
        raise RuleError(f"no radar {name!r} in this scenario (radars: {names})", rule=RULE)
    return found


def _check(state: State, command: PlaceRadarSearches) -> list[tuple[Radar, Counter]]:
    """S13.0: search counters only in hexes with bomber counters, one per hex, one per
    radar; S24.0 Flensburg within the wide arc, Naxos only on H2S bombers."""
    if state.phase is not Phase.RADAR_SEARCH:
        raise RuleError(
            f"radar searches are placed in the radar search phase "
            f"(now {LABELS.words('phase', state.phase)})",
            rule=RULE,
        )
    if state.radar_placed:
        raise RuleError("all radar searches are placed at once, before any is resolved", rule=RULE)
    hexes = [s.hex for s in command.searches]
    radars = [s.radar for s in command.searches]
    if len(set(hexes)) != len(hexes):
        raise RuleError("only one radar search counter is allowed per hex", rule=RULE)
    if len(set(radars)) != len(radars):
        raise RuleError("each radar places one search counter a phase", rule=RULE)
    out = []
    for search in command.searches:
        radar = _radar(state, search.radar)
        if radar.kind is RadarKind.SERRATE:
            raise RuleError("Serrate searches with SerrateSearch or FocusedSerrate",
                            rule=cite("SCENARIO 7"))  # fmt: skip
        counter = counter_at(state, search.hex)
        if counter is None:
            raise RuleError(
                f"radar search counters may be placed only in hexes containing bomber "
                f"counters ({search.hex} has none)",
                rule=RULE,
            )
        if radar.kind is RadarKind.FLENSBURG:
            fighter = fighter_by_id(state, radar.fighter)
            if fighter is None or not in_wide_arc(state.setup, fighter, counter.hex):
                raise RuleError(
                    f"Flensburg may search only counters within the wide arc of its fighter "
                    f"({search.hex} is not)",
                    rule=RULE_JAM,
                )
        if radar.kind is RadarKind.NAXOS and not counter.h2s:
            raise RuleError(
                f"Naxos may search only bombers carrying H2S ({counter.id} does not)",
                rule=RULE_JAM,
            )
        out.append((radar, counter))
    return out


def place_radar_searches(turn: NightfighterTurn, command: PlaceRadarSearches) -> None:
    """S13.0: place every search, test jammed ones (S24.0), then resolve in order."""
    placed = _check(turn.state, command)
    turn.emit(
        RadarSearchesPlaced(
            rule=RULE,
            placements=tuple((r.name, c.hex) for r, c in placed),
            explanation="all search counters placed before any is resolved",
        )
    )
    active: list[tuple[Radar, Counter]] = []
    for radar, counter in placed:
        jam = effective_jamming(radar)
        if jam is Jamming.NONE:
            active.append((radar, counter))
            continue
        roll = turn.roll(d6(), f"jamming of {radar.name} on {counter.hex}", RULE_JAM)
        worst = 2 if jam is Jamming.LIGHT else 4
        removed = roll.total <= worst
        turn.emit(
            JammingTested(
                rule=RULE_JAM,
                dice=(roll.roll,),
                radar=radar.name,
                hex=counter.hex,
                value=roll.total,
                removed=removed,
                explanation=(
                    f"{radar.name} is {jam.value}ly jammed: roll {roll.total} "
                    + ("removes the search counter" if removed else "lets it stand")
                    + f" (removed on 1-{worst})"
                ),
            )
        )
        if not removed:
            active.append((radar, counter))
    for radar, placed_on in active:
        # The counter the search was placed on, as the earlier searches left it: never
        # another counter shifted into its hex since.
        target = counter_by_id(turn.state, placed_on.id)
        if target is None or target.status is not Status.ON_MAP:
            turn.emit(_nothing_left(radar, placed_on))
            continue
        resolve(turn, radar, target)


def _nothing_left(radar: Radar, counter: Counter) -> RadarSearchResolved:
    """S13.0/S5.4: a search counter whose bomber counter an earlier search this phase
    removed as a phantom searches nothing (said, so the player sees where it went)."""
    return RadarSearchResolved(
        rule=RULE,
        explanation=(
            f"{radar.name}'s search counter in {counter.hex}: {counter.id} was removed as a "
            "phantom by an earlier search this phase, so it searches nothing"
        ),
        radar=radar.name,
        counter=counter.id,
        search_value=radar.search_value,
        value=0,
        modified=0,
        outcome="nothing to search",
    )


def _crowded(state: State, counter: Counter) -> bool:
    """S13.0: another bomber counter other than a high uncertainty one within four hexes."""
    return any(
        c.id != counter.id
        and c.status is Status.ON_MAP
        and c.level is not Uncertainty.HIGH
        and distance(state.setup, c.hex, counter.hex) <= 4
        for c in state.counters
    )


def _high(turn: NightfighterTurn, radar: Radar, counter: Counter) -> None:
    """S13.0/S5.4 phantom tests; S25.0 GCI tests each of the bomber's counters on the map
    until one is real; MEW tests every high counter on the map."""
    state = turn.state
    if radar.kind is RadarKind.MEW:
        order = [
            c for c in state.counters if c.status is Status.ON_MAP and c.level is Uncertainty.HIGH
        ]
        order.sort(key=lambda c: (c.id != counter.id, c.hex))
    elif radar.kind is RadarKind.GCI and radar.jamming is Jamming.NONE:
        order = [
            c
            for c in state.counters
            if c.bomber == counter.bomber
            and c.status is Status.ON_MAP
            and c.level is Uncertainty.HIGH
        ]
        order.sort(key=lambda c: (c.id != counter.id, c.hex))
    else:
        order = [counter]
    for target in order:
        now = next(c for c in turn.state.counters if c.id == target.id)
        if now.status is not Status.ON_MAP or now.level is not Uncertainty.HIGH:
            continue
        phantom_test(turn, now, f"{radar.name} search")
    rule = RULE_GCI if radar.kind in (RadarKind.GCI, RadarKind.MEW) else RULE
    turn.emit(
        RadarSearchResolved(
            rule=rule,
            radar=radar.name,
            counter=counter.id,
            search_value=radar.search_value,
            value=0,
            modified=0,
            outcome="phantom test",
            tracks=radar.search_value == 1 or radar.kind is RadarKind.MEW,
            explanation="high uncertainty: phantom test only, no further effect this turn (S5.4)",
        )
    )


def _search_roll(
    turn: NightfighterTurn, radar: Radar, counter: Counter
) -> tuple[int, tuple[int, ...]]:
    """One die, or S25.0 two dice for unjammed GCI keeping the higher; MEW needs none:
    the value read and the roll numbers used (each roll emitted)."""
    if radar.kind is RadarKind.MEW:
        return 6, ()
    if radar.kind is RadarKind.GCI and radar.jamming is Jamming.NONE:
        roll = turn.roll(
            nd6(2), f"{radar.name} search of {counter.id}", RULE_GCI, owner=Owner.OPPONENT
        )
        return max(roll.faces), (roll.roll,)
    roll = turn.roll(d6(), f"{radar.name} search of {counter.id}", RULE, owner=Owner.OPPONENT)
    return roll.total, (roll.roll,)


def resolve(
    turn: NightfighterTurn, radar: Radar, counter: Counter, crowd: int | None = None
) -> None:
    """S13.0: resolve one search counter against the counter in its hex (`crowd`
    overrides the -1 for nearby bombers, as SCENARIO 7's focused Serrate search does).
    A shift or localisation reads the state the search began in."""
    if counter.level is Uncertainty.HIGH:
        _high(turn, radar, counter)
        return
    state = turn.state
    if crowd is None:
        crowd = 0 if radar.kind is RadarKind.NAXOS else int(_crowded(state, counter))
    auto = radar.kind is RadarKind.MEW
    if counter.level is Uncertainty.MODERATE:
        value, nums = _search_roll(turn, radar, counter)
        modified = value - radar.search_value - crowd
        ok = auto or modified >= 3
        text = (
            f"roll {value} - search value {radar.search_value}"
            + (" - 1 (another bomber within four hexes)" if crowd else "")
            + f" = {modified}: "
            + ("narrowed to low uncertainty" if ok else "no effect (needs 3+)")
        )
        turn.emit(_resolved(radar, counter, nums, value, modified, ok, text))
        if ok:
            _scatter(turn, state, counter)
        return
    if counter.track is Track.ON_TOP and (radar.search_value == 1 or auto):
        turn.emit(
            TrackContactKept(
                rule=RULE,
                counter=counter.id,
                radar=radar.name,
                explanation=f"{radar.name} keeps tracking {counter.id}: track contact stays on top",
            )
        )
        return
    if radar.search_value != 1 and not auto:
        turn.emit(
            _resolved(
                radar,
                counter,
                (),
                0,
                0,
                False,
                f"search value {radar.search_value} cannot localise beyond low uncertainty",
            )
        )
        return
    value, nums = _search_roll(turn, radar, counter)
    modified = value - crowd
    ok = auto or modified >= 5
    text = (
        f"roll {value}"
        + (" - 1 (another bomber within four hexes)" if crowd else "")
        + f" = {modified}: "
        + ("localised, track contact on top" if ok else "no effect (needs 5+)")
    )
    turn.emit(_resolved(radar, counter, nums, value, modified, ok, text))
    if ok:
        _localise_low(turn, state, counter)


def _resolved(
    radar: Radar,
    counter: Counter,
    nums: tuple[int, ...],
    value: int,
    modified: int,
    ok: bool,
    text: str,
) -> RadarSearchResolved:
    rule = RULE_GCI if radar.kind in (RadarKind.GCI, RadarKind.MEW) else RULE
    if radar.kind in (RadarKind.FLENSBURG, RadarKind.NAXOS):
        rule = RULE_JAM
    return RadarSearchResolved(
        rule=rule,
        dice=nums,
        candidates=(
            Candidate(option="refine", chosen=ok, reason=text),
            Candidate(option="no effect", chosen=not ok, reason=text),
        ),
        explanation=f"{radar.name} on {counter.id} in {counter.hex}: {text}",
        radar=radar.name,
        counter=counter.id,
        search_value=radar.search_value,
        value=value,
        modified=modified,
        outcome="refined" if ok else "no effect",
        tracks=radar.search_value == 1 or radar.kind is RadarKind.MEW,
    )


def _scatter(turn: NightfighterTurn, state: State, counter: Counter) -> None:
    """S5.3: one die on the low diagram: shift to the adjacent hex shown, or directly back
    one hex on a 3; the counter becomes low uncertainty (re-rolled into an occupied hex,
    S7.0; shifted off the map it can no longer be located)."""
    setup = state.setup
    rolls = []
    here = Hex.parse(counter.hex)
    while True:
        roll = turn.roll(
            d6(), f"shift {counter.id} to low uncertainty", cite("S5.3"), owner=Owner.OPPONENT
        )
        rolls.append(roll)
        cell = low_cell(roll.total)
        offset = (0, -1) if cell.label == "3" else cell.offset
        to = shifted(setup, here, offset, counter.heading)
        label = to.label if grid_of(setup).contains(to) else ""
        if not blocked(state, counter, label) or label == counter.hex:
            break
    where = label or "off the map"
    how = "directly back one hex (roll 3)" if cell.label == "3" else f"to low cell {cell.label}"
    turn.emit(
        CounterShifted(
            rule=cite("S5.3"),
            dice=tuple(r.roll for r in rolls),
            explanation=f"{counter.id} shifted {how}: {where}, now low uncertainty",
            counter=counter.id,
            from_hex=counter.hex,
            to_hex=label,
            cell=cell.label,
            track_on_top=False,
        )
    )


def _localise_low(turn: NightfighterTurn, state: State, counter: Counter) -> None:
    """S13.0: localised to a specific hex of the low area (left in place at no
    uncertainty), with a track contact marker on top."""
    if counter.level is Uncertainty.NONE:
        turn.emit(
            CounterShifted(
                rule=RULE,
                explanation=f"{counter.id} stays in {counter.hex}; track contact on top",
                counter=counter.id,
                from_hex=counter.hex,
                to_hex=counter.hex,
                cell="",
                track_on_top=True,
            )
        )
        return
    setup = state.setup
    rolls = []
    here = Hex.parse(counter.hex)
    while True:
        roll = turn.roll(d6(), f"localise {counter.id}", cite("S5.2"), owner=Owner.OPPONENT)
        rolls.append(roll)
        cell = low_cell(roll.total)
        to = shifted(setup, here, cell.offset, counter.heading)
        label = to.label if grid_of(setup).contains(to) else ""
        if not blocked(state, counter, label):
            break
    turn.emit(
        CounterShifted(
            rule=RULE,
            dice=tuple(r.roll for r in rolls),
            explanation=(
                f"{counter.id} localised to {label or 'off the map'} (low cell {cell.label})"
            ),
            counter=counter.id,
            from_hex=counter.hex,
            to_hex=label,
            cell=cell.label,
            track_on_top=True,
        )
    )


def end_radar_phase(turn: NightfighterTurn) -> None:
    """S5.1: counters with a track contact on top that no search value one radar searched
    this phase lose it (reverting to low uncertainty unless otherwise fixed)."""
    state = turn.state
    lost = [
        MarkersLost(
            rule=cite("S5.1"),
            counter=c.id,
            lost=(Marker.TRACK_CONTACT,),
            explanation=f"{c.id} was not tracked by a search value one radar this turn",
        )
        for c in state.counters
        if c.status is Status.ON_MAP
        and c.track is Track.ON_TOP
        and c.id not in state.radar_searched
    ]
    turn.emit_all(lost)
