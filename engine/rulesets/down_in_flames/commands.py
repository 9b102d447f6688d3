"""Commands: the card plays and decisions the players report to the umpire.

The base game's deck, draws and turn sequence stay the base game's (1); umpire takes each
play as a command and keeps what the supplemental rules add.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from umpire.engine.rulesets.down_in_flames.setup import Ident
from umpire.engine.rulesets.down_in_flames.terms import (
    Card,
    DefensiveFireKind,
    Direction,
    Position,
    Side,
)

Count = Annotated[int, Meta(ge=0, le=30)]


# A bid's misspelt field is refused, not dropped (red team 10: `bids.1.altitdue=7`).
class Bid(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """2.5: one side's written bid: preferred starting altitude and victory points conceded."""

    side: Side
    altitude: Annotated[int, Meta(ge=1, le=30)]
    victory_points: Annotated[int, Meta(ge=0, le=1000)]


class RollStartingAltitude(Struct, frozen=True, kw_only=True, tag="RollStartingAltitude"):
    """2.5: roll a D20 for the starting altitude of all aircraft."""


class BidStartingAltitude(Struct, frozen=True, kw_only=True, tag="BidStartingAltitude"):
    """2.5: settle the starting altitude by the two sides' bids."""

    bids: Annotated[tuple[Bid, ...], Meta(min_length=2, max_length=2)]


class BeginTurn(Struct, frozen=True, kw_only=True, tag="BeginTurn"):
    """Base-game turn: `side` starts its move (counters of 3.1, 4.1.1, 8.4 reset)."""

    side: Side


class EndTurn(Struct, frozen=True, kw_only=True, tag="EndTurn"):
    """Base-game turn: `side` ends its move; hand limits (8.2, 8.3, 8.5) are checked."""

    side: Side


class ReportHand(Struct, frozen=True, kw_only=True, tag="ReportHand"):
    """A Leader's hand size after base-game draws."""

    aircraft: Ident
    cards: Count


class Discard(Struct, frozen=True, kw_only=True, tag="Discard"):
    """A Leader discards cards (base game, or to meet 8.5)."""

    aircraft: Ident
    count: Annotated[int, Meta(ge=1, le=30)]


class SetPosition(Struct, frozen=True, kw_only=True, tag="SetPosition"):
    """The base-game position of `attacker` on `target` after a card play (None: none)."""

    attacker: Ident
    target: Ident
    position: Position | None


class PlayCard(Struct, frozen=True, kw_only=True, tag="PlayCard"):
    """A non-attack card played (8.4.1 counts Agility Cards; 10.7 limits SCISSORS)."""

    aircraft: Ident
    card: Card
    response_to: Card | None = None
    against: Ident | None = None


class Dive(Struct, frozen=True, kw_only=True, tag="Dive"):
    """2.1: an Element dives 1 or 2 levels."""

    element: Ident
    levels: Annotated[int, Meta(ge=1, le=2)]


class Climb(Struct, frozen=True, kw_only=True, tag="Climb"):
    """2.2: an Element climbs 1 level."""

    element: Ident


class PlayVerticalRoll(Struct, frozen=True, kw_only=True, tag="PlayVerticalRoll"):
    """2.6: a VERTICAL ROLL card; as a response it changes altitude unless negated."""

    aircraft: Ident
    direction: Direction
    response: bool = True
    negated: bool = False
    followers: Annotated[tuple[Ident, ...], Meta(max_length=64)] = ()


class Attack(Struct, frozen=True, kw_only=True, tag="Attack"):
    """A successful IN MY SIGHTS / OUT OF THE SUN / Fuel Tank card (3.2, 5.5, 7.1.2).

    `hits` and `bursts` are printed on the card; `aggregate` announces that later cards will
    be added to this one (3.2.10); `reduced_hv` elects the right-hand Hit Value (10.15);
    `heavy_fire` fires a Hurricane IIC at HV 16 (10.12); `rockets` makes it a rocket attack
    (7.1.2); `bomber_burst_modifier` is the base game's burst change against bombers (4.1.1).
    """

    attacker: Ident
    target: Ident
    card: Card
    hits: Annotated[int, Meta(ge=0, le=10)]
    bursts: Annotated[int, Meta(ge=0, le=6)]
    aggregate: bool = False
    reduced_hv: bool = False
    heavy_fire: bool = False
    rockets: bool = False
    bomber_burst_modifier: Annotated[int, Meta(ge=-4, le=4)] = 0


class NegateAttack(Struct, frozen=True, kw_only=True, tag="NegateAttack"):
    """3.2.10: a card of an aggregated attack was negated; the entire attack is negated."""

    attacker: Ident


class ResolveDefensiveFire(Struct, frozen=True, kw_only=True, tag="ResolveDefensiveFire"):
    """3.3 gunner fire or 4.1.9 turret defense fire (Hit Value 8) scoring `hits`."""

    shooter: Ident
    target: Ident
    kind: DefensiveFireKind
    hits: Annotated[int, Meta(ge=1, le=10)]


class DeclareAcePilot(Struct, frozen=True, kw_only=True, tag="DeclareAcePilot"):
    """9.1.8: an Ace Leader declares a card to be an ACE PILOT card (once per game)."""

    aircraft: Ident


class UseKeenEyesight(Struct, frozen=True, kw_only=True, tag="UseKeenEyesight"):
    """9.1.10: a keen-eyed regular or veteran Leader starts its first turn as if it had
    played MANEUVERING against `target`."""

    aircraft: Ident
    target: Ident


class RevealPilot(Struct, frozen=True, kw_only=True, tag="RevealPilot"):
    """9.1.11: a player reveals a pilot's characteristics."""

    aircraft: Ident


class BidThachWeave(Struct, frozen=True, kw_only=True, tag="BidThachWeave"):
    """10.11.3: a side bids victory points for the Thach Weave; the opponent accepts or not."""

    side: Side
    victory_points: Annotated[int, Meta(ge=0, le=1000)]
    accepted: bool
