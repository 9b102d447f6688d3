"""The commands the player may send now (engine/actions.py), by the phase of the turn.

Seed 004_c3eb2ad371d7bb6a.txt, in the order of the EXAMPLE OF PLAY: bomber movement (the
umpire moves the bombers, S7.0/S8.0), nightfighter movement (S3.0), radar search (S13.0;
Serrate in scenario 7), AI radar (S19.0), searchlights (S14.0), tally (S10.0, S15.0) and
combat (S17.0); every phase but the first ends with `EndPhase`. Campaign commands
(CAMPAIGN MODIFICATIONS) whenever a campaign is played.

Nothing in the state is secret (state.py), so fields are narrowed freely: bomber counters
to their hexes on the map, fighters to those on it, searchlight searches per zone to the
counters in it. A fighter's move is offered as every path of adjacent hexes within its
MPs (those leaving the map with `exit`); searches, tallies and combat only where the rules
allow them now (in range and arc, tallied), so that every listed command is accepted.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from umpire.engine.actions import Action, Schema, as_next, offer, offer_each, one_of
from umpire.engine.hexgrid import Hex, HexGrid
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter.campaign import (
    RULE as RULE_CAMPAIGN,
)
from umpire.engine.rulesets.nightfighter.campaign import (
    RULE_PILOT as RULE_PILOT_CAMPAIGN,
)
from umpire.engine.rulesets.nightfighter.campaign import (
    DrawScenarioCard,
    EndCampaignWeek,
    RollCampaignWeek,
    RollNightContinuation,
)
from umpire.engine.rulesets.nightfighter.commands import (
    AttemptTally,
    BreakContact,
    Corkscrew,
    EndPhase,
    MoveBombers,
    MoveFighter,
    PlaceRadarSearches,
    RollBomberResponse,
    SearchAI,
    SearchSearchlight,
    ShootDown,
)
from umpire.engine.rulesets.nightfighter.geometry import (
    ai_search_area,
    area,
    grid_of,
    in_wide_arc,
    off_grid,
    tally_range,
)
from umpire.engine.rulesets.nightfighter.labels import LABELS
from umpire.engine.rulesets.nightfighter.searchlights import zone_has_fix
from umpire.engine.rulesets.nightfighter.serrate import FocusedSerrate, RevealCounter, SerrateSearch
from umpire.engine.rulesets.nightfighter.setup import Fighter, modification
from umpire.engine.rulesets.nightfighter.state import FighterState, State, fighter_by_id
from umpire.engine.rulesets.nightfighter.terms import (
    RULE_SEQUENCE,
    Phase,
    RadarKind,
    Status,
    TallyKind,
    cite,
)

RULE_MOVE = cite("S3.0")


def _counter_hexes(state: State) -> list[str]:
    return sorted(c.hex for c in state.counters if c.status is Status.ON_MAP and c.hex)


def _on_map(state: State) -> list[FighterState]:
    return [f for f in state.fighters if f.hex]


def _paths_from(state: State, fighter: FighterState, spec: Fighter) -> tuple[list[Any], list[Any]]:
    """S3.0: every path of 0 to max_mp hexes, each next to the last, from the fighter:
    (those ending on the map, those whose last step leaves it). Only a last step may leave
    the map (`decide` refuses any other off-map hex)."""
    stay, leave = _all_paths(grid_of(state.setup), off_grid(state.setup), fighter.hex, spec.max_mp)
    return list(stay), list(leave)  # tuples: JSON arrays on the wire


@lru_cache(maxsize=64)
def _all_paths(
    grid: HexGrid, free: HexGrid, start: str, max_mp: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    """`_paths_from`, once per map, start hex and MPs: the listing is asked for on every
    command (engine/handling.py `check_allowed`), and a fighter has 1,555 paths of 4 MPs."""
    stay: list[tuple[str, ...]] = [()]
    leave: list[tuple[str, ...]] = []
    frontier: list[tuple[Hex, tuple[str, ...]]] = [(Hex.parse(start), ())]
    for _ in range(max_mp):
        grown: list[tuple[Hex, tuple[str, ...]]] = []
        for here, path in frontier:
            for direction in range(6):
                step = free.neighbour(here, direction)
                longer = (*path, step.label)
                if grid.contains(step):
                    stay.append(longer)
                    grown.append((step, longer))
                else:
                    leave.append(longer)
        frontier = grown
    return tuple(stay), tuple(leave)


def _moves(state: State) -> list[dict[str, Schema]]:
    """MoveFighter variants per fighter that has not moved: its paths on the map, and its
    paths leaving it (with `exit`), each an enum of whole paths (S3.0, checked step by
    step by the rules)."""
    variants: list[dict[str, Schema]] = []
    for f in _on_map(state):
        spec = next((s for s in state.setup.fighters if s.id == f.id), None)
        if spec is None or f.moved:
            continue
        stay, leave = _paths_from(state, f, spec)
        me = one_of([f.id])
        variants.append({"fighter": me, "path": _paths(stay), "exit": one_of([False])})
        if leave:
            variants.append({"fighter": me, "path": _paths(leave), "exit": one_of([True])})
    return variants


def _paths(paths: list[Any]) -> Schema:
    """An enum of whole paths (lists of hex labels)."""
    return {"enum": paths}


def _tallies(state: State) -> list[dict[str, Schema]]:
    """AttemptTally variants (S10.0, S15.0): per fighter not maintaining a tally, a basic
    attempt (its first this turn) on a counter whose uncertainty area reaches its
    visibility range, lit or not (a searchlight-fixed counter counts as lit); or, after
    one failed basic attempt, a fixed-target attempt on a counter fixed by its own AI or
    by searchlights."""
    counters = [c for c in state.counters if c.status is Status.ON_MAP and c.hex]
    out: list[dict[str, Schema]] = []
    for f in _on_map(state):
        if any(f.id in c.tallied_by for c in state.counters):
            continue
        me = one_of([f.id])
        if not f.tally_attempts:
            for lit in (False, True):
                reach = set(tally_range(state.setup, f, lit))
                hexes = [
                    c.hex
                    for c in counters
                    if (lit or not c.searchlight) and reach & set(area(state.setup, c))
                ]
                if hexes:
                    out.append(
                        {
                            "fighter": me,
                            "hex": one_of(sorted(hexes)),
                            "kind": one_of([TallyKind.BASIC]),
                            "illuminated": one_of([lit]),
                        }
                    )
        elif f.basic_tally_failed and f.tally_attempts == 1:
            fixed = [c.hex for c in counters if c.searchlight or f.id in c.ai_fixed_by]
            if fixed:
                out.append(
                    {"fighter": me, "hex": one_of(sorted(fixed)), "kind": one_of([TallyKind.FIXED])}
                )
    return out


def _ai_searches(state: State) -> list[dict[str, Schema]]:
    """SearchAI variants (S19.0): per fighter yet to search, the counters whose uncertainty
    area its AI radar's range and arc reach."""
    out: list[dict[str, Schema]] = []
    for f in _on_map(state):
        spec = next((s for s in state.setup.fighters if s.id == f.id), None)
        if spec is None or f.ai_searched:
            continue
        searched = set(ai_search_area(state.setup, f, spec.ai_range, spec.ai_arc))
        hexes = sorted(
            c.hex
            for c in state.counters
            if c.status is Status.ON_MAP and c.hex and searched & set(area(state.setup, c))
        )
        if hexes:
            out.append({"fighter": one_of([f.id]), "hex": one_of(hexes)})
    return out


def _tallied(state: State) -> list[dict[str, Schema]]:
    """Combat variants (S17.0): each counter a fighter has tallied, with its fighters."""
    return [
        {"fighter": one_of(sorted(c.tallied_by)), "hex": one_of([c.hex])}
        for c in state.counters
        if c.status is Status.ON_MAP and c.hex and c.tallied_by
    ]


def _searchlights(state: State) -> list[dict[str, Schema]]:
    """SearchSearchlight variants (S14.0): per active zone clear of cloud that has not
    searched this phase and holds no fix, the counters in it not fixed already."""
    out: list[dict[str, Schema]] = []
    for zone in state.setup.zones:
        if (
            not zone.active
            or zone.cloud
            or zone.name in state.zones_done
            or zone_has_fix(state, zone.name)
        ):
            continue
        hexes = sorted(
            c.hex
            for c in state.counters
            if c.status is Status.ON_MAP and c.hex in zone.hexes and not c.searchlight
        )
        if hexes:
            out.append({"zone": one_of([zone.name]), "hex": one_of(hexes)})
    return out


def _radar_searches(state: State, hexes: list[str]) -> Schema:
    """PlaceRadarSearches' `searches` (S13.0, S24.0): per radar but Serrate, the counters it
    may search (Flensburg in its fighter's wide arc, Naxos H2S bombers only); each radar
    and each hex at most once."""
    by_hex = {c.hex: c for c in state.counters if c.status is Status.ON_MAP and c.hex}
    kinds: list[Schema] = []
    radars: list[str] = []
    for radar in state.setup.radars:
        if radar.kind is RadarKind.SERRATE:
            continue
        fighter = fighter_by_id(state, radar.fighter) if radar.kind is RadarKind.FLENSBURG else None
        allowed = [
            h
            for h in hexes
            if (radar.kind is not RadarKind.FLENSBURG
                or (fighter is not None and in_wide_arc(state.setup, fighter, h)))
            and (radar.kind is not RadarKind.NAXOS or by_hex[h].h2s)
        ]  # fmt: skip
        if allowed:
            radars.append(radar.name)
            kinds.append({"properties": {"radar": one_of([radar.name]), "hex": one_of(allowed)}})
    if not kinds:
        return {"maxItems": 0}
    once = [
        {"contains": {"properties": {key: {"const": value}}}, "minContains": 0, "maxContains": 1}
        for key, values in (("radar", radars), ("hex", hexes))
        for value in values
    ]
    return {"items": {"anyOf": kinds}, "maxItems": len(kinds), "allOf": once}


NO_BOMBER_LEFT = "no bomber left: fly your fighter off the map, or end the game"
"""What ends a game with no bomber left (README "End of game"): the seed ends it when the
last nightfighter leaves the map (example of play, turn 13), or the player ends it."""


def no_bomber_left(state: State) -> bool:
    """Whether every bomber has come and gone: none due on this or a later turn (S8.0), no
    counter on the map or due to enter. Then nothing is left to do but the ending move."""
    coming = any(b.turn >= state.turn for b in state.setup.bombers)
    waiting = any(c.status in (Status.ON_MAP, Status.PENDING) for c in state.counters)
    return not coming and not waiting


def _phase_actions(state: State) -> list[Action]:
    if state.turn == 0:
        return _opening()
    hexes = _counter_hexes(state)
    ending = f" ({NO_BOMBER_LEFT})" if no_bomber_left(state) else ""
    fighters = [f.id for f in _on_map(state)]
    out: list[Action] = []
    match state.phase:
        case Phase.BOMBER_MOVEMENT:
            ids = [c.id for c in state.counters if c.status is Status.ON_MAP]
            accelerate = {"items": one_of(ids)} if ids else {"maxItems": 0}
            text = "Move and enter the bomber counters"
            # Hand-off dice only while a bomber holds a searchlight fix (S14.0, 28.3).
            fixed = any(c.searchlight for c in state.counters if c.status is Status.ON_MAP)
            narrow = {"accelerate": accelerate} | ({} if fixed else {"handoff_dice": one_of([0])})
            return [as_next(offer(MoveBombers, cite("S7.0"), text, **narrow))]
        case Phase.FIGHTER_MOVEMENT:
            moves = _moves(state)
            if moves:
                text = "Move a nightfighter hex by hex" + ending
                out.append(as_next(offer_each(MoveFighter, RULE_MOVE, text, moves)))
        case Phase.RADAR_SEARCH if state.setup.radars:
            if not state.radar_placed:  # with no counter on the map, no search: an empty list
                text = "Place the phase's radar search counters"
                searches = _radar_searches(state, hexes)
                placing = offer(PlaceRadarSearches, cite("S13.0"), text, searches=searches)
                out.append(as_next(placing))
            if modification(state.setup, "7") and not state.serrate_used and fighters and hexes:
                rule = cite("SCENARIO 7")
                out += [
                    offer(
                        SerrateSearch,
                        rule,
                        "Serrate search in the wide arc",
                        fighter=one_of(fighters),
                    ),
                    offer(
                        FocusedSerrate,
                        rule,
                        "Focused Serrate search of a revealed Ju88",
                        fighter=one_of(fighters),
                        hex=one_of(hexes),
                    ),
                    offer(
                        RevealCounter,
                        rule,
                        "A counter revealed by a visual check",
                        hex=one_of(hexes),
                    ),
                ]
        case Phase.AI_RADAR if hexes:
            ai = _ai_searches(state)
            if ai:
                text = "An AI search by a nightfighter"
                out.append(as_next(offer_each(SearchAI, cite("S19.0"), text, ai)))
        case Phase.SEARCHLIGHT:
            zones = _searchlights(state)
            if zones:
                text = "A searchlight zone searches a bomber counter in it"
                out.append(as_next(offer_each(SearchSearchlight, cite("S14.0"), text, zones)))
        case Phase.TALLY if hexes and fighters:
            tallies = _tallies(state)
            if tallies:
                # Only fixed-target attempts left (a basic one failed): they are S15.0's.
                fixed = all(v["kind"] == one_of([TallyKind.FIXED]) for v in tallies)
                rule, text = (
                    (cite("S15.0"), "An advanced (fixed-target) tally attempt by a nightfighter")
                    if fixed
                    else (cite("S10.0"), "A tally attempt by a nightfighter")
                )
                out.append(as_next(offer_each(AttemptTally, rule, text, tallies)))
        case Phase.COMBAT if hexes and fighters:
            tallied = _tallied(state)
            follow = {} if state.setup.optional_rules else {"follow_dice": one_of([0])}
            if tallied:
                out += [
                    as_next(
                        offer_each(
                            RollBomberResponse,
                            cite("S17.0"),
                            "A tallied bomber's response",
                            tallied,
                        )
                    ),
                    offer_each(
                        Corkscrew,
                        cite("S17.0"),
                        "The bomber corkscrews",
                        [{**v, **follow} for v in tallied],
                    ),
                    offer_each(
                        ShootDown,
                        cite("S17.0"),
                        "The base-game combat destroyed the tallied bomber",
                        tallied,
                    ),
                ]
    contacts = [
        c for c in state.counters if c.status is Status.ON_MAP and (c.tallied_by or c.ai_fixed_by)
    ]
    if contacts:
        variants = [
            {"fighter": one_of(sorted({*c.tallied_by, *c.ai_fixed_by})), "hex": one_of([c.hex])}
            for c in contacts
        ]
        out.append(offer_each(BreakContact, cite("S16.0"), "Give up a tally or AI fix", variants))
    # After combat the next turn begins.
    after = f": turn {state.turn + 1} begins" if state.phase is Phase.COMBAT else ""
    text = f"End the {LABELS.words('phase', state.phase)} phase{after}{ending}"
    end = offer(EndPhase, RULE_SEQUENCE, text)
    # The phase's own step is next while it is listed; then its end (the sequence of play).
    out.append(end if any(a.next for a in out) else as_next(end))
    return out


def _opening() -> list[Action]:
    """Before turn 1 (turn 0, the state a game recorded before v9 opens in; a new one opens
    at turn 1's bomber movement): the first real step, turn 1's
    bomber movement, which MoveBombers begins (README ledger "the opening"). No counter is
    on the map, none accelerates and no fix is handed off. EndPhase, every game's first
    command before v8, still begins turn 1 and stops at its bomber movement."""
    text = "Turn 1 begins: move and enter the bomber counters (the bombers move first)"
    moves = offer(
        MoveBombers, cite("S7.0"), text, accelerate={"maxItems": 0}, handoff_dice=one_of([0])
    )
    begin = "Begin turn 1 and stop at its bomber movement (MoveBombers does both at once)"
    return [as_next(moves), offer(EndPhase, RULE_SEQUENCE, begin)]


def actions(state: State, role: Role) -> list[Action]:
    """The player's commands in the current phase (and a campaign's, if one is played)."""
    out = _phase_actions(state)
    if state.setup.campaign == "full":
        # CAMPAIGN MODIFICATIONS: cards drawn through the night, a roll after each.
        out += [
            offer(DrawScenarioCard, RULE_CAMPAIGN, "Draw a scenario card"),
            offer(RollNightContinuation, RULE_CAMPAIGN, "Roll whether the night continues"),
            offer(EndCampaignWeek, RULE_CAMPAIGN, "End the campaign week"),
        ]
    elif state.setup.campaign != "none":
        # Pilot Campaign: the week's rolls decide its one scenario.
        out += [
            offer(RollCampaignWeek, RULE_PILOT_CAMPAIGN, "Roll the campaign week"),
            offer(EndCampaignWeek, RULE_PILOT_CAMPAIGN, "End the campaign week"),
        ]
    return out
