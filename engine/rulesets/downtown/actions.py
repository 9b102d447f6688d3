"""The commands the player may send now (engine/actions.py), by the phase of the turn.

Seed 000_842c81c5c58bc2f6.txt. Pre-raid: DRV Ground Unit Deployment (2.1.4, 3.1.2), DRV
Radar (3.3), DRV Air Deployment (5.4.2). Each turn: Detection (5.2, 5.6.1), SAM
Acquisition (3.2.1, 3.3, 3.4.2), Movement (3.4.2, 3.4.4, 4, 5.4.4, 5.6, 5.8), then the
Admin Phase (2.1.5-5.4.5) opens the next turn. The US side (1.2.1) may be reported at any
time, base-game results on DRV units (2.1.7, 2.3.1) in any turn.

Fields are narrowed to the counters on the map (the player sees them all; the hidden
AAA pool and hidden SAM and Fire Can counts narrow nothing), US flight moves to one hex
(one Movement Point, 3.4.4), DRV rolls to the attacks allowed now (drv_attack); a reported
US flight's hex is any map hex, as `decide` takes it (1.2.1). No command
names a DRV flight's hex: the DRV moves itself (RunDrvMovement, 5.7).
"""

from __future__ import annotations

from functools import lru_cache

from umpire.engine.actions import Action, Schema, as_next, offer, offer_each, one_of
from umpire.engine.hexgrid import Hex, HexGrid
from umpire.engine.offers import sent_as
from umpire.engine.roles import Role
from umpire.engine.rulesets.downtown import commands as cmd
from umpire.engine.rulesets.downtown import decide, drv_air, drv_attack, solitaire_events
from umpire.engine.rulesets.downtown.aaa import R_ADMIN
from umpire.engine.rulesets.downtown.board import board_of
from umpire.engine.rulesets.downtown.labels import LABELS, hexes
from umpire.engine.rulesets.downtown.state import DrvFlight, Sam, State, UsFlight
from umpire.engine.rulesets.downtown.terms import (
    REPORT_PHASES,
    AcqLevel,
    Phase,
    SamStatus,
    cite,
)

R_US = cite("1.2.1")


def _ids(values: list[str]) -> Schema:
    return one_of(values)


def _pre_raid(state: State) -> list[Action]:
    """The pre-raid step of the phase: the next one (the sequence of play's)."""
    return [as_next(action) for action in _pre_raid_steps(state)]


def _pre_raid_steps(state: State) -> list[Action]:
    match state.phase:
        case Phase.GROUND_DEPLOYMENT:
            text = "Deploy the DRV ground units: AAA and SAMs"
            return [offer(cmd.DeployGroundUnits, cite("2.1.4"), text)]
        case Phase.DRV_RADAR:
            return [offer(cmd.CheckDrvRadar, cite("3.3"), "Check set-up SAM activation")]
        case Phase.AIR_DEPLOYMENT:
            text = "Report the Early Warning Level and DRV air placement"
            return [offer(cmd.DeployDrvAir, cite("5.4.2"), text)]
    return []


def _us_hexes(state: State) -> Schema:
    """Where a reported US flight may be: any hex of the map. 1.2.1: the player reports
    the US side as it stands, and the base game, not the seed, says where it can go, so
    `decide` takes any map hex and the offer is the same (the CLI summarises the list)."""
    return one_of(_labels(board_of(state.setup.map).grid))


@lru_cache(maxsize=16)
def _labels(grid: HexGrid) -> tuple[str, ...]:
    """Every hex label of `grid`, once per map: the listing is asked for on every command
    (engine/handling.py `check_allowed`), and a Downtown map has some 2,000 hexes to label."""
    cols, rows = range(grid.min_col, grid.max_col + 1), range(grid.min_row, grid.max_row + 1)
    return tuple(Hex(col, row).label for col in cols for row in rows)


def _one_report_each(state: State, hexes: Schema) -> Schema:
    """ReportUsFlights' `flights`: any map hex, and one report per flight (1.2.1: decide
    refuses an id twice), in the schema as far as JSON Schema can say it: no item twice,
    and each flight already reported at most once (a new id is the player's own word)."""
    once = [
        {"contains": {"properties": {"id": {"const": f.id}}}, "minContains": 0, "maxContains": 1}
        for f in state.us
    ]
    schema: Schema = {"items": {"properties": {"hex": hexes}}, "uniqueItems": True}
    return {**schema, "allOf": once} if once else schema


def _us_as_reported(f: UsFlight) -> Schema:
    values = {
        "id": f.id,
        "mission": f.mission.value,
        "task": f.task.value,
        "hex": f.hex,
        "altitude": f.altitude.value,
        "facing": f.facing,
        "detected": f.detected,
        "bomber": f.bomber,
        "on_map": f.on_map,
    }
    return sent_as(cmd.UsFlightReport, values)


def _us_restated(state: State) -> Schema:
    """1.2.1, issue 41 item 8: the ReportUsFlights that restates the US side as it stands
    (its flights in any order, each field as held, the same preemptive ARMs), which
    changes nothing: the listed schema's `not`."""
    n = len(state.us)
    flights: Schema = {"minItems": n, "maxItems": n}
    if n:
        flights["allOf"] = [{"contains": _us_as_reported(f)} for f in state.us]
    arms = state.preemptive_arms
    return {
        "properties": {"flights": flights, "preemptive_arms": {"const": arms}},
        "required": ["flights", *(["preemptive_arms"] if arms else [])],
    }


def _reports(state: State) -> list[Action]:
    hexes = _us_hexes(state)
    narrow = {"flights": _one_report_each(state, hexes)}
    text = "Report the US flights as they stand"
    out = [Action(cmd.ReportUsFlights, R_US, text, (narrow,), unless=_us_restated(state))]
    aaa = decide.reportable(state, "suppressed")
    radars = decide.reportable(state, "radar_off")
    variants = []
    if aaa:
        variants.append({"unit_id": _ids(aaa), "status": one_of(["suppressed"])})
    if radars:
        variants.append({"unit_id": _ids(radars), "status": one_of(["radar_off"])})
    if variants:
        text = "Report a AAA suppressed or a radar shut down"
        out.append(offer_each(cmd.ReportUnitStatus, cite("2.1.7"), text, variants))
    return out


def _active_sams(state: State) -> list[str]:
    return [s.id for s in state.sams if s.status is SamStatus.ACTIVE]


def _count(most: int) -> Schema:
    return {"type": "integer", "minimum": 1, "maximum": most}


def _unmoved(state: State) -> list[str]:
    return [f.id for f in state.drv if f.id not in state.drv_moved]


def _drv_as_it_is(f: DrvFlight) -> Schema:
    """The ReportDrvFlight that restates `f` (its status and fuel, not destroyed)."""
    values = {"flight_id": f.id, "status": f.status.value, "fuel": f.fuel, "destroyed": False}
    return sent_as(cmd.ReportDrvFlight, values)


def _drv_reports(state: State) -> list[Action]:
    if not state.drv or state.phase not in REPORT_PHASES:
        return []
    text = "Report a base-game result on a DRV flight (abort, disorder, fuel, destroyed)"
    # Issue 41 item 8: a result that restates a flight's status and fuel changes nothing.
    narrow = {"flight_id": _ids([f.id for f in state.drv])}
    unless = {"anyOf": [_drv_as_it_is(f) for f in state.drv]}
    return [Action(cmd.ReportDrvFlight, cite("5.9.1"), text, (narrow,), unless=unless)]


def _acquisition_as_held(sam: Sam) -> Schema | None:
    """The ReportAcquisitions that restate `sam`'s acquisition: its target at its level
    with its launch, or, with none, level none (any flight) with its launch; none where
    the SAM tries to acquire a flight it has not acquired (level none, target set)."""
    if sam.level is not AcqLevel.NONE:
        values = {
            "sam_id": sam.id,
            "flight_id": sam.target,
            "level": sam.level.value,
            "launch": sam.launch,
        }
    elif not sam.target:
        values = {"sam_id": sam.id, "level": AcqLevel.NONE.value, "launch": sam.launch}
    else:
        return None
    return sent_as(cmd.ReportAcquisition, values)


def _acquisitions(state: State, active: list[str], flights: Schema) -> Action:
    """3.4.2: an active SAM's base-game acquisition result, any but the one it holds."""
    held = [h for s in state.sams if s.id in active and (h := _acquisition_as_held(s)) is not None]
    return Action(
        cmd.ReportAcquisition,
        cite("3.4.2"),
        "Report a SAM's acquisition result",
        ({"sam_id": _ids(active), "flight_id": flights},),
        unless={"anyOf": held} if held else None,
    )


def _unchecked(state: State) -> list[str]:
    return [f.id for f in state.drv if not f.detected and not f.visual_id]


def _rolls(state: State) -> list[Action]:
    """4: the DRV attack and damage rolls allowed now (drv_attack.allowed), if any."""
    attacks = drv_attack.allowed(state, board_of(state.setup.map))
    if not attacks:
        return []
    variants = [
        {
            "unit_id": one_of([a.unit_id]),
            "flight_id": one_of([a.flight_id]),
            "kind": one_of([a.kind.value]),
        }
        for a in attacks
    ]
    # The attack play waits for is named first (drv_attack.roll_first).
    first = {
        (o.unit_id, o.flight_id) for o, _ in drv_attack.waiting(state, board_of(state.setup.map))
    }
    said = sorted(attacks, key=lambda a: (a.unit_id, a.flight_id) not in first)
    action = offer_each(cmd.RollDrvAttack, cite("4"), _rolls_said(said), variants)
    # An attack umpire ordered waits for its roll: play takes nothing else until then.
    return [as_next(action) if first else action]


# The rolls a listing names one by one; beyond, it counts them (the schema lists them all).
_NAMED_ROLLS = 4


def _rolls_said(attacks: list[drv_attack.Attack]) -> str:
    """What RollDrvAttack rolls now, by unit, roll, flight and range ("Roll SAM12's SAM
    attack on S1, ordered at 4 hexes"), not the command's general description."""
    said = []
    for a in attacks[:_NAMED_ROLLS]:
        away = hexes(a.range)
        where = f" ({away} away)" if a.rule == drv_attack.R_AAA else f", ordered at {away}"
        said.append(f"{a.unit_id}'s {LABELS.words('attack_roll', a.kind)} on {a.flight_id}{where}")
    more = len(attacks) - _NAMED_ROLLS
    return "Roll " + "; ".join(said) + (f"; or one of {more} more DRV rolls" if more > 0 else "")


def _movement(state: State) -> list[Action]:
    board = board_of(state.setup.map)
    us = [f.id for f in state.us]
    drv = [f.id for f in state.drv]
    out = []
    # 5.4.4: only the game turn's first chit of 1 or more checks for a take-off; a chit
    # after it, or a 0, changes nothing, and is not listed (issue 41 item 8).
    if not drv_air.takeoff_check_due(state):
        text = "A DRV initiative chit of 1 or more was picked: check for a take-off"
        out.append(offer(cmd.DrvChitPicked, cite("5.4.4"), text, value={"minimum": 1}))
    out.append(offer(cmd.RunAdminPhase, R_ADMIN, "End the Movement Phase: run the Admin Phase"))
    active = _active_sams(state)
    if us:
        flights = _ids(us)
        moves = [
            {
                "flight_id": one_of([f.id]),
                "hex": one_of(h.label for h in board.grid.within(Hex.parse(f.hex), 1)),
            }
            for f in state.us
        ]
        text = "A US flight spent one Movement Point"
        out.append(offer_each(cmd.MoveUsFlight, cite("3.4.4"), text, moves))
        # 4: the end-of-movement roll, for the flights it is due for (issue 41 item 8).
        due = [f.id for f in state.us if not solitaire_events.end_of_movement_due(state, board, f)]
        if due:
            text = "A US flight expended all its MP: its end-of-movement random event roll"
            out.append(offer(cmd.EndUsFlightMovement, cite("4"), text, flight_id=_ids(due)))
        out += _rolls(state)
        if active:
            out.append(_acquisitions(state, active, flights))
    # 5.8.2: no PlanDrvFlight: a flight's intent is read as it moves (decide.plan).
    if drv:
        left = _unmoved(state)
        if left:
            out.append(
                offer(
                    cmd.RunDrvMovement,
                    cite("5.7.2"),
                    f"The DRV flights move by themselves ({len(left)} yet to move)",
                    flights={"anyOf": [{"type": "null"}, _count(len(left))]},
                )
            )
        unidentified = [f.id for f in state.drv if not f.visual_id]
        if unidentified:
            out.append(
                offer(
                    cmd.IdentifyVisually,
                    cite("5.6.2"),
                    "A DRV flight joined combat",
                    flight_id=_ids(unidentified),
                )
            )
    return out


def actions(state: State, role: Role) -> list[Action]:
    """The player's commands in the current phase, then the reports of any turn; while an
    attack umpire ordered waits for its roll, the DRV rolls only (3.4.4, 4: `decide`
    refuses the rest, drv_attack.roll_first)."""
    if drv_attack.waiting(state, board_of(state.setup.map)):
        return _rolls(state)
    if state.phase in (Phase.GROUND_DEPLOYMENT, Phase.DRV_RADAR, Phase.AIR_DEPLOYMENT):
        # The US side may be reported before the raid too (1.2.1): `decide` takes it.
        return [*_pre_raid(state), *_reports(state)[:1]]
    out: list[Action] = []
    unchecked = _unchecked(state)
    if state.phase is Phase.DETECTION:
        detected = {"items": _ids([f.id for f in state.drv])} if state.drv else {"maxItems": 0}
        text = "Run the Detection Phase with the flights the US detected"
        out.append(as_next(offer(cmd.RunDetectionPhase, cite("5.2"), text, detected=detected)))
    elif state.phase is Phase.SAM_ACQUISITION:
        text = "Run the SAM Acquisition Phase"
        out.append(as_next(offer(cmd.RunSamAcquisitionPhase, cite("3.2.1"), text)))
    elif state.phase is Phase.MOVEMENT:
        out += _movement(state)
    if unchecked and state.phase in (Phase.DETECTION, Phase.MOVEMENT):
        out.append(
            offer(
                cmd.CheckActivation,
                cite("5.6.1"),
                "Make a DRV flight's activation check (targeted or detected)",
                flight_id=_ids(unchecked),
                reason=one_of(["targeted", "detection"]),
            )
        )
    return [*out, *_drv_reports(state), *_reports(state)]
