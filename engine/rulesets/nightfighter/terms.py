"""Game terms of the Nightfighter solitaire rules, defined once (004_c3eb2ad371d7bb6a.txt).

Every citation string in this package is built with `cite`, so that each decision event
names the seed file and the rule it applied.
"""

from __future__ import annotations

from enum import StrEnum

from umpire.engine.kit.citation import citations

SEED = "004_c3eb2ad371d7bb6a.txt"

cite = citations(SEED)


# The seed has no numbered sequence of play: its example of play shows the phases' order.
RULE_SEQUENCE = cite("EXAMPLE OF PLAY (sequence of play)")


class Uncertainty(StrEnum):
    """S5.0: the four levels of uncertainty of a bomber counter (S5.1-S5.4)."""

    NONE = "none"  # S5.1
    LOW = "low"  # S5.2
    MODERATE = "moderate"  # S5.3
    HIGH = "high"  # S5.4


class Track(StrEnum):
    """S5.1/S5.2: where a track contact marker sits on a counter, if it has one."""

    ABSENT = "absent"
    BENEATH = "beneath"  # low uncertainty (S5.2, S16.0)
    ON_TOP = "on_top"  # localised by a search value one radar (S13.0)


class Status(StrEnum):
    """Where a bomber counter is: due to enter, on the map, off the map, or removed."""

    PENDING = "pending"  # S8.0: due to enter on a later turn
    ON_MAP = "on_map"
    OFF_MAP = "off_map"  # S7.0: moved or shifted off the map
    REMOVED = "removed"  # S5.4: revealed as a phantom
    SHOT_DOWN = "shot_down"  # base-game combat destroyed the tallied bomber (S17.0)


class Marker(StrEnum):
    """S5.1: the markers that fix a bomber's true location."""

    TALLY = "tally"
    SEARCHLIGHT_FIX = "searchlight_fix"
    AI_FIX = "ai_fix"
    TRACK_CONTACT = "track_contact"


class Phase(StrEnum):
    """The phases of a game turn, in the order the example of play runs them."""

    BOMBER_MOVEMENT = "bomber_movement"
    FIGHTER_MOVEMENT = "fighter_movement"
    RADAR_SEARCH = "radar_search"
    AI_RADAR = "ai_radar"
    SEARCHLIGHT = "searchlight"
    TALLY = "tally"
    COMBAT = "combat"


PHASE_ORDER: tuple[Phase, ...] = tuple(Phase)


class RadarKind(StrEnum):
    """S13.0, S24.0, S25.0: the kinds of search radar and passive device."""

    GROUND = "ground"  # S13.0 (Freya, Wuerzburg, SCR-270 ...)
    GCI = "gci"  # S25.0
    MEW = "mew"  # S25.0
    FLENSBURG = "flensburg"  # S24.0
    NAXOS = "naxos"  # S24.0
    SERRATE = "serrate"  # SCENARIO 7 focused search


class Jamming(StrEnum):
    """S24.0: how heavily a radar is jammed."""

    NONE = "none"
    LIGHT = "light"
    HEAVY = "heavy"


class Arc(StrEnum):
    """S19.0: the AI radar arcs of the base game (narrow: straight ahead; wide: 120°)."""

    NARROW = "narrow"
    WIDE = "wide"


class Visibility(StrEnum):
    """S3.0/S10.0: base-game visibility (sets the normal tally range)."""

    GOOD = "good"
    MODERATE = "moderate"
    POOR = "poor"


class TallyKind(StrEnum):
    """S10.0 basic tally; S15.0 advanced (fixed-target) tally."""

    BASIC = "basic"
    FIXED = "fixed"


class PhantomResult(StrEnum):
    """S5.4: what a phantom test showed."""

    REAL = "real"  # the other counters are removed
    PHANTOM = "phantom"  # the tested counter is removed


class Pace(StrEnum):
    """How the turn's phases pass (README "Pace"): `run_on` (default) ends by itself each
    phase in which the player has nothing to decide, up to the next point where the player
    must act; `every_phase` stops in every phase until the player sends `EndPhase`."""

    RUN_ON = "run_on"
    EVERY_PHASE = "every_phase"
