"""Events of the age_of_dogfights ruleset: the umpire's decisions and the player's reports.

Every decision event carries `rule` (seed file and section), `dice` (roll numbers used),
`candidates` (every option considered, chosen or rejected with the reason) and
`explanation` (plain words), for the aircraft it concerns.
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.decision import Decision as BaseDecision
from umpire.engine.rulesets.age_of_dogfights.geometry import Heading
from umpire.engine.rulesets.age_of_dogfights.terms import (
    Aggressiveness,
    Attitude,
    Column,
    Damage,
    DieColour,
    Gun,
    Manoeuvre,
    Skill,
    Steer,
    Task,
)

P = "age_of_dogfights."


class Decision(BaseDecision, frozen=True, kw_only=True):
    """A bot's decision (engine.decision.Decision) about one aircraft."""

    aircraft: str


# --- Game Setup ---------------------------------------------------------------------------


class SkillRolled(Decision, frozen=True, kw_only=True, tag=P + "SkillRolled"):
    """Game Setup: pilot skill level of a fighter."""

    skill: Skill


class AggressivenessRolled(Decision, frozen=True, kw_only=True, tag=P + "AggressivenessRolled"):
    """Game Setup: aggressiveness of a bot fighter."""

    aggressiveness: Aggressiveness


class AltitudeRolled(Decision, frozen=True, kw_only=True, tag=P + "AltitudeRolled"):
    """Game Setup: a bot's starting altitude stand."""

    level: int


class SetupCompleted(Struct, frozen=True, kw_only=True, tag=P + "SetupCompleted"):
    """Game Setup done; combat rounds may begin."""

    rule: str


# --- Combat round -------------------------------------------------------------------------


class RoundStarted(Struct, frozen=True, kw_only=True, tag=P + "RoundStarted"):
    """A game round begins; the bots fly in designation order."""

    round: int
    rule: str


class DieChosen(Decision, frozen=True, kw_only=True, tag=P + "DieChosen"):
    """Combat: blue or green die for this round."""

    colour: DieColour
    safe_throttle_left: int


class MovementRolled(Decision, frozen=True, kw_only=True, tag=P + "MovementRolled"):
    """The chosen die rolled: movement steps this round (base-game placeholder model)."""

    colour: DieColour
    face: int
    steps: int


class ExposureChecked(Decision, frozen=True, kw_only=True, tag=P + "ExposureChecked"):
    """Step I: is a position Exposed (all five conditions), and to whom."""

    exposed: bool
    threats: tuple[str, ...] = ()
    situation: str = "initial position"


class ResponseRolled(Decision, frozen=True, kw_only=True, tag=P + "ResponseRolled"):
    """A die-table decision (Step I, III, approach, unjamming, mission and retreat rolls)."""

    table: str
    modified: int
    result: str


class FiringPositionsFound(Decision, frozen=True, kw_only=True, tag=P + "FiringPositionsFound"):
    """Step II: every reachable firing position, as opportunities in priority order."""

    opportunities: tuple[str, ...]


class EqualChoiceRolled(Decision, frozen=True, kw_only=True, tag=P + "EqualChoiceRolled"):
    """A die among equal options (Step II priority 4 or General Rules)."""

    question: str
    chosen: str


class CardinalRuleApplied(Decision, frozen=True, kw_only=True, tag=P + "CardinalRuleApplied"):
    """General Rules, cardinal rule: an illogical result replaced by the best alternative."""

    situation: str
    chosen: str


class BotMoved(Decision, frozen=True, kw_only=True, tag=P + "BotMoved"):
    """The bot's movement this round: path, end position, altitude and attitude."""

    manoeuvre: Manoeuvre
    turns: tuple[Steer, ...]
    path: tuple[tuple[int, int], ...]
    position: tuple[int, int]
    heading: Heading
    level: int
    attitude: Attitude
    target: str = ""
    exited: bool = False
    used_green: bool = False


class BurstChosen(Decision, frozen=True, kw_only=True, tag=P + "BurstChosen"):
    """Long Burst: the bot fires from its firing position; short or long burst."""

    target: str
    gun: Gun
    column: Column
    burst: str
    ammo_used: int
    ammo_left: int


class GunsUnjammed(Decision, frozen=True, kw_only=True, tag=P + "GunsUnjammed"):
    """Jammed Machine Guns: flying straight all round unjammed the pilot's guns."""


class RetreatDecided(Decision, frozen=True, kw_only=True, tag=P + "RetreatDecided"):
    """General Rules: the bot must retreat (noted: it keeps retreating) or fights on."""

    retreating: bool
    reason: str


class TaskPerformed(Decision, frozen=True, kw_only=True, tag=P + "TaskPerformed"):
    """'Mission' Aircraft: a mission bot over a Task Zone performs its task."""

    zone: str
    task: Task


class RoundEnded(Struct, frozen=True, kw_only=True, tag=P + "RoundEnded"):
    """Every bot has flown this round."""

    round: int


# --- Player reports -----------------------------------------------------------------------


class PlayerAircraftReported(Struct, frozen=True, kw_only=True, tag=P + "PlayerAircraftReported"):
    """The player's own aircraft after their move and the base game's results."""

    aircraft: str
    position: tuple[int, int]
    heading: Heading
    level: int
    attitude: Attitude
    has_ammo: bool
    jammed: bool
    damaged: bool
    can_fire: bool
    mission_done: bool
    lost: bool


class BotDamageReported(Struct, frozen=True, kw_only=True, tag=P + "BotDamageReported"):
    """A base-game result on a bot, as the player resolved it."""

    aircraft: str
    damage: Damage


EVENT_TYPES: tuple[type[Struct], ...] = (
    SkillRolled,
    AggressivenessRolled,
    AltitudeRolled,
    SetupCompleted,
    RoundStarted,
    DieChosen,
    MovementRolled,
    ExposureChecked,
    ResponseRolled,
    FiringPositionsFound,
    EqualChoiceRolled,
    CardinalRuleApplied,
    BotMoved,
    BurstChosen,
    GunsUnjammed,
    RetreatDecided,
    TaskPerformed,
    RoundEnded,
    PlayerAircraftReported,
    BotDamageReported,
)
