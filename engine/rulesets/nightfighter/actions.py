"""The commands the player may send now (engine/actions.py), by the phase of the turn.

Seed 004_c3eb2ad371d7bb6a.txt, in the order of the EXAMPLE OF PLAY: bomber movement (the
umpire moves the bombers, S7.0/S8.0), nightfighter movement (S3.0), radar search (S13.0;
Serrate in scenario 7), AI radar (S19.0), searchlights (S14.0), tally (S10.0, S15.0) and
combat (S17.0); every phase but the first ends with `EndPhase`. Campaign commands
(CAMPAIGN MODIFICATIONS) whenever a campaign is played.

Nothing in the state is secret (state.py), so fields are narrowed freely: bomber counters
to their hexes on the map, fighters to those on it, searchlight searches per zone to the
counters in it. A fighter's move is offered as each straight line it can fly this turn
(those leaving the map with `exit`), and as any path of adjacent hexes within its MPs.
"""

from __future__ import annotations

from typing import Any

from umpire.engine.actions import Action, Schema, offer, offer_each, one_of
from umpire.engine.hexgrid import Hex
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter.campaign import (
    RULE as RULE_CAMPAIGN,
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
)
from umpire.engine.rulesets.nightfighter.geometry import grid_of, off_grid
from umpire.engine.rulesets.nightfighter.serrate import FocusedSerrate, RevealCounter, SerrateSearch
from umpire.engine.rulesets.nightfighter.setup import Fighter, modification
from umpire.engine.rulesets.nightfighter.state import FighterState, State
from umpire.engine.rulesets.nightfighter.terms import RULE_SEQUENCE, Phase, Status, cite

RULE_MOVE = cite("S3.0")


def _counter_hexes(state: State) -> list[str]:
    return sorted(c.hex for c in state.counters if c.status is Status.ON_MAP and c.hex)


def _on_map(state: State) -> list[FighterState]:
    return [f for f in state.fighters if f.hex]


def _lines(state: State, fighter: FighterState, spec: Fighter) -> tuple[list[Any], list[Any]]:
    """Straight paths of 1 to max_mp hexes from the fighter: (on the map, leaving it)."""
    grid, free = grid_of(state.setup), off_grid(state.setup)
    stay: list[Any] = []
    leave: list[Any] = []
    for direction in range(6):
        here, path = Hex.parse(fighter.hex), []
        for _ in range(spec.max_mp):
            here = free.neighbour(here, direction)
            path.append(here.label)
            if not grid.contains(here):
                leave.append(list(path))
                break
            stay.append(list(path))
    return stay, leave


def _moves(state: State) -> list[dict[str, Schema]]:
    """MoveFighter variants: straight lines (staying, or leaving with exit), and any
    path within the fighter's MPs (checked step by step by the rules, S3.0)."""
    variants: list[dict[str, Schema]] = []
    grid = grid_of(state.setup)
    for f in _on_map(state):
        spec = next((s for s in state.setup.fighters if s.id == f.id), None)
        if spec is None or f.moved:
            continue
        stay, leave = _lines(state, f, spec)
        me = one_of([f.id])
        if stay:
            variants.append({"fighter": me, "path": _paths(stay), "exit": one_of([False])})
        if leave:
            variants.append({"fighter": me, "path": _paths(leave), "exit": one_of([True])})
        reach = grid.within(Hex.parse(f.hex), spec.max_mp)
        variants.append(
            {
                "fighter": me,
                "path": {"items": one_of(h.label for h in reach), "maxItems": spec.max_mp},
            }
        )
    return variants


def _paths(paths: list[Any]) -> Schema:
    """An enum of whole paths (lists of hex labels)."""
    return {"enum": paths}


def _phase_actions(state: State) -> list[Action]:
    hexes = _counter_hexes(state)
    fighters = [f.id for f in _on_map(state)]
    out: list[Action] = []
    match state.phase:
        case Phase.BOMBER_MOVEMENT:
            ids = [c.id for c in state.counters if c.status is Status.ON_MAP]
            accelerate = {"items": one_of(ids)} if ids else {"maxItems": 0}
            text = "Move and enter the bomber counters"
            return [offer(MoveBombers, cite("S7.0"), text, accelerate=accelerate)]
        case Phase.FIGHTER_MOVEMENT:
            moves = _moves(state)
            if moves:
                text = "Move a nightfighter hex by hex"
                out.append(offer_each(MoveFighter, RULE_MOVE, text, moves))
        case Phase.RADAR_SEARCH if hexes and state.setup.radars:
            radars = [r.name for r in state.setup.radars]
            searches = {
                "items": {"properties": {"radar": one_of(radars), "hex": one_of(hexes)}},
                "maxItems": len(radars),
            }
            text = "Place the phase's radar search counters"
            out.append(offer(PlaceRadarSearches, cite("S13.0"), text, searches=searches))
            if modification(state.setup, "7") and not state.serrate_used and fighters:
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
            searchers = [f.id for f in _on_map(state) if not f.ai_searched]
            if searchers:
                text = "An AI search by a nightfighter"
                out.append(
                    offer(
                        SearchAI, cite("S19.0"), text, fighter=one_of(searchers), hex=one_of(hexes)
                    )
                )
        case Phase.SEARCHLIGHT:
            zones = [
                {"zone": one_of([z.name]), "hex": one_of(h for h in hexes if h in z.hexes)}
                for z in state.setup.zones
                if z.active and any(h in z.hexes for h in hexes)
            ]
            if zones:
                text = "A searchlight zone searches a bomber counter in it"
                out.append(offer_each(SearchSearchlight, cite("S14.0"), text, zones))
        case Phase.TALLY if hexes and fighters:
            text = "A tally attempt by a nightfighter"
            out.append(
                offer(
                    AttemptTally, cite("S10.0"), text, fighter=one_of(fighters), hex=one_of(hexes)
                )
            )
        case Phase.COMBAT if hexes and fighters:
            pick = {"fighter": one_of(fighters), "hex": one_of(hexes)}
            out += [
                offer(RollBomberResponse, cite("S17.0"), "A tallied bomber's response", **pick),
                offer(Corkscrew, cite("S17.0"), "The bomber corkscrews", **pick),
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
    out.append(offer(EndPhase, RULE_SEQUENCE, f"End the {state.phase.value} phase"))
    return out


def actions(state: State, role: Role) -> list[Action]:
    """The player's commands in the current phase (and a campaign's, if one is played)."""
    out = _phase_actions(state)
    if state.setup.campaign != "none":
        out += [
            offer(RollCampaignWeek, RULE_CAMPAIGN, "Roll the campaign week"),
            offer(DrawScenarioCard, RULE_CAMPAIGN, "Draw a scenario card"),
            offer(RollNightContinuation, RULE_CAMPAIGN, "Roll whether the night continues"),
            offer(EndCampaignWeek, RULE_CAMPAIGN, "End the campaign week"),
        ]
    return out
