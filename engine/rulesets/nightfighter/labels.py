"""The nightfighter view in the rules' words (engine/kit/labels.py): each field's label and
the names of its coded values, for `umpire state` and the browser. Seed 004_c3eb2ad371d7bb6a.txt."""

from __future__ import annotations

from umpire.engine.hexgrid import DIRECTION_NAMES
from umpire.engine.kit.labels import Labels, named
from umpire.engine.rulesets.nightfighter.campaign import CampaignKind
from umpire.engine.rulesets.nightfighter.terms import (
    Arc,
    Jamming,
    Marker,
    Pace,
    Phase,
    RadarKind,
    Status,
    Track,
    Uncertainty,
    Visibility,
)

FIELDS: dict[str, str] = {
    "active": "Active",
    "ai_arc": "AI arc",
    "ai_fixed_by": "Fixed by AI radar of",
    "ai_jamming": "AI jamming",
    "ai_range": "AI range",
    "ai_searched": "AI searched",
    "aircraft": "Aircraft",
    "basic_tally_failed": "Basic tally failed",
    "bomber": "Bomber",
    "bombers": "Bombers",
    "campaign": "Campaign",
    "campaign_aircraft": "Campaign aircraft",
    "certain": "Certain",
    "cloud": "Cloud",
    "contrails": "Contrails",
    "corkscrewed": "Corkscrewed",
    "counters": "Counters",
    "counters_due": "Bomber counters due",
    "cup": "Bomber counters in the cup",
    "deck": "Deck",
    "deck_month": "Deck month",
    "dice": "Dice",
    "enter_col": "Entry column",
    "enter_turn": "Entry turn",
    "even_columns": "Even columns",
    "excluded": "Excluded",
    "facing": "Facing",
    "fighter": "Fighter",
    "fighters": "Fighters",
    "flying": "Flying",
    "h2s": "H2S",
    "heading": "Heading",
    "hex": "Hex",
    "hexes": "Hexes",
    "high_altitude": "High altitude",
    "id": "Id",
    "idle_weeks": "Idle weeks",
    "jamming": "Jamming",
    "ju88": "Ju 88",
    "kind": "Kind",
    "level": "Level",
    "max_col": "Last column",
    "max_mp": "Max MP",
    "max_row": "Last row",
    "min_col": "First column",
    "min_row": "First row",
    "modifications": "Modifications",
    "moved": "Moved",
    "name": "Name",
    "night_cards": "Night cards",
    "odd_columns": "Odd columns",
    "optional_rules": "Optional rules",
    "out_until": "Out until",
    "pace": "Phases pass",
    "phase": "Phase",
    "radar_placed": "Radar placed",
    "radar_searched": "Radar searched",
    "radars": "Radars",
    "result": "Result",
    "scenario": "Scenario",
    "score": "Score",
    "search_value": "Search value",
    "searchlight": "Searchlight",
    "serrate_used": "Serrate used this turn",
    "setup": "Setup",
    "speed": "Speed",
    "status": "Status",
    "tallied_by": "Tallied by",
    "tally_attempts": "Tally attempts",
    "tally_keep_range": "Tally keep range",
    "track": "Track",
    "turn": "Turn",
    "visibility": "Visibility",
    "week": "Week",
    "wounded_until": "Wounded until",
    "y_guided": "Y-guided",
    "zones": "Zones",
    "zones_done": "Search zones done",
}
# A facing or heading (setup.Direction) by its compass point on the map, not its number.
_POINTS = {str(d): name for d, name in enumerate(DIRECTION_NAMES)}

VALUES: dict[str, dict[str, str]] = {
    "ai_arc": named(Arc),
    "facing": _POINTS,
    "heading": _POINTS,
    "ai_jamming": named(Jamming),
    "jamming": named(Jamming),
    "kind": {**named(RadarKind), **named(CampaignKind)},
    "level": named(Uncertainty),
    "pace": named(
        Pace, RUN_ON="on by themselves to the next decision", EVERY_PHASE="at the player's EndPhase"
    ),
    "phase": named(
        Phase,
        AI_RADAR="AI Radar",
        BOMBER_MOVEMENT="Bomber Movement",
        FIGHTER_MOVEMENT="Fighter Movement",
        RADAR_SEARCH="Radar Search",
    ),
    "marker": named(
        Marker, AI_FIX="AI fix", SEARCHLIGHT_FIX="searchlight fix", TRACK_CONTACT="track contact"
    ),
    "status": named(Status),
    # A game recorded before v9 holds turn 0 until its first command (README ledger "the
    # opening"): said as what it is, before turn 1, not as a turn of its own.
    "turn": {"0": "0 (before turn 1)"},
    "track": named(Track),
    "visibility": named(Visibility),
}

LABELS = Labels(fields=FIELDS, values=VALUES, keyed=("excluded",))
