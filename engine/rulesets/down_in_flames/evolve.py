"""evolve: the state after one event (total, deterministic; unknown events change nothing)."""

from __future__ import annotations

from msgspec import UNSET, Struct, UnsetType
from msgspec.structs import replace

from umpire.engine.rulesets.down_in_flames import events as ev
from umpire.engine.rulesets.down_in_flames.pilot import apply_revealed
from umpire.engine.rulesets.down_in_flames.state import PendingAttack, Plane, State, position_key
from umpire.engine.rulesets.down_in_flames.terms import Station


def _plane(state: State, plane_id: str, **changes: object) -> State:
    plane = state.aircraft.get(plane_id)
    if plane is None:
        return state
    return replace(state, aircraft={**state.aircraft, plane_id: replace(plane, **changes)})


def _spend(state: State, plane_id: str, count: int) -> State:
    plane = state.aircraft.get(plane_id)
    if plane is None or plane.station is not Station.LEADER:
        return state
    return _plane(state, plane_id, hand=max(0, plane.hand - count))


def _concede(state: State, side: str, points: int) -> dict[str, int]:
    conceded = dict(state.victory_points_conceded)
    conceded[side] = conceded.get(side, 0) + points
    return conceded


def _rocket_attack_last(names: tuple[str, ...]) -> tuple[str, ...] | UnsetType:
    """State.rocket_attack_last: UNSET when empty, so the encoding leaves it out."""
    return tuple(sorted(names)) if names else UNSET


def _fresh_turn(plane: Plane) -> Plane:
    return replace(plane, agility_played=0, bursts_used=0, attack_cards_played=0)


def evolve(state: State, event: Struct) -> State:
    """Apply one event of this ruleset (DiceRolled and others leave the state as it is)."""
    if isinstance(event, ev.StartingAltitudeSet):
        elements = {k: replace(e, altitude=event.altitude) for k, e in state.elements.items()}
        state = replace(state, elements=elements)
        if event.winning_side:
            state = replace(
                state,
                victory_points_conceded=_concede(state, event.winning_side, event.victory_points),
            )
        return state
    if isinstance(event, ev.TurnBegan):
        turns = dict(state.turns_taken)
        turns[event.side.value] = turns.get(event.side.value, 0) + 1
        planes = {k: _fresh_turn(p) for k, p in state.aircraft.items()}
        return replace(
            state,
            move=event.move,
            active_side=event.side,
            turns_taken=turns,
            aircraft=planes,
            rocket_attack_last=UNSET,
        )
    if isinstance(event, ev.TurnEnded):
        return replace(state, active_side=None, rocket_attack_last=UNSET)
    if isinstance(event, ev.HandReported):
        return _plane(state, event.aircraft, hand=event.cards)
    if isinstance(event, ev.CardsDiscarded):
        return _spend(state, event.aircraft, event.count)
    if isinstance(event, ev.PositionSet):
        positions = dict(state.positions)
        key = position_key(event.attacker, event.target)
        if event.position is None:
            positions.pop(key, None)
        else:
            positions[key] = event.position
        return replace(state, positions=positions)
    if isinstance(event, ev.CardPlayed):
        state = _spend(state, event.aircraft, 1)
        if event.agility_card:
            player = state.aircraft[event.aircraft]
            state = _plane(state, player.id, agility_played=player.agility_played + 1)
        return state
    if isinstance(event, ev.AltitudeChanged):
        element = state.elements.get(event.element)
        if element is None:
            return state
        state = replace(
            state,
            elements={**state.elements, element.id: replace(element, altitude=event.to_level)},
        )
        if event.leader:
            return _spend(state, event.leader, -event.hand_change)
        return state
    if isinstance(event, ev.AttackCardPlayed):
        return _attack_card(state, event)
    if isinstance(event, ev.AttackNegated):
        pending = {k: v for k, v in state.pending.items() if k != event.attacker}
        state = replace(state, pending=pending, last_attack_card_by=event.attacker)
        return _spend(state, event.attacker, 1)
    if isinstance(event, ev.AttackResolved) and event.rockets:
        state = replace(
            state,
            rocket_attack_last=_rocket_attack_last((*state.rocket_attackers(), event.attacker)),
        )
        return _plane(state, event.attacker, rockets=False, rockets_used=True)
    if isinstance(event, ev.AircraftDamaged):
        plane = state.aircraft.get(event.aircraft)
        if plane is None:
            return state
        return _plane(
            state,
            plane.id,
            damaged=True,
            loaded=plane.loaded and not event.jettisoned,
            in_formation=plane.in_formation and not event.dropped_out,
        )
    if isinstance(event, ev.AircraftShotDown):
        return _shot_down(state, event.aircraft)
    if isinstance(event, ev.BomberDamagePointsTaken):
        return _plane(state, event.aircraft, damage_points=event.total)
    if isinstance(event, ev.AmmunitionChecked) and event.depleted:
        return _plane(state, event.aircraft, ammo_depleted=True)
    if isinstance(event, ev.PilotRevealed):
        plane = state.aircraft.get(event.aircraft)
        if plane is None:
            return state
        return replace(state, aircraft={**state.aircraft, plane.id: apply_revealed(plane, event)})
    if isinstance(event, ev.AcePilotDeclared):
        return _plane(state, event.aircraft, ace_card_used=True)
    if isinstance(event, ev.KeenEyesightUsed):
        return _plane(state, event.aircraft, keen_eyesight_used=True)
    if isinstance(event, ev.ThachWeaveBid) and event.accepted:
        return replace(
            state,
            thach_weave=tuple(sorted({*state.thach_weave, event.side})),
            victory_points_conceded=_concede(state, event.side.value, event.victory_points),
        )
    return state


def _attack_card(state: State, event: ev.AttackCardPlayed) -> State:
    plane = state.aircraft.get(event.attacker)
    if plane is None:
        return state
    state = _plane(
        state,
        plane.id,
        bursts_used=plane.bursts_used + event.bursts,
        attack_cards_played=plane.attack_cards_played + 1,
    )
    state = _spend(state, plane.id, 1)
    pending = dict(state.pending)
    held = pending.pop(plane.id, None)
    if event.aggregate:
        pending[plane.id] = PendingAttack(
            attacker=plane.id,
            target=event.target,
            cards=(held.cards if held else 0) + 1,
            hits=(held.hits if held else 0) + event.hits,
            bursts=(held.bursts if held else 0) + event.bursts,
            reduced_hv=event.reduced_hv,
            heavy_fire=event.heavy_fire,
        )
    # 7.1.2: a later attack card (the rocket attack's own card comes before its
    # AttackResolved) is one counter-fire may answer again.
    rockets = _rocket_attack_last(tuple(i for i in state.rocket_attackers() if i != plane.id))
    return replace(state, pending=pending, last_attack_card_by=plane.id, rocket_attack_last=rockets)


def _shot_down(state: State, plane_id: str) -> State:
    state = _plane(state, plane_id, shot_down=True, in_formation=False)
    positions = {k: v for k, v in state.positions.items() if plane_id not in k.split(">")}
    pending = {k: v for k, v in state.pending.items() if plane_id not in (v.attacker, v.target)}
    return replace(state, positions=positions, pending=pending)
