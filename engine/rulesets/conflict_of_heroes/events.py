"""What happens in a game, as frozen tagged events (`conflict_of_heroes.<PastTense>`).

Seed 003_368c69a730e6e14a.txt. Every AI decision event carries `rule`, `dice` (the roll
numbers it used), `candidates` (each option, chosen or rejected with the reason) and
`explanation`.
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.decision import Decision
from umpire.engine.rulesets.conflict_of_heroes.orders import OrderAction
from umpire.engine.rulesets.conflict_of_heroes.terms import (
    ActionKind,
    DrawPurpose,
    PlayerAction,
    Section,
    Side,
)

_T = "conflict_of_heroes."


# -- 3.0 player turn ------------------------------------------------------------------


class Moved(Struct, frozen=True, kw_only=True):
    """Where a counter ended an action."""

    unit: str
    hex: str
    facing: int


class PlayerActed(Decision, frozen=True, tag=_T + "PlayerActed"):
    """3.0: the player's one action this turn, as reported, and what it spent."""

    kind: PlayerAction
    action: ActionKind | None = None
    units: tuple[str, ...] = ()
    ap: int = 0
    caps: int = 0
    card: str = ""
    moves: tuple[Moved, ...] = ()
    note: str = ""


# -- deck -----------------------------------------------------------------------------


class OrderCardDrawn(Decision, frozen=True, tag=_T + "OrderCardDrawn"):
    """A card drawn from the deck (a uniform pick among the remaining cards) and discarded;
    `by_player` when it came from the player's physical deck."""

    card: int
    purpose: DrawPurpose
    remaining: int
    by_player: bool = False


class DeckReshuffled(Decision, frozen=True, tag=_T + "DeckReshuffled"):
    """The discards go back into the deck (7.3, an empty deck, or a new round)."""

    cards: tuple[int, ...]


class CommandCardRemoved(Decision, frozen=True, tag=_T + "CommandCardRemoved"):
    """7.3: the Blue Command card drawn after an AI was destroyed leaves the game."""

    card: int


# -- 3.1.1 AP Spent Check -------------------------------------------------------------


class SpentCheckMade(Decision, frozen=True, tag=_T + "SpentCheckMade"):
    """3.1.1: the AP cost against the card's AP Spent Number; `spent` lists the units
    that are now spent (all of a group when it fails)."""

    side: Side
    units: tuple[str, ...]
    ap_cost: int
    card: int
    ap_spent_number: int
    remain_fresh: bool
    spent: tuple[str, ...]


# -- 4.0 AI turn ----------------------------------------------------------------------


class MissionTrackChecked(Decision, frozen=True, tag=_T + "MissionTrackChecked"):
    """4.0 Mission Track Advance: counted counters against the Green card's requirement."""

    card: int
    requirement: int
    count: int
    advanced: bool
    track: int


class AiOrderSelected(Decision, frozen=True, tag=_T + "AiOrderSelected"):
    """4.0: the first order on the card that can be executed (earlier ones rejected)."""

    card: int
    section: Section
    index: int
    order: str
    action: OrderAction


class AiUnitSelected(Decision, frozen=True, tag=_T + "AiUnitSelected"):
    """5.1 / 5.1.1 and 'Executing an AI Order': the AI that executes the order."""

    unit: str
    order: str


class AiTargetSelected(Decision, frozen=True, omit_defaults=True, tag=_T + "AiTargetSelected"):
    """5.2 (fire) or 'Executing an AI Order' (move): the Unit or objective targeted. A
    move's target needs no roll: its `needed` (0) is left out of the log and of `explain`'s
    details, which would read "needed: 0" (a fire's is 2 or more)."""

    unit: str
    target: str
    distance: int
    needed: int = 0


class AiFired(Decision, frozen=True, tag=_T + "AiFired"):
    """5.0 fire: the attack, its 2D6 roll against the needed number (hit_chance.py)."""

    unit: str
    target: str
    needed: int
    roll: int
    hit: bool
    long_range: bool
    ap_cost: int


class AiMoved(Decision, frozen=True, tag=_T + "AiMoved"):
    """5.3 / 5.3.1: the AI moves one hex, chosen by the movement priorities."""

    unit: str
    from_hex: str
    to_hex: str
    facing: int
    ap_cost: int
    low_risk: bool
    target: str


class AiPivoted(Decision, frozen=True, tag=_T + "AiPivoted"):
    """5.3.1: an AI that cannot make a low-risk move pivots toward a flanking Unit."""

    unit: str
    facing: int
    toward: str
    ap_cost: int


class AiRallied(Decision, frozen=True, tag=_T + "AiRallied"):
    """A Rally order: the AI attempts to rally (the base-game roll is the player's)."""

    unit: str
    ap_cost: int


class MissionInstructionIssued(Decision, frozen=True, tag=_T + "MissionInstructionIssued"):
    """7.0 / 7.1: a Counteraction or Mission Order the player carries out for the AI."""

    kind: OrderAction
    number: int
    text: str


class AiPassed(Decision, frozen=True, tag=_T + "AiPassed"):
    """4.0: no order on the card could be executed; the AI passes (3.0 Pass)."""

    card: int


class AiTurnEnded(Struct, frozen=True, kw_only=True, tag=_T + "AiTurnEnded"):
    """4.0: play advances to the Player turn."""

    passed: bool


class RoundEnded(Decision, frozen=True, tag=_T + "RoundEnded"):
    """3.0: the player and the AI passed consecutively; a new round begins, all fresh."""

    round: int
    caps: int


# -- reports and 7.3 -----------------------------------------------------------------


class HitReported(Struct, frozen=True, kw_only=True, tag=_T + "HitReported"):
    """A base-game result: a hit marker placed on or rallied off a counter."""

    unit: str
    hit: bool


class UnitDestroyed(Decision, frozen=True, tag=_T + "UnitDestroyed"):
    """7.3: a counter removed from the game (a Unit goes to the CAP track)."""

    unit: str
    side: Side
    caps_per_round: int


class PositionReported(Struct, frozen=True, kw_only=True, tag=_T + "PositionReported"):
    """A counter placed as on the table."""

    unit: str
    hex: str
    facing: int
    in_play: bool


class CountersReported(Struct, frozen=True, kw_only=True, tag=_T + "CountersReported"):
    """4.0: Rumored Enemy counters and reinforcements arriving this round."""

    rumored: int
    reinforcements: int


EVENTS: tuple[type[Struct], ...] = (
    PlayerActed,
    OrderCardDrawn,
    DeckReshuffled,
    CommandCardRemoved,
    SpentCheckMade,
    MissionTrackChecked,
    AiOrderSelected,
    AiUnitSelected,
    AiTargetSelected,
    AiFired,
    AiMoved,
    AiPivoted,
    AiRallied,
    MissionInstructionIssued,
    AiPassed,
    AiTurnEnded,
    RoundEnded,
    HitReported,
    UnitDestroyed,
    PositionReported,
    CountersReported,
)


class CommandCardKept(Decision, frozen=True, tag=_T + "CommandCardKept"):
    """7.3: only one Command card is left in the deck, so none is removed."""

    card: int


EVENTS = (*EVENTS, CommandCardKept)


class AiReinforcementEntered(Decision, frozen=True, tag=_T + "AiReinforcementEntered"):
    """7.0 / 7.1: a reinforcement the instruction names enters at its set-up hex."""

    unit: str
    hex: str
    facing: int


class MissionHexChosen(Decision, frozen=True, tag=_T + "MissionHexChosen"):
    """7.0 / 7.1: the hex an instruction names by a rule (terms.MissionTarget)."""

    target: str
    hex: str


EVENTS = (*EVENTS, AiReinforcementEntered, MissionHexChosen)
