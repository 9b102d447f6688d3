"""The scenario setup: map, bombers due, radars, searchlight zones, fighters and options.

Everything the solitaire rules take from the published game (map edges, bomber speeds and
courses, radar search values, ranges and arcs, searchlight zones and their dice,
visibility) is scenario data here, with a documented default (README.md, "Setup data").
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from umpire.engine.hexgrid import Facing
from umpire.engine.rulesets.nightfighter.terms import Arc, Jamming, Pace, RadarKind, Visibility

HexLabel = Annotated[str, Meta(pattern=r"^\d{4}$", description="CCRR hex label")]
Column = Annotated[int, Meta(ge=1, le=99)]
Name = Annotated[str, Meta(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.\-]+$")]
# A fighter's facing, a bomber's heading (row numbers fall northward): the example of play
# names a facing by the hex faced ("facing hex 0812"); umpire says both.
Direction = Facing


class BomberDue(Struct, frozen=True, kw_only=True):
    """S8.0: one bomber due to enter: its turn, type, speed (hexes a turn) and H2S."""

    id: Name
    turn: Annotated[int, Meta(ge=1, le=99)]
    kind: Annotated[str, Meta(min_length=1, max_length=40)] = "Lancaster"
    speed: Annotated[int, Meta(ge=1, le=9)] = 3
    h2s: bool = False  # S24.0 Naxos: a bomber with tally number 6 carries H2S


class Radar(Struct, frozen=True, kw_only=True):
    """S13.0: a search radar (or S24.0 passive device) with its search value and jamming."""

    name: Name
    kind: RadarKind = RadarKind.GROUND
    search_value: Annotated[int, Meta(ge=1, le=3)] = 1
    jamming: Jamming = Jamming.NONE
    fighter: Annotated[str, Meta(max_length=40)] = (
        ""  # S24.0: the nightfighter carrying a Flensburg or Naxos set
    )


class SearchlightZone(Struct, frozen=True, kw_only=True):
    """S14.0: a searchlight zone: its hexes, standard number of dice and whether active."""

    name: Name
    # A zone is a patch of the map: at most 400 hexes (20 x 20), the map holds 18 x 27.
    hexes: Annotated[tuple[HexLabel, ...], Meta(max_length=400)]
    dice: Annotated[int, Meta(ge=1, le=12)] = 4  # radar-directed zones roll four
    active: bool = True
    cloud: bool = False  # obscured by cloud: no searches (S14.0)


class Fighter(Struct, frozen=True, kw_only=True):
    """A nightfighter: where it starts, its MPs, and its AI radar (S19.0)."""

    id: Name
    kind: Annotated[str, Meta(min_length=1, max_length=40)] = "Do215B-5"
    hex: HexLabel
    facing: Direction = 0
    max_mp: Annotated[int, Meta(ge=1, le=9)] = 4
    ai_range: Annotated[int, Meta(ge=0, le=9)] = 2  # 0: no AI radar
    ai_arc: Arc = Arc.NARROW
    ai_jamming: Jamming = Jamming.NONE  # S24.0
    y_guided: bool = False  # scenario 4G: AI radar treated as lightly jammed


def modification(setup: Setup, name: str) -> bool:
    """Whether a solo scenario modification (SCENARIO MODIFICATIONS) is in force."""
    return name in setup.modifications or setup.scenario.upper() == name


class Setup(Struct, frozen=True, kw_only=True):
    """A Nightfighter solitaire scenario (defaults: scenario 4B as in the example of play)."""

    scenario: Annotated[str, Meta(max_length=40)] = "4B"
    # Solo scenario modifications in force besides the scenario's own (e.g. ("6C", "6H")).
    modifications: Annotated[
        tuple[Annotated[str, Meta(pattern=r"^(2C|4G|4H|6C|6H|7|8F)$")], ...], Meta(max_length=7)
    ] = ()
    min_col: Annotated[int, Meta(ge=1, le=99)] = 1
    max_col: Annotated[int, Meta(ge=1, le=99)] = 18
    min_row: Annotated[int, Meta(ge=1, le=99)] = 1
    max_row: Annotated[int, Meta(ge=1, le=99)] = 27
    heading: Direction = 3  # bombers fly down the map
    bombers: Annotated[tuple[BomberDue, ...], Meta(max_length=200)] = ()
    radars: Annotated[tuple[Radar, ...], Meta(max_length=40)] = ()
    zones: Annotated[tuple[SearchlightZone, ...], Meta(max_length=40)] = ()
    fighters: Annotated[tuple[Fighter, ...], Meta(max_length=40)] = ()
    visibility: Visibility = Visibility.GOOD
    contrails: bool = False  # S21.0
    high_altitude: bool = False  # S21.0
    optional_rules: bool = True  # S28.0
    tally_keep_range: Annotated[int, Meta(ge=0, le=9)] = 1
    campaign: Annotated[str, Meta(pattern=r"^(none|full|lite|seasoned)$")] = "none"
    campaign_aircraft: Annotated[str, Meta(max_length=40)] = ""
    odd_columns: tuple[Column, Column, Column] = (4, 10, 16)  # S8.0
    even_columns: tuple[Column, Column, Column] = (3, 9, 15)  # S8.0
    pace: Pace = Pace.RUN_ON  # README "Pace": phases with nothing to decide run on
