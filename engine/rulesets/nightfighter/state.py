"""The game state: bomber counters with their uncertainty, nightfighters, turn and phase."""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.rulesets.nightfighter.campaign import CampaignState
from umpire.engine.rulesets.nightfighter.setup import Setup
from umpire.engine.rulesets.nightfighter.terms import Phase, Status, Track, Uncertainty


class Counter(Struct, frozen=True, kw_only=True):
    """One bomber counter (S5.0): where it is shown, its uncertainty and its markers."""

    id: str
    bomber: str
    status: Status
    level: Uncertainty
    hex: str = ""  # CCRR while on the map
    enter_turn: int = 0
    enter_col: int = 0
    speed: int = 3
    heading: int = 3
    h2s: bool = False
    track: Track = Track.ABSENT
    tallied_by: tuple[str, ...] = ()
    ai_fixed_by: tuple[str, ...] = ()
    searchlight: str = ""  # the zone holding a searchlight fix
    corkscrewed: bool = False  # S17.0: printed firepower 0 this turn
    certain: bool = False  # scenario 8F: the V-1's position is never uncertain
    ju88: bool = False  # scenario 7: a revealed counter replaced by a Ju88


class FighterState(Struct, frozen=True, kw_only=True):
    """A nightfighter and what it has done this turn."""

    id: str
    hex: str  # "" once it has left the map
    facing: int
    moved: bool = False
    ai_searched: bool = False
    basic_tally_failed: bool = False
    tally_attempts: int = 0


class State(Struct, frozen=True, kw_only=True):
    """Everything the umpire holds. Nothing here is secret: S5.0 uncertainty is resolved by
    dice only when a search needs it, so no 'true' position or phantom flag is stored."""

    setup: Setup
    turn: int = 0
    # A game opens at turn 1's Bomber Movement (evolve.initial_state); one recorded before
    # v9 opened at turn 0, its Combat Phase over, and its first command began turn 1.
    phase: Phase = Phase.COMBAT
    counters: tuple[Counter, ...] = ()
    fighters: tuple[FighterState, ...] = ()
    # S5.5: per bomber, the hexes of earlier fruitless searches this turn.
    excluded: dict[str, tuple[str, ...]] = {}
    radar_searched: tuple[str, ...] = ()  # counters searched by a search value one radar
    radar_placed: bool = False
    zones_done: tuple[str, ...] = ()  # S14.0: zones that searched (or may not) this phase
    campaign: CampaignState | None = None
    cup: tuple[str, ...] = ()  # scenario 7: 2 Ju88 among 28 other nightfighter counters
    serrate_used: bool = False  # scenario 7: Serrate searched this turn


def counter_by_id(state: State, counter_id: str) -> Counter | None:
    """The counter with that id, or None."""
    return next((c for c in state.counters if c.id == counter_id), None)


def counter_at(state: State, hex_label: str) -> Counter | None:
    """The counter on the map in that hex, or None (S7.0: at most one per hex)."""
    return next(
        (c for c in state.counters if c.status is Status.ON_MAP and c.hex == hex_label), None
    )


def fighter_by_id(state: State, fighter_id: str) -> FighterState | None:
    """The nightfighter with that id, or None."""
    return next((f for f in state.fighters if f.id == fighter_id), None)


def high_counters(state: State, bomber: str) -> tuple[Counter, ...]:
    """S5.4: the bomber's high uncertainty counters still counting (on the map, pending
    entry or gone off the map; only those revealed as phantoms are removed)."""
    return tuple(
        c
        for c in state.counters
        if c.bomber == bomber and c.level is Uncertainty.HIGH and c.status is not Status.REMOVED
    )
