"""Commands the player sends (wire form `{"type": "<Tag>", ...}`)."""

from __future__ import annotations

from typing import Annotated

from msgspec import UNSET, Meta, Struct, UnsetType

from umpire.engine.rulesets.nightfighter.setup import Direction, HexLabel
from umpire.engine.rulesets.nightfighter.terms import TallyKind

Id = Annotated[str, Meta(min_length=1, max_length=40)]
DiceCount = Annotated[int, Meta(ge=1, le=12)]


class EndPhase(Struct, frozen=True, kw_only=True, tag="EndPhase"):
    """End the current phase; the umpire runs what the next phase does automatically
    (bomber movement and entry at the start of a turn)."""


class MoveBombers(Struct, frozen=True, kw_only=True, tag="MoveBombers"):
    """S7.0/S8.0: the umpire moves and enters the bomber counters. `accelerate` names
    counters flying one extra hex this turn (base-game rule 28.2, alerted bombers).
    `handoff_dice` overrides the receiving zone's standard number of dice for a
    searchlight-fixed bomber handed off to another zone this movement (left out or 0: the
    zone's own; base game, e.g. rule 28.3 with a fighter nearby, as SearchSearchlight's
    `dice`)."""

    accelerate: Annotated[tuple[Id, ...], Meta(max_length=200)] = ()
    # UNSET when left out, so a command without it records the bytes it recorded before
    # the field existed (CommandRecorded holds the command's builtins): old logs audit.
    handoff_dice: Annotated[int, Meta(ge=0, le=12)] | UnsetType = UNSET


class MoveFighter(Struct, frozen=True, kw_only=True, tag="MoveFighter"):
    """Move a nightfighter hex by hex (each adjacent to the last); `exit` when the last
    step leaves the map."""

    fighter: Id
    path: Annotated[tuple[HexLabel, ...], Meta(max_length=40)]
    facing: Direction
    exit: bool = False


# A search's misspelt field is refused, not dropped (red team 10).
class RadarSearch(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One radar search counter: the radar and the hex of the bomber counter searched."""

    radar: Id
    hex: HexLabel


class PlaceRadarSearches(Struct, frozen=True, kw_only=True, tag="PlaceRadarSearches"):
    """S13.0: place every radar search counter of the phase at once; they resolve in order."""

    searches: Annotated[tuple[RadarSearch, ...], Meta(max_length=40)]


class SearchAI(Struct, frozen=True, kw_only=True, tag="SearchAI"):
    """S19.0: one AI search by a nightfighter against one bomber counter. `dice` is the
    base-game number of fix dice when the AI radar is jammed (S24.0)."""

    fighter: Id
    hex: HexLabel
    dice: DiceCount = 2


class SearchSearchlight(Struct, frozen=True, kw_only=True, tag="SearchSearchlight"):
    """S14.0: one searchlight zone searches one bomber counter in it. `dice` overrides the
    zone's standard number (base game, e.g. rule 28.3 with a fighter nearby)."""

    zone: Id
    hex: HexLabel
    dice: Annotated[int, Meta(ge=0, le=12)] = 0


class AttemptTally(Struct, frozen=True, kw_only=True, tag="AttemptTally"):
    """S10.0 basic or S15.0 fixed tally by one nightfighter on one counter, with the
    base-game number of dice; `illuminated` when the counter is in illuminated cloud."""

    fighter: Id
    hex: HexLabel
    dice: DiceCount
    kind: TallyKind = TallyKind.BASIC
    illuminated: bool = False


class RollBomberResponse(Struct, frozen=True, kw_only=True, tag="RollBomberResponse"):
    """S17.0: a tallied bomber's response roll (one die, read on the published table)."""

    fighter: Id
    hex: HexLabel


class Corkscrew(Struct, frozen=True, kw_only=True, tag="Corkscrew"):
    """S17.0: the bomber corkscrews; `follow_dice` > 0 tries rule 28.1 (S28.0)."""

    fighter: Id
    hex: HexLabel
    follow_dice: Annotated[int, Meta(ge=0, le=12)] = 0


class ShootDown(Struct, frozen=True, kw_only=True, tag="ShootDown"):
    """S17.0: the base-game combat destroyed the bomber this nightfighter has tallied (the
    player read the damage on the published tables); its counter leaves play."""

    fighter: Id
    hex: HexLabel


class BreakContact(Struct, frozen=True, kw_only=True, tag="BreakContact"):
    """The player gives up a tally or AI fix (base game: lost at range, broken off)."""

    fighter: Id
    hex: HexLabel
