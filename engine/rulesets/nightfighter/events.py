"""Events of the Nightfighter solitaire ruleset (tagged "nightfighter.<PastTense>").

Every umpire decision carries `rule`, `dice` (the DiceRolled roll numbers it used),
`candidates` and `explanation`. The secrets among them are declared once, in view.py
(`SECRETS`), and redacted for the player and spectators until the seed is revealed.
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.decision import Decision
from umpire.engine.rulesets.nightfighter.campaign import CampaignRolled, CampaignWeekEnded
from umpire.engine.rulesets.nightfighter.serrate_messages import CounterRevealed, SerrateSearched
from umpire.engine.rulesets.nightfighter.terms import Marker, PhantomResult, Phase, TallyKind


class TurnStarted(Decision, frozen=True, kw_only=True, tag="nightfighter.TurnStarted"):
    """A new game turn began (per-turn records and S5.5 exclusions are cleared)."""

    turn: int


class PhaseBegan(Decision, frozen=True, kw_only=True, tag="nightfighter.PhaseBegan"):
    """The next phase of the turn began."""

    phase: Phase


class NewCounter(Struct, frozen=True, kw_only=True):
    """A counter created for a bomber due to enter."""

    id: str
    enter_turn: int
    enter_col: int


class CountersDue(Decision, frozen=True, kw_only=True, tag="nightfighter.CountersDue"):
    """S8.0: the counters that represent a bomber due to enter, and their uncertainty."""

    bomber: str
    level: str
    counters: tuple[NewCounter, ...]
    speed: int
    heading: int
    h2s: bool = False
    certain: bool = False  # scenario 8F: a V-1 is never uncertain


class CounterMoved(Decision, frozen=True, kw_only=True, tag="nightfighter.CounterMoved"):
    """S7.0/S8.0: a bomber counter entered, moved, or left the map (`to_hex` '')."""

    counter: str
    from_hex: str
    to_hex: str
    hexes: int


class MarkersLost(Decision, frozen=True, kw_only=True, tag="nightfighter.MarkersLost"):
    """S5.1/S16.0/S17.0: markers lost; with none left the counter reverts to low."""

    counter: str
    lost: tuple[Marker, ...]
    fighters: tuple[str, ...] = ()


class SearchlightHandedOff(
    Decision, frozen=True, kw_only=True, tag="nightfighter.SearchlightHandedOff"
):
    """S14.0 (base game hand-off): a fixed bomber entering another zone keeps its fix."""

    counter: str
    from_zone: str
    to_zone: str


class PhantomTested(Decision, frozen=True, kw_only=True, tag="nightfighter.PhantomTested"):
    """S5.4: a high uncertainty counter tested: the others or the counter itself removed."""

    counter: str
    bomber: str
    others: int
    value: int
    result: PhantomResult
    removed: tuple[str, ...]
    now_moderate: tuple[str, ...]
    now_level: str = "moderate"


class Localised(Decision, frozen=True, kw_only=True, tag="nightfighter.Localised"):
    """S5.2/S5.3: the bomber found in a hex of its area: counter shifted, marker on top."""

    counter: str
    from_hex: str
    to_hex: str
    cell: str
    marker: Marker
    by: str


class LocalisationFailed(
    Decision, frozen=True, kw_only=True, tag="nightfighter.LocalisationFailed"
):
    """S5.2/S5.5: the location roll fell outside the search area; the area is excluded
    for later location rolls against that bomber this turn."""

    counter: str
    bomber: str
    search_area: tuple[str, ...]
    excluded: tuple[str, ...]


class LocationRolled(Decision, frozen=True, kw_only=True, tag="nightfighter.LocationRolled"):
    """The umpire's secret: where a failed location roll pointed (S5.2/S5.3). Hidden from
    the player and spectators until the seed is revealed (the player learns only that the
    search failed)."""

    counter: str
    rolled_cell: str
    rolled_hex: str


class CounterShifted(Decision, frozen=True, kw_only=True, tag="nightfighter.CounterShifted"):
    """S5.3/S13.0: ground radar narrowed a moderate counter to low (or localised a low one
    with a track contact on top); `to_hex` '' means shifted off the map (S7.0)."""

    counter: str
    from_hex: str
    to_hex: str
    cell: str
    track_on_top: bool


class FighterMoved(Decision, frozen=True, kw_only=True, tag="nightfighter.FighterMoved"):
    """A nightfighter moved (`to_hex` '' when it left the map)."""

    fighter: str
    path: tuple[str, ...]
    to_hex: str
    facing: int


class RadarSearchesPlaced(
    Decision, frozen=True, kw_only=True, tag="nightfighter.RadarSearchesPlaced"
):
    """S13.0: every radar search counter placed before any is resolved."""

    placements: tuple[tuple[str, str], ...]  # (radar, hex)


class JammingTested(Decision, frozen=True, kw_only=True, tag="nightfighter.JammingTested"):
    """S24.0/S25.0: a jammed search radar's counter tested before any effect."""

    radar: str
    hex: str
    value: int
    removed: bool


class RadarSearchResolved(
    Decision, frozen=True, kw_only=True, tag="nightfighter.RadarSearchResolved"
):
    """S13.0/S24.0/S25.0: one radar search counter resolved."""

    radar: str
    counter: str
    search_value: int
    value: int
    modified: int
    outcome: str
    tracks: bool = False  # searched by a radar that keeps track contacts (value one, MEW)


class TrackContactKept(Decision, frozen=True, kw_only=True, tag="nightfighter.TrackContactKept"):
    """S13.0: a track contact on top kept by a search value one radar searching again."""

    counter: str
    radar: str


class AISearched(Decision, frozen=True, kw_only=True, tag="nightfighter.AISearched"):
    """S19.0/S24.0: a nightfighter's one AI search this phase, against one counter."""

    fighter: str
    counter: str
    search_area: tuple[str, ...]
    outcome: str


class SearchlightSearched(
    Decision, frozen=True, kw_only=True, tag="nightfighter.SearchlightSearched"
):
    """S14.0: a searchlight zone's one search this phase."""

    zone: str
    counter: str
    dice_count: int
    outcome: str
    also_zone: str = ""  # a second zone that may search no more this phase


class TallyAttempted(Decision, frozen=True, kw_only=True, tag="nightfighter.TallyAttempted"):
    """S10.0/S15.0: a nightfighter's tally attempt against one counter."""

    fighter: str
    counter: str
    kind: TallyKind
    dice_count: int
    succeeded: bool


class MarkerPlaced(Decision, frozen=True, kw_only=True, tag="nightfighter.MarkerPlaced"):
    """S5.1: a marker placed on a counter already at no uncertainty (no location roll)."""

    counter: str
    marker: Marker
    by: str


class BomberResponseRolled(
    Decision, frozen=True, kw_only=True, tag="nightfighter.BomberResponseRolled"
):
    """S17.0: a tallied bomber's response roll (read on the published table)."""

    counter: str
    fighter: str
    value: int


class BomberShotDown(Decision, frozen=True, kw_only=True, tag="nightfighter.BomberShotDown"):
    """S17.0 (base-game combat): the tallied bomber was destroyed; its counter leaves play."""

    counter: str
    bomber: str
    fighter: str


class Corkscrewed(Decision, frozen=True, kw_only=True, tag="nightfighter.Corkscrewed"):
    """S17.0/S28.0: the bomber corkscrews: markers lost (tally and AI fix kept if the
    fighter follows, rule 28.1), low uncertainty, firepower 0 this turn, no displacement."""

    counter: str
    fighter: str
    followed: bool
    lost: tuple[Marker, ...]


EVENT_TYPES: tuple[type[Struct], ...] = (
    TurnStarted,
    PhaseBegan,
    CountersDue,
    CounterMoved,
    MarkersLost,
    SearchlightHandedOff,
    PhantomTested,
    Localised,
    LocalisationFailed,
    LocationRolled,
    CounterShifted,
    FighterMoved,
    RadarSearchesPlaced,
    JammingTested,
    RadarSearchResolved,
    TrackContactKept,
    AISearched,
    SearchlightSearched,
    TallyAttempted,
    MarkerPlaced,
    BomberResponseRolled,
    Corkscrewed,
    CampaignRolled,
    CampaignWeekEnded,
    CounterRevealed,
    SerrateSearched,
    BomberShotDown,
)
