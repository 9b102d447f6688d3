"""evolve: fold one event into the state. Total (unknown events leave it unchanged)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec import Struct
from msgspec.structs import replace

from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.board import board_of
from umpire.engine.rulesets.downtown.state import (
    AaaFire,
    AaaUnit,
    DrvFlight,
    FireCan,
    OrderedAttack,
    Sam,
    SiteUse,
    State,
)
from umpire.engine.rulesets.downtown.terms import AcqLevel, AttackRoll, Phase, SamStatus


def _sam(state: State, sam_id: str, **changes: object) -> State:
    return replace(
        state, sams=tuple(replace(s, **changes) if s.id == sam_id else s for s in state.sams)
    )


def _drv(state: State, flight_id: str, **changes: object) -> State:
    return replace(
        state, drv=tuple(replace(f, **changes) if f.id == flight_id else f for f in state.drv)
    )


def _fire_can(state: State, can_id: str, **changes: object) -> State:
    cans = tuple(replace(f, **changes) if f.id == can_id else f for f in state.fire_cans)
    return replace(state, fire_cans=cans)


def _aaa(state: State, unit_id: str, **changes: object) -> State:
    return replace(
        state, aaa=tuple(replace(a, **changes) if a.id == unit_id else a for a in state.aaa)
    )


def _radar(state: State, unit_id: str, on: bool) -> State:
    """A SAM's or a Fire Can's radar switched on or off (the unit's id says which)."""
    if unit_id.startswith("SAM"):
        return _sam(state, unit_id, radar_on=on)
    return _fire_can(state, unit_id, radar_on=on)


def _strike(state: State, site: str) -> State:
    uses = {u.hex: u.strikes for u in state.site_uses}
    uses[site] = uses.get(site, 0) + 1
    return replace(
        state, site_uses=tuple(SiteUse(hex=h, strikes=n) for h, n in sorted(uses.items()))
    )


def _begin(state: State, event: ev.PhaseBegan) -> State:
    changes: dict[str, object] = {"phase": event.phase, "turn": event.turn}
    if event.phase is Phase.MOVEMENT:
        changes.update(
            movement_phases=state.movement_phases + 1,
            takeoff_checked=False,
            phase_near=(),
            phase_events=(),
            drv_moved=(),
            ordered_attacks=(),
            aaa_fire=(),
            us_mp=(),
            sams=tuple(replace(s, fired=False, inhibited=()) for s in state.sams),
            fire_cans=tuple(replace(f, fired=False) for f in state.fire_cans),
        )
    if event.phase is Phase.ADMIN:
        changes["admin_parents"] = ()
    return replace(state, **changes)


def evolve(state: State, event: Struct) -> State:
    """The state after `event`: the step of its type (`_STEPS`), one dict lookup; an event
    with no step (a universal one, DiceRolled on every roll) leaves the state as it is."""
    step = _STEPS.get(type(event))
    return state if step is None else step(state, event)


def _us_reported(state: State, event: ev.UsFlightsReported) -> State:
    was = {f.id: f.hex for f in state.us}
    state = _aaa_fire_moved_on(state, {f.id for f in event.flights if was.get(f.id) != f.hex})
    return replace(
        state,
        us=event.flights,
        preemptive_arms=event.preemptive_arms,
        us_entered=tuple(sorted({*state.us_entered, *(f.id for f in event.flights if f.on_map)})),
    )


def _us_moved(state: State, event: ev.UsFlightMoved) -> State:
    us = tuple(
        replace(f, hex=event.hex, altitude=event.altitude, facing=event.facing)
        if f.id == event.flight_id
        else f
        for f in state.us
    )
    state = replace(state, us=us, us_mp=tuple(sorted((*state.us_mp, event.flight_id))))
    return _aaa_fire_moved_on(state, {event.flight_id})


def _aaa_fire_moved_on(state: State, flights: set[str]) -> State:
    """2.1.7 (README ledger): a flight that spends a Movement Point (or is reported in a
    new hex) may meet each AAA concentration's attack again; the Flak Damage rolls of the
    attacks made still follow."""
    kept = tuple(replace(f, attacks=0) if f.flight_id in flights else f for f in state.aaa_fire)
    return replace(state, aaa_fire=kept)


def _aaa_attacked(state: State, unit_id: str, flight_id: str) -> State:
    """A AAA concentration's attack roll on a flight (2.1.7, README ledger)."""
    old = next(
        (f for f in state.aaa_fire if (f.unit_id, f.flight_id) == (unit_id, flight_id)),
        AaaFire(unit_id=unit_id, flight_id=flight_id),
    )
    new = replace(old, attacks=old.attacks + 1, attacked=True)
    rest = [f for f in state.aaa_fire if (f.unit_id, f.flight_id) != (unit_id, flight_id)]
    return replace(
        state, aaa_fire=tuple(sorted((*rest, new), key=lambda f: (f.unit_id, f.flight_id)))
    )


def _aaa_purchased(state: State, event: ev.AaaPurchased) -> State:
    return replace(state, aaa_pool=event.pool_densities, aaa_hidden_count=event.hidden_count)


def _aaa_placed(state: State, event: ev.AaaPlaced) -> State:
    remaining = list(state.aaa_pool)
    if event.from_pool and event.density in remaining:
        remaining.remove(event.density)
    unit = AaaUnit(
        id=event.unit_id, hex=event.hex, density=event.density, printed=not event.from_pool
    )
    return replace(
        state, aaa=(*state.aaa, unit), aaa_pool=tuple(remaining), next_id=state.next_id + 1
    )


def _aaa_suppression(state: State, event: ev.AaaSuppressionRolled) -> State:
    if not event.removed:
        return state
    return _aaa(state, event.unit_id, suppressed=False)


def _fire_can_placed(state: State, event: ev.FireCanPlaced) -> State:
    aaa = tuple(
        replace(a, fire_cans=a.fire_cans + 1) if a.id == event.aaa_id else a for a in state.aaa
    )
    can = FireCan(id=event.unit_id, hex=event.hex)
    return replace(
        state,
        fire_cans=(*state.fire_cans, can),
        aaa=aaa,
        hidden_fire_cans=max(0, state.hidden_fire_cans - 1),
        next_id=state.next_id + 1,
    )


def _radar_restart(state: State, event: ev.RadarRestartRolled) -> State:
    return _radar(state, event.unit_id, on=True) if event.back_on else state


def _sam_set_up(state: State, event: ev.SamSetUp) -> State:
    sam = Sam(id=event.sam_id, hex=event.hex)
    return replace(state, sams=(*state.sams, sam), next_id=state.next_id + 1)


def _sam_placed(state: State, event: ev.SamPlaced) -> State:
    sam = Sam(id=event.sam_id, hex=event.hex, status=SamStatus.ACTIVE, radar_on=True, warning=True)
    state = _strike(state, event.site)
    return replace(
        state,
        sams=(*state.sams, sam),
        hidden_sams=max(0, state.hidden_sams - 1),
        next_id=state.next_id + 1,
    )


def _acquisition_decided(state: State, event: ev.SamAcquisitionDecided) -> State:
    if event.action == "acquire":
        return _sam(state, event.sam_id, target=event.target, level=AcqLevel.NONE)
    if event.action == "drop":
        return _sam(state, event.sam_id, target="", level=AcqLevel.NONE, launch=False)
    return state


def _acquisition_reported(state: State, event: ev.AcquisitionReported) -> State:
    level = AcqLevel(event.level)
    target = event.flight_id if level is not AcqLevel.NONE else ""
    return _sam(state, event.sam_id, target=target, level=level, launch=event.launch)


def _sam_reacted(state: State, event: ev.SamReacted) -> State:
    if event.fire == "nothing":
        return state
    sam = next(s for s in state.sams if s.id == event.sam_id)
    state = _order(state, event.sam_id, event.flight_id, event.rule)
    return _sam(
        state,
        event.sam_id,
        fired=True,
        shots=sam.shots + 1,
        option=event.option,
        spent=sam.spent + event.missiles,
        last_fired=event.missiles,
    )


def _order(state: State, unit_id: str, flight_id: str, rule: str) -> State:
    """`unit_id` ordered to attack `flight_id`, at the range between them now (3.4.4: the
    SAM fires as the flight spends that Movement Point); a new order for the same unit and
    flight replaces the last (a 4.1.2 Fire Can may fire again at a mover, 2.3.1). Both are
    on the map when `decide` orders it; evolve stays total if a log says otherwise."""
    units = [(f.id, f.hex) for f in state.fire_cans] + [(s.id, s.hex) for s in state.sams]
    unit_hex = next((h for i, h in units if i == unit_id), None)
    flight = next((f for f in state.us if f.id == flight_id), None)
    if unit_hex is None or flight is None:
        return state
    reach = board_of(state.setup.map).dist(unit_hex, flight.hex)
    order = OrderedAttack(unit_id=unit_id, flight_id=flight_id, range=reach, rule=rule)
    kept = [o for o in state.ordered_attacks if (o.unit_id, o.flight_id) != (unit_id, flight_id)]
    ordered = tuple(sorted((*kept, order), key=lambda o: (o.unit_id, o.flight_id)))
    return replace(state, ordered_attacks=ordered)


_ATTACKS = (AttackRoll.SAM_ATTACK.value, AttackRoll.FIRE_CAN_ATTACK.value)


def _drv_attack(state: State, event: ev.DrvAttackRolled) -> State:
    if event.kind == AttackRoll.AAA_ATTACK.value:
        # 2.1.7 (README ledger): counted against the bound; its Flak Damage rolls may follow.
        state = _aaa_attacked(state, event.unit_id, event.flight_id)
    if event.kind in _ATTACKS:
        # The ordered attack is rolled: play goes on (its damage roll may follow).
        key = (event.unit_id, event.flight_id)
        state = replace(
            state,
            ordered_attacks=tuple(
                replace(o, waiting=False) if (o.unit_id, o.flight_id) == key else o
                for o in state.ordered_attacks
            ),
        )
    return replace(
        state,
        phase_events=_add(state.phase_events, event.flight_id)
        if event.random_event
        else state.phase_events,
    )


def _stand_down_inhibited(state: State) -> State:
    """4.1.1: an inhibited SAM's attack "does not take place": an order of it that was
    still waiting for its roll no longer waits."""
    inhibited = {s.id for s in state.sams if s.option and s.option in s.inhibited}
    return replace(
        state,
        ordered_attacks=tuple(
            replace(o, waiting=False) if o.waiting and o.unit_id in inhibited else o
            for o in state.ordered_attacks
        ),
    )


def _add(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    return items if item in items else tuple(sorted((*items, item)))


def _dummy(state: State, event: ev.SamDummyChecked) -> State:
    if event.outcome == "removed":
        state = replace(
            state,
            dummies_found=state.dummies_found + 1,
            dummies_generated=state.dummies_generated + 1,
        )
        return _sam(
            state,
            event.sam_id,
            status=SamStatus.REMOVED,
            radar_on=False,
            target="",
            level=AcqLevel.NONE,
        )
    if event.outcome == "possible_dummy":
        return _sam(state, event.sam_id, possible_dummy=True)
    if event.outcome == "dummy_radar":
        state = replace(state, dummy_radars_generated=state.dummy_radars_generated + 1)
        return _sam(
            state,
            event.sam_id,
            status=SamStatus.ACTIVE,
            radar_on=True,
            possible_dummy=False,
            dummy_radar=True,
        )
    if event.outcome == "passes":
        return _sam(state, event.sam_id, dummy_radar=False)
    return _sam(state, event.sam_id, status=SamStatus.ACTIVE, radar_on=True, possible_dummy=False)


def _random_event(state: State, event: ev.RandomEventRolled) -> State:
    state = replace(state, phase_events=_add(state.phase_events, event.flight_id))
    if event.sam_id and event.inhibited:
        sam = next(s for s in state.sams if s.id == event.sam_id)
        # 4.1.1: an inhibited attack "doesn't expend any ammo": its missiles come back.
        state = _sam(
            state,
            event.sam_id,
            inhibited=tuple(sorted({*sam.inhibited, *event.inhibits})),
            spent=max(0, sam.spent - sam.last_fired),
            last_fired=0,
        )
        if event.converted:
            state = replace(state, dummy_radars_generated=state.dummy_radars_generated + 1)
            state = _sam(state, event.sam_id, dummy_radar=True)
    elif event.inhibits:
        for sam in state.sams:
            if sam.target == event.flight_id:
                state = _sam(
                    state, sam.id, inhibited=tuple(sorted({*sam.inhibited, *event.inhibits}))
                )
    return _stand_down_inhibited(state)


def _decision(state: State, event: ev.DecisionMade) -> State:
    if event.topic == "takeoff_check":
        return replace(state, takeoff_checked=True)
    if event.topic == "attack_ordered" and event.order:
        # 4.1.2 "resolve a ... attack on the moving flight": that attack is the placed
        # unit's fire this Movement Phase: a Fire Can fires at the first flight to move
        # within range (2.3.1), and a SAM that has attacked is no longer "unfired" (3.4.4).
        state = _order(state, event.result, event.order[0], event.rule)
        if any(s.id == event.result for s in state.sams):
            sam = next(s for s in state.sams if s.id == event.result)
            # 4.1.2 (b): the LOAL attack's missile is spent, as a reaction's are (3.4.5).
            return _sam(
                state,
                event.result,
                fired=True,
                shots=sam.shots + 1,
                spent=sam.spent + event.missiles,
                last_fired=event.missiles,
            )
        return _fire_can(state, event.result, fired=True)
    if event.topic == "fire_can_fires":
        if event.order:
            state = _order(state, event.result, event.order[0], event.rule)
        return _fire_can(state, event.result, fired=True)
    if event.topic == "near_flight":
        return replace(state, phase_near=_add(state.phase_near, event.result))
    if event.topic == "aaa_suppressed":
        return _aaa(state, event.result, suppressed=True)
    if event.topic == "radar_off":
        return _radar(state, event.result, on=False)
    if event.topic in ("sam_dropped_inhibited", "sam_out_of_ammo"):
        return _sam(state, event.result, fired=True)
    return state


def _drv_generated(state: State, event: ev.DrvFlightGenerated) -> State:
    flight = DrvFlight(
        id=event.flight_id,
        hex=event.hex,
        altitude=event.altitude,
        facing=event.facing,
        ready=event.ready,
        profile=event.profile,
    )
    parents = state.admin_parents
    if event.parent:
        parents = _add(parents, event.parent)
    return replace(
        state, drv=(*state.drv, flight), next_id=state.next_id + 1, admin_parents=parents
    )


def _drv_removed(state: State, event: ev.DrvFlightRemoved) -> State:
    return replace(state, drv=tuple(f for f in state.drv if f.id != event.flight_id))


def _profile_assigned(state: State, event: ev.FlightProfileAssigned) -> State:
    return _drv(state, event.flight_id, profile=event.aircraft)


def _activation_checked(state: State, event: ev.ActivationChecked) -> State:
    if event.real and event.reason == "detection":
        return _drv(state, event.flight_id, detected=True)
    return state


def _visual_identified(state: State, event: ev.VisualIdentified) -> State:
    state = _drv(
        state,
        event.flight_id,
        visual_id=True,
        detected=True,
        aircraft=event.aircraft,
        count=event.count,
    )
    limit = state.vid_limit - 1 if state.vid_limit > 0 else state.vid_limit
    if event.note == "£":
        limit = 1
    return replace(
        state,
        visual_ids=state.visual_ids + 1,
        vid_limit=limit,
        no_more_flights=state.no_more_flights or event.note == "†",
    )


def _drv_moved(state: State, event: ev.DrvFlightMoved) -> State:
    state = replace(state, drv_moved=_add(state.drv_moved, event.flight_id))
    return _drv(
        state,
        event.flight_id,
        hex=event.hex,
        altitude=event.altitude,
        facing=event.facing,
        status=event.status,
        fuel=event.fuel,
        ready=False,
    )


def _drv_reported(state: State, event: ev.DrvFlightReported) -> State:
    return _drv(state, event.flight_id, status=event.status, fuel=event.fuel)


# Event type -> its step, in the order of the sequence of play as the chain of checks it
# replaces had them. Every other type (MovementIntent, the activation checks, DiceRolled
# and the other universal events) leaves the state unchanged. One lookup per event: the
# chain asked isinstance up to 26 times, on every roll of every command.
_STEPS: dict[type[Struct], Callable[[State, Any], State]] = {
    ev.PhaseBegan: _begin,
    ev.UsFlightsReported: _us_reported,
    ev.UsFlightMoved: _us_moved,
    ev.AaaPurchased: _aaa_purchased,
    ev.AaaPlaced: _aaa_placed,
    ev.AaaSuppressionRolled: _aaa_suppression,
    ev.FireCanPlaced: _fire_can_placed,
    ev.RadarRestartRolled: _radar_restart,
    ev.SamSetUp: _sam_set_up,
    ev.SamPlaced: _sam_placed,
    ev.SamDummyChecked: _dummy,
    ev.SamAcquisitionDecided: _acquisition_decided,
    ev.AcquisitionReported: _acquisition_reported,
    ev.SamReacted: _sam_reacted,
    ev.RandomEventRolled: _random_event,
    ev.DrvAttackRolled: _drv_attack,
    ev.DecisionMade: _decision,
    ev.DrvFlightGenerated: _drv_generated,
    ev.DrvFlightRemoved: _drv_removed,
    ev.FlightProfileAssigned: _profile_assigned,
    ev.ActivationChecked: _activation_checked,
    ev.VisualIdentified: _visual_identified,
    ev.DrvFlightMoved: _drv_moved,
    ev.DrvFlightReported: _drv_reported,
}
