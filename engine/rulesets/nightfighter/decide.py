"""decide: check a command against the rules and the state, and run the umpire's procedures.

Phases run in the order of the example of play (004_c3eb2ad371d7bb6a.txt EXAMPLE OF PLAY):
bomber movement (S7.0, S8.0), nightfighter movement, radar search (S13.0), AI radar
(S19.0), searchlights (S14.0), tally (S10.0, S15.0), combat (S17.0).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec import Struct

from umpire.engine.errors import RuleError
from umpire.engine.hexgrid import Hex
from umpire.engine.kit.decider import decider
from umpire.engine.kit.dispatch import Dispatch
from umpire.engine.rulesets.nightfighter import (
    ai_search,
    campaign,
    combat,
    searchlights,
    serrate,
    tally,
)
from umpire.engine.rulesets.nightfighter import commands as cmd
from umpire.engine.rulesets.nightfighter.events import (
    FighterMoved,
    MarkersLost,
    PhaseBegan,
    TurnStarted,
)
from umpire.engine.rulesets.nightfighter.geometry import (
    ai_search_area,
    distance,
    facing_said,
    grid_of,
    off_grid,
)
from umpire.engine.rulesets.nightfighter.labels import LABELS
from umpire.engine.rulesets.nightfighter.movement import move_bombers
from umpire.engine.rulesets.nightfighter.pacing import MOST_PHASES, runs_on
from umpire.engine.rulesets.nightfighter.radar_search import end_radar_phase, place_radar_searches
from umpire.engine.rulesets.nightfighter.scenario_rules import victory
from umpire.engine.rulesets.nightfighter.state import State, fighter_by_id
from umpire.engine.rulesets.nightfighter.terms import (
    PHASE_ORDER,
    RULE_SEQUENCE,
    Marker,
    Phase,
    Status,
    cite,
)
from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn
from umpire.events.plurals import counted
from umpire.events.types import GameEnded, Winner

RULE_MOVE = cite("S3.0 (the player moves the nightfighters on the player's map)")
RULE_END = cite("EXAMPLE OF PLAY turn 13 (the last fighter exits: the game ends)")


def begin_turn(turn: NightfighterTurn) -> None:
    """The next turn begins, at its bomber movement (after combat, or at the opening)."""
    nxt = turn.state.turn + 1
    turn.emit(
        TurnStarted(
            rule=RULE_SEQUENCE,
            turn=nxt,
            explanation=f"turn {nxt} begins; S5.5 exclusions are cleared",
        )
    )


def _move_bombers(turn: NightfighterTurn, command: cmd.MoveBombers) -> None:
    """S7.0/S8.0. A game opens at turn 1's bomber movement (v9). One recorded before v9
    opened at turn 0 (evolve.opened_under): there MoveBombers begins turn 1 and moves the
    bombers in one batch (v8; v7 took an EndPhase first)."""
    if turn.state.turn == 0:
        begin_turn(turn)
    move_bombers(turn, command)


def end_phase(turn: NightfighterTurn) -> None:
    """End the current phase and begin the next (after combat, the next turn)."""
    state = turn.state
    if state.phase is Phase.BOMBER_MOVEMENT:
        raise RuleError(
            "the bomber movement phase ends when the umpire moves the bombers (MoveBombers)",
            rule=cite("S7.0"),
        )
    if state.phase is Phase.COMBAT:
        begin_turn(turn)
        return
    if state.phase is Phase.FIGHTER_MOVEMENT:
        _contacts_kept(turn)
    if state.phase is Phase.RADAR_SEARCH:
        end_radar_phase(turn)
    nxt = PHASE_ORDER[PHASE_ORDER.index(state.phase) + 1]
    turn.emit(
        PhaseBegan(rule=RULE_SEQUENCE, phase=nxt, explanation=f"{LABELS.words('phase', nxt)} phase")
    )


def _contacts_kept(turn: NightfighterTurn) -> None:
    """After the fighters move, a tally is kept only within the setup's keep range and an
    AI fix only inside the fighter's AI search area (base game; README interpretation).
    Every check reads the state the phase ended in."""
    state = turn.state
    for counter in state.counters:
        if counter.status is not Status.ON_MAP:
            continue
        for fighter_id in sorted(set(counter.tallied_by) | set(counter.ai_fixed_by)):
            fighter = fighter_by_id(state, fighter_id)
            spec = next(f for f in state.setup.fighters if f.id == fighter_id)
            lost: list[Marker] = []
            if fighter_id in counter.tallied_by and (
                fighter is None
                or not fighter.hex
                or distance(state.setup, fighter.hex, counter.hex) > state.setup.tally_keep_range
            ):
                lost.append(Marker.TALLY)
            if fighter_id in counter.ai_fixed_by and (
                fighter is None
                or counter.hex
                not in ai_search_area(state.setup, fighter, spec.ai_range, spec.ai_arc)
            ):
                lost.append(Marker.AI_FIX)
            if lost:
                turn.emit(
                    MarkersLost(
                        rule=cite("S16.0"),
                        counter=counter.id,
                        lost=tuple(lost),
                        fighters=(fighter_id,),
                        explanation=f"{fighter_id} is out of contact with {counter.id}",
                    )
                )


def move_fighter(turn: NightfighterTurn, command: cmd.MoveFighter) -> None:
    """Move a nightfighter: each hex adjacent to the last, at most its MPs a turn."""
    state = turn.state
    if state.phase is not Phase.FIGHTER_MOVEMENT:
        raise RuleError(
            f"nightfighters move in the fighter movement phase "
            f"(now {LABELS.words('phase', state.phase)})",
            rule=RULE_MOVE,
        )
    fighter = fighter_by_id(state, command.fighter)
    spec = next((f for f in state.setup.fighters if f.id == command.fighter), None)
    if fighter is None or spec is None:
        raise RuleError(f"no nightfighter {command.fighter!r}", rule=RULE_MOVE)
    if not fighter.hex:
        raise RuleError(f"{fighter.id} has left the map", rule=RULE_MOVE)
    if fighter.moved:
        raise RuleError(f"{fighter.id} has already moved this turn", rule=RULE_MOVE)
    if len(command.path) > spec.max_mp:
        raise RuleError(
            f"{fighter.id} has {spec.max_mp} MPs, not {len(command.path)}", rule=RULE_MOVE
        )
    grid, free = grid_of(state.setup), off_grid(state.setup)
    here = Hex.parse(fighter.hex)
    for i, label in enumerate(command.path):
        step = Hex.parse(label)
        if free.direction_to(here, step) is None:
            raise RuleError(
                f"{fighter.id} may move only to an adjacent hex: {label} is not next to "
                f"{here.label}",
                rule=RULE_MOVE,
            )
        last = i == len(command.path) - 1
        if not grid.contains(step) and not (last and command.exit):
            raise RuleError(f"{label} is off the map (use exit to leave it)", rule=RULE_MOVE)
        here = step
    to_hex = "" if command.exit else here.label
    if command.exit and grid.contains(here):
        raise RuleError("an exit must end off the map", rule=RULE_MOVE)
    out: list[Struct] = [
        FighterMoved(
            rule=RULE_MOVE,
            fighter=fighter.id,
            path=command.path,
            to_hex=to_hex,
            facing=command.facing,
            explanation=f"{fighter.id} moves {'-'.join(command.path) or 'nowhere'}"
            + (
                " and leaves the map"
                if command.exit
                else f", facing {facing_said(state.setup, to_hex, command.facing)}"
            ),
        )
    ]
    others_gone = all(not f.hex for f in state.fighters if f.id != fighter.id)
    if command.exit and others_gone and state.setup.campaign == "none":
        out.append(game_end(state))
    turn.emit_all(out)


def game_end(state: State) -> GameEnded:
    """Example of play, turn 13: the last nightfighter leaving the map ends the game. Its
    victory condition is bombers shot down (S17.0 reports them): where the seed states the
    scenario's (scenario_rules.VICTORY, 4B: one Lancaster), the player wins on reaching it
    and loses short of it (turn 13: "fallen just short of the victory condition"); where
    none is stated, who won is the base game's scoring, which umpire does not keep (README
    ledger "end of game")."""
    down = sorted({c.bomber for c in state.counters if c.status is Status.SHOT_DOWN})
    result = "every nightfighter has left the map"
    if down:
        result += f"; bombers shot down: {', '.join(down)}"
    stated = victory(state.setup)
    if stated is None:
        return GameEnded(result=result, rule=RULE_END, winner=Winner.NONE_STATED)
    need, rule = stated
    met = len(down) >= need
    said = f"shoot down {counted(need, 'bomber')}"
    result += f"; the scenario's victory condition ({said}) is {'met' if met else 'not met'}"
    return GameEnded(result=result, rule=rule, winner=Winner.PLAYER if met else Winner.OPPONENT)


def _end_phase(turn: NightfighterTurn, command: cmd.EndPhase) -> None:
    end_phase(turn)


# Command type -> the procedure that decides it with a Turn, in the order the commands are
# listed.
DISPATCH: Dispatch[Callable[[NightfighterTurn, Any], None]] = Dispatch(
    {
        cmd.EndPhase: _end_phase,
        cmd.MoveBombers: _move_bombers,
        cmd.MoveFighter: move_fighter,
        cmd.PlaceRadarSearches: place_radar_searches,
        cmd.SearchAI: ai_search.search,
        cmd.SearchSearchlight: searchlights.search,
        cmd.AttemptTally: tally.attempt,
        cmd.RollBomberResponse: combat.response,
        cmd.Corkscrew: combat.corkscrew,
        cmd.BreakContact: combat.break_contact,
        cmd.ShootDown: combat.shoot_down,
        campaign.RollCampaignWeek: campaign.roll_week,
        campaign.DrawScenarioCard: campaign.draw_card,
        campaign.RollNightContinuation: campaign.night_continues,
        campaign.EndCampaignWeek: campaign.end_week,
        serrate.SerrateSearch: serrate.general,
        serrate.FocusedSerrate: serrate.focused,
        serrate.RevealCounter: serrate.reveal_by_sight,
    },
    rule=RULE_SEQUENCE,
)


def run_on(turn: NightfighterTurn) -> None:
    """README "Pace": end each phase in which the player has nothing to decide, up to the
    next point where the player must act (not after the game has ended)."""
    if any(isinstance(e, GameEnded) for e in turn.events):
        return
    for _ in range(MOST_PHASES):
        if not runs_on(turn.state):
            return
        end_phase(turn)


# The events a command causes (RuleError when the rules do not allow it); README "Pace".
decide = decider(DISPATCH, NightfighterTurn, end=run_on)
