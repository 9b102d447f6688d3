"""What the player sends: one turn action (3.0), the AI turn trigger (4.0), and reports of
base-game results (hits, destroyed units, positions, counters).

Seed 003_368c69a730e6e14a.txt. `cards` on a command that draws Order Cards is the
physical-deck mode: the player drew those cards from a real deck, in order, and names them
instead of letting the server draw (README "Card draws"). Those draws are the AI's, so a
game takes them only if it was created to allow the opponent's dice, and only such a game
is offered the field (`opponent_fields`, engine/actions.py `legal_actions`).
"""

from __future__ import annotations

from typing import Annotated, ClassVar

from msgspec import Meta, Struct

from umpire.engine.hexgrid import Facing
from umpire.engine.rulesets.conflict_of_heroes.scenario import HexLabel, Ident
from umpire.engine.rulesets.conflict_of_heroes.terms import ActionKind

Ids = Annotated[tuple[Ident, ...], Meta(max_length=12)]
# Bounds (issue 32): a unit moves at most one hex per AP, and spends at most 20 APs on one
# action (Setup.max_unit_aps); 12 units move together at most.
MAX_MOVES = 20 * 12
Cards = Annotated[tuple[Annotated[int, Meta(ge=1, le=999)], ...], Meta(max_length=60)]
# The fields of a command the player fills for the opponent (engine/actions.py).
OPPONENT_FIELDS = ("cards",)
Note = Annotated[str, Meta(max_length=200)]
Points = Annotated[int, Meta(ge=0, le=30)]


class Placement(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Where a unit ends an action: its hex and facing (0 N, clockwise)."""

    unit: Ident
    hex: HexLabel
    facing: Facing


class UnitAction(Struct, frozen=True, tag="UnitAction", kw_only=True, forbid_unknown_fields=True):
    """3.1: an action by one or more fresh Units costing `ap` APs, `caps` of it paid with CAPs
    (3.2.1); several units make a group action. An AP Spent Check follows (3.1.1)."""

    units: Annotated[tuple[Ident, ...], Meta(min_length=1, max_length=12)]
    action: ActionKind
    ap: Annotated[int, Meta(ge=1, le=30)]
    caps: Points = 0
    moves: Annotated[tuple[Placement, ...], Meta(max_length=MAX_MOVES)] = ()
    note: Note = ""
    cards: Cards = ()
    opponent_fields: ClassVar[tuple[str, ...]] = OPPONENT_FIELDS


class CommandAction(
    Struct, frozen=True, tag="CommandAction", kw_only=True, forbid_unknown_fields=True
):
    """3.2.2: an action by one or more Units, fresh or spent, paid only with CAPs; no AP
    Spent Check."""

    units: Annotated[tuple[Ident, ...], Meta(min_length=1, max_length=12)]
    action: ActionKind
    caps: Annotated[int, Meta(ge=1, le=30)]
    moves: Annotated[tuple[Placement, ...], Meta(max_length=MAX_MOVES)] = ()
    note: Note = ""


class CardAction(Struct, frozen=True, tag="CardAction", kw_only=True, forbid_unknown_fields=True):
    """3.3: play an Action Card from the hand, paid with APs of fresh Units, with CAPs or both;
    an AP Spent Check follows when APs were paid."""

    card: Annotated[str, Meta(min_length=1, max_length=80)]
    units: Ids = ()
    ap: Points = 0
    caps: Points = 0
    moves: Annotated[tuple[Placement, ...], Meta(max_length=MAX_MOVES)] = ()
    note: Note = ""
    cards: Cards = ()
    opponent_fields: ClassVar[tuple[str, ...]] = OPPONENT_FIELDS


class Stall(Struct, frozen=True, tag="Stall", kw_only=True, forbid_unknown_fields=True):
    """3.0 Stall: spend 1 AP with a fresh unit (`unit`) or, with no unit, 1 CAP."""

    unit: Annotated[str, Meta(max_length=40)] = ""
    cards: Cards = ()
    opponent_fields: ClassVar[tuple[str, ...]] = OPPONENT_FIELDS


class Pass(Struct, frozen=True, tag="Pass", kw_only=True, forbid_unknown_fields=True):
    """3.0 Pass: no action, nothing spent."""


class TakeAiTurn(Struct, frozen=True, tag="TakeAiTurn", kw_only=True, forbid_unknown_fields=True):
    """4.0: the umpire draws an Order Card and the AI executes one order (or passes)."""

    cards: Cards = ()
    opponent_fields: ClassVar[tuple[str, ...]] = OPPONENT_FIELDS


class ReportHit(Struct, frozen=True, tag="ReportHit", kw_only=True, forbid_unknown_fields=True):
    """A base-game result: a counter took a hit marker (`hit`) or rallied it off."""

    unit: Ident
    hit: bool


class ReportDestroyed(
    Struct, frozen=True, tag="ReportDestroyed", kw_only=True, forbid_unknown_fields=True
):
    """7.3: a counter was destroyed (a Unit goes to the CAP track; an AI costs the AI a
    Command card)."""

    unit: Ident
    cards: Cards = ()
    opponent_fields: ClassVar[tuple[str, ...]] = OPPONENT_FIELDS


class ReportPosition(
    Struct, frozen=True, tag="ReportPosition", kw_only=True, forbid_unknown_fields=True
):
    """A counter's hex and facing as on the table (a reinforcement arriving, a correction)."""

    unit: Ident
    hex: HexLabel
    facing: Facing
    in_play: bool = True


class ReportCounters(
    Struct, frozen=True, tag="ReportCounters", kw_only=True, forbid_unknown_fields=True
):
    """4.0 Mission Track count: Rumored Enemy counters (6.0) in play and reinforcements
    arriving this round that are not yet on the map."""

    rumored: Points
    reinforcements: Points
