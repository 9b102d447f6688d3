"""evolve: the state after one event. Total (unknown events leave the state unchanged) and
deterministic. Seed 003_368c69a730e6e14a.txt."""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace

from umpire.engine.rulesets.conflict_of_heroes import events as ev
from umpire.engine.rulesets.conflict_of_heroes.battlefield import with_control
from umpire.engine.rulesets.conflict_of_heroes.state import State, Unit
from umpire.engine.rulesets.conflict_of_heroes.terms import PlayerAction, Side, WhoseTurn


def _units(state: State, unit_ids: tuple[str, ...] | set[str], **changes: object) -> State:
    units = tuple(replace(u, **changes) if u.id in unit_ids else u for u in state.units)
    return replace(state, units=units)


def _move(state: State, moves: tuple[ev.Moved, ...]) -> State:
    where = {m.unit: m for m in moves}
    units: list[Unit] = []
    for u in state.units:
        m = where.get(u.id)
        units.append(replace(u, hex=m.hex, facing=m.facing) if m else u)
    return replace(state, units=tuple(units))


def _arrived(state: State, unit_id: str) -> State:
    """4.0 Mission Track: a counter entering play from out of play is on the map now, so it
    leaves the reported count of reinforcements still to arrive this round (never below
    0); counted on the map and in that count it would count twice (README ledger "4.0
    Mission Track reinforcements")."""
    u = state.unit(unit_id)
    if u is None or u.in_play or state.reinforcements_this_round == 0:
        return state
    return replace(state, reinforcements_this_round=state.reinforcements_this_round - 1)


def _pass(state: State, side: WhoseTurn, passed: bool) -> WhoseTurn | None:
    return side if passed else None


# Events that put a counter in a hex: after them the Control Markers' sides are read
# again (battlefield.with_control, 5.0).
_PLACING = (ev.PlayerActed, ev.AiMoved, ev.PositionReported, ev.AiReinforcementEntered)


def evolve(state: State, event: Struct) -> State:
    """The state after `event`."""
    after = _evolve(state, event)
    return with_control(after) if isinstance(event, _PLACING) else after


def _evolve(state: State, event: Struct) -> State:
    match event:
        case ev.PlayerActed():
            s = replace(
                state,
                caps=state.caps - event.caps,
                turn=WhoseTurn.AI,
                last_passed=_pass(state, WhoseTurn.PLAYER, event.kind is PlayerAction.PASS),
            )
            return _move(s, event.moves)
        case ev.OrderCardDrawn():
            return replace(
                state,
                deck=tuple(c for c in state.deck if c != event.card),
                discards=(*state.discards, event.card),
                last_card=event.card,
            )
        case ev.DeckReshuffled():
            return replace(
                state,
                deck=tuple(sorted((*state.deck, *event.cards))),
                discards=tuple(c for c in state.discards if c not in event.cards),
            )
        case ev.CommandCardRemoved():
            return replace(
                state,
                deck=tuple(c for c in state.deck if c != event.card),
                discards=tuple(c for c in state.discards if c != event.card),
                removed=tuple(sorted((*state.removed, event.card))),
            )
        case ev.SpentCheckMade():
            return _units(state, event.spent, fresh=False)
        case ev.MissionTrackChecked():
            return replace(state, mission_track=event.track)
        case ev.AiMoved():
            return _move(state, (ev.Moved(unit=event.unit, hex=event.to_hex, facing=event.facing),))
        case ev.AiPivoted():
            u = state.unit(event.unit)
            hex_ = u.hex if u else "0000"
            return _move(state, (ev.Moved(unit=event.unit, hex=hex_, facing=event.facing),))
        case ev.AiTurnEnded():
            return replace(
                state, turn=WhoseTurn.PLAYER, last_passed=_pass(state, WhoseTurn.AI, event.passed)
            )
        case ev.RoundEnded():
            return replace(
                _units(state, {u.id for u in state.units}, fresh=True),
                round=event.round,
                caps=event.caps,
                turn=WhoseTurn.PLAYER,
                last_passed=None,
                reinforcements_this_round=0,
            )
        case ev.HitReported():
            return _units(state, (event.unit,), hit=event.hit)
        case ev.UnitDestroyed():
            s = _units(state, (event.unit,), destroyed=True)
            if event.side is Side.PLAYER:
                s = replace(
                    s,
                    destroyed_player_units=s.destroyed_player_units + 1,
                    caps=min(s.caps, event.caps_per_round),
                )
            return s
        case ev.PositionReported():
            s = _arrived(state, event.unit) if event.in_play else state
            s = _move(s, (ev.Moved(unit=event.unit, hex=event.hex, facing=event.facing),))
            return _units(s, (event.unit,), in_play=event.in_play)
        case ev.AiReinforcementEntered():
            s = _arrived(state, event.unit)
            s = _move(s, (ev.Moved(unit=event.unit, hex=event.hex, facing=event.facing),))
            return _units(s, (event.unit,), in_play=True)
        case ev.CountersReported():
            return replace(
                state,
                rumored_counters=event.rumored,
                reinforcements_this_round=event.reinforcements,
            )
    return state
