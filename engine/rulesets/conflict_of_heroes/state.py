"""The state of a game: the deck (which cards remain, never their order), the counters on
the map, the turn and round, the CAPs and the Mission Track.

Seed 003_368c69a730e6e14a.txt. Draws are fresh uniform picks among the remaining cards
(deck.py), so no shuffled order exists anywhere, in the state or the log.
"""

from __future__ import annotations

from msgspec import UNSET, Struct, UnsetType, field

from umpire.engine.hexgrid import HexGrid
from umpire.engine.rulesets.conflict_of_heroes.orders import Order
from umpire.engine.rulesets.conflict_of_heroes.scenario import (
    MissionEnd,
    ObjectiveSpec,
    TerrainSpec,
    UnitSpec,
)
from umpire.engine.rulesets.conflict_of_heroes.terms import CardColour, MissionTarget, WhoseTurn


class Card(Struct, frozen=True, kw_only=True):
    """An Order Card with its orders parsed (scenario.CardSpec, orders.py)."""

    number: int
    colour: CardColour
    ap_spent_number: int
    symbol: str
    mission_requirement: int | None
    priority_orders: tuple[Order, ...]
    tactical_orders: tuple[Order, ...]
    remain_fresh: bool
    hex_number: int


class Instruction(Struct, frozen=True, kw_only=True):
    """A Counteraction or Mission Order (7.0, 7.1) with its order parsed (None: text only)."""

    number: int
    text: str
    order: Order | None
    reinforcements: tuple[str, ...] = ()
    target: MissionTarget = MissionTarget.NONE


class Unit(UnitSpec, frozen=True, kw_only=True):
    """A counter in play: its values plus whether it has been destroyed (7.3)."""

    destroyed: bool = False


class Rules(Struct, frozen=True, kw_only=True):
    """The scenario's parameters (setup.Setup) that rules read during play."""

    grid: HexGrid
    player_caps: int
    caps_lost_per_destroyed_unit: int
    max_unit_aps: int
    short_range: int
    short_range_fp_modifier: int
    long_range_fp_modifier: int
    attack_modifier: int
    pivot_cost: int
    reshuffle_each_round: bool
    sideways_moves: bool = False


class State(Struct, frozen=True, kw_only=True):
    """The whole game state (frozen; evolve.py replaces fields)."""

    rules: Rules
    cards: tuple[Card, ...]
    deck: tuple[int, ...]
    discards: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    units: tuple[Unit, ...]
    terrain: tuple[TerrainSpec, ...]
    objectives: tuple[ObjectiveSpec, ...]
    counteractions: tuple[Instruction, ...]
    mission_orders: tuple[Instruction, ...]
    mission_name: str = ""
    round: int = 1
    turn: WhoseTurn = WhoseTurn.PLAYER
    caps: int
    last_passed: WhoseTurn | None = None
    mission_track: int = 0
    rumored_counters: int = 0
    reinforcements_this_round: int = 0
    destroyed_player_units: int = 0
    last_card: int = 0
    end: MissionEnd = field(default_factory=MissionEnd)
    # 5.0 Player Control Markers the AI has taken (README ledger "5.0 Player Control
    # Markers"), by objective id in objective order: the base game's marker, flipped by
    # the last side alone in its hex. UNSET while the AI holds none, so a game in which
    # no AI ever took one encodes (and hashes) as it did before the field existed.
    ai_markers: tuple[str, ...] | UnsetType = UNSET

    def card(self, number: int) -> Card:
        """The card with this number (every number in deck/discards/removed has one)."""
        for c in self.cards:
            if c.number == number:
                return c
        raise KeyError(number)

    def unit(self, unit_id: str) -> Unit | None:
        """The counter with this id, or None."""
        for u in self.units:
            if u.id == unit_id:
                return u
        return None
