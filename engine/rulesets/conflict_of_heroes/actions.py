"""The commands the player may send now (engine/actions.py), by whose turn it is.

Seed 003_368c69a730e6e14a.txt: on the player's turn one of an AP action (3.1), a CAP
action (3.2.2), a card action (3.3), a stall or a pass (3.0); on the AI's turn only
`TakeAiTurn` (4.0). Base-game results may be reported at any time (5.2, 5.3.1, 7.3, 4.0).
Units are narrowed to those that may act (fresh for APs), CAPs to those on the track,
APs to what a unit has, hexes to the passable map, named cards to those in the deck.
"""

from __future__ import annotations

from umpire.engine.actions import Action, Schema, map_hexes, offer, one_of
from umpire.engine.roles import Role
from umpire.engine.rulesets.conflict_of_heroes.battlefield import active, terrain
from umpire.engine.rulesets.conflict_of_heroes.commands import (
    CardAction,
    CommandAction,
    Pass,
    ReportCounters,
    ReportDestroyed,
    ReportHit,
    ReportPosition,
    Stall,
    TakeAiTurn,
    UnitAction,
)
from umpire.engine.rulesets.conflict_of_heroes.state import State
from umpire.engine.rulesets.conflict_of_heroes.terms import Side, Turn, cite


def _units(ids: list[str]) -> Schema:
    return {"items": one_of(ids), "maxItems": len(ids)} if ids else {"maxItems": 0}


def _moves(ids: list[str], hexes: Schema) -> Schema:
    """Placements of the acting units (none when no unit may act)."""
    if not ids:
        return {"maxItems": 0}
    return {"items": {"properties": {"unit": one_of(ids), "hex": hexes}}, "maxItems": len(ids)}


def _player_turn(state: State) -> list[Action]:
    mine = [u.id for u in active(state, Side.PLAYER)]
    fresh = [u.id for u in active(state, Side.PLAYER) if u.fresh]
    hexes = map_hexes(state.rules.grid, lambda label: not terrain(state, label).impassable)
    cards = {"items": one_of(sorted(state.deck))} if state.deck else {"maxItems": 0}
    caps = {"maximum": state.caps}
    out: list[Action] = []
    if fresh:
        out.append(
            offer(
                UnitAction,
                cite("3.1"),
                "Act with fresh Unit(s) for APs",
                units=_units(fresh),
                ap={"maximum": state.rules.max_unit_aps},
                caps=caps,
                moves=_moves(fresh, hexes),
                cards=cards,
            )
        )
    if mine and state.caps >= 1:
        out.append(
            offer(
                CommandAction,
                cite("3.2.2"),
                "Act with Unit(s) paying only CAPs",
                units=_units(mine),
                caps=caps,
                moves=_moves(mine, hexes),
            )
        )
    out.append(
        offer(
            CardAction,
            cite("3.3"),
            "Play an Action Card paid with APs and/or CAPs",
            units=_units(fresh),
            ap={"maximum": state.rules.max_unit_aps if fresh else 0},
            caps=caps,
            moves=_moves(fresh, hexes),
            cards=cards,
        )
    )
    stallers = [*([""] if state.caps >= 1 else []), *fresh]
    if stallers:
        out.append(
            offer(
                Stall,
                cite("3.0") + " Stall",
                "Stall: 1 AP of a fresh Unit, or 1 CAP",
                unit=one_of(stallers),
                cards=cards,
            )
        )
    out.append(offer(Pass, cite("3.0") + " Pass", "Pass: no action"))
    return out


def _reports(state: State) -> list[Action]:
    counters = sorted(u.id for u in state.units if not u.destroyed)
    if not counters:
        return [offer(ReportCounters, cite("4.0"), "Report the Mission Track counters")]
    hexes = map_hexes(state.rules.grid, lambda label: not terrain(state, label).impassable)
    ids = one_of(counters)
    cards = {"items": one_of(sorted(state.deck))} if state.deck else {"maxItems": 0}
    return [
        offer(ReportHit, cite("5.2"), "Report a hit marker placed or rallied off", unit=ids),
        offer(ReportDestroyed, cite("7.3"), "Report a counter destroyed", unit=ids, cards=cards),
        offer(
            ReportPosition,
            cite("5.3.1"),
            "Report a counter's hex and facing",
            unit=ids,
            hex=hexes,
        ),
        offer(ReportCounters, cite("4.0"), "Report the Mission Track counters"),
    ]


def actions(state: State, role: Role) -> list[Action]:
    """The player's commands now: their turn's actions or the AI turn, then reports."""
    if state.turn is Turn.AI:
        cards = {"items": one_of(sorted(state.deck))} if state.deck else {"maxItems": 0}
        turn = [
            offer(TakeAiTurn, cite("4.0"), "Take the AI's turn: draw an Order Card", cards=cards)
        ]
    else:
        turn = _player_turn(state)
    return [*turn, *_reports(state)]
