"""CAMPAIGN MODIFICATIONS and the Pilot Campaign (green 'lite' and seasoned variants).

A campaign is a long-lived game in the log like any other: the weekly flying, engagement
and scenario-card rolls, the night-continuation roll and the win, loss and draw checks are
umpire decisions here. Base-game results the seed leaves to the published rules (the A7.1
aircraft recovery table, crew injury, kills scored in the scenario played) are reported
by the player with `EndCampaignWeek`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

from msgspec import UNSET, Meta, Struct, UnsetType
from msgspec.structs import replace

from umpire.engine.decision import Candidate, Decision
from umpire.engine.dice import d6, draw, nd6
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.nightfighter.terms import cite
from umpire.events.types import DiceRolled, Owner

if TYPE_CHECKING:  # turn.py imports evolve, which imports evolve_campaign from here
    from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn

RULE = cite("CAMPAIGN MODIFICATIONS")
RULE_PILOT = cite("Pilot Campaign")
# Calendar months from June 1942 (1943 is not a leap year): (month, days).
MONTHS = ((6, 30), (7, 31), (8, 31), (9, 30), (10, 31), (11, 30), (12, 31), (1, 31), (2, 28),
          (3, 31), (4, 30), (5, 31))  # fmt: skip
WEEKS = 52  # June 1942 to the end of May 1943
# Pilot Campaign: retraining "From November onwards" (to the end of May 1943).
RETRAINING_MONTHS = (11, 12, 1, 2, 3, 4, 5)
SUITS = ("H", "D", "C", "S")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = "JOKER"
DECK: tuple[str, ...] = (*(r + s for s in SUITS for r in RANKS), JOKER)


class CampaignKind(StrEnum):
    """Which campaign: none, the full campaign, or a pilot campaign."""

    NONE = "none"
    FULL = "full"
    LITE = "lite"  # green pilot, no kills, from June 1942
    SEASONED = "seasoned"  # eight kills, Me110F-4 / Ju88C-6 from the start


class Moon(StrEnum):
    """The moon that week."""

    FULL = "full"
    HALF = "half"
    NONE = "none"


class CampaignState(Struct, frozen=True, kw_only=True):
    """Where a campaign stands."""

    kind: CampaignKind
    week: int = 1
    score: int = 0  # lite: kill points (4 twin, 6 four-engined); seasoned: kills
    aircraft: str = ""
    out_until: int = 0  # first week the pilot may fly again
    wounded_until: int = 0
    idle_weeks: int = 0
    deck: tuple[str, ...] = DECK
    deck_month: int = 6
    flying: bool = False
    night_cards: int = 0
    result: str = ""
    # Pilot Campaign: the Iron Cross 1st Class, once awarded, stays awarded (README ledger,
    # "Pilot Campaign, the Iron Cross"). UNSET until then, so it leaves the encoding (and
    # the state hash of every game that never reports it) as it was before v5.
    iron_cross_first_class: bool | UnsetType = UNSET


def month_of(week: int) -> int:
    """The calendar month in which a campaign week starts (week 1: Monday 1 June 1942)."""
    day = 7 * (week - 1)
    for month, days in MONTHS:
        if day < days:
            return month
        day -= days
    return 5


def start(kind: CampaignKind, aircraft: str) -> CampaignState | None:
    """The campaign's opening state (None when no campaign is played)."""
    if kind is CampaignKind.NONE:
        return None
    if kind is CampaignKind.SEASONED:
        return CampaignState(kind=kind, score=8, aircraft=aircraft or "Me110F-4")
    return CampaignState(kind=kind, aircraft=aircraft or "Me110E-4")


class CampaignRolled(Decision, frozen=True, kw_only=True, tag="nightfighter.CampaignRolled"):
    """A campaign decision: what was rolled or drawn and what follows."""

    step: str
    flying: bool = False
    engaged: bool = False
    card: str = ""
    scenario: str = ""
    raid: str = ""
    deck: tuple[str, ...] = ()
    deck_month: int = 0
    night_cards: int = 0


class CampaignWeekEnded(Decision, frozen=True, kw_only=True, tag="nightfighter.CampaignWeekEnded"):
    """The week is over: delays, retraining, score and the end-of-week verdict."""

    week: int
    score: int
    aircraft: str
    out_until: int
    wounded_until: int
    idle_weeks: int
    result: str = ""
    # v5: the week's report of the Iron Cross 1st Class, kept by the campaign state. UNSET
    # when not reported, so such an event encodes byte for byte as a v4 one did.
    iron_cross_first_class: bool | UnsetType = UNSET


def iron_cross(campaign: CampaignState) -> bool:
    """Pilot Campaign: whether the Iron Cross 1st Class has been awarded in any week so far."""
    return campaign.iron_cross_first_class is True


class RollCampaignWeek(Struct, frozen=True, kw_only=True, tag="RollCampaignWeek"):
    """Pilot Campaign: the week's flying and engagement rolls (and the scenario card)."""

    moon: Moon


class DrawScenarioCard(Struct, frozen=True, kw_only=True, tag="DrawScenarioCard"):
    """Full campaign: draw the next scenario card of the night."""


class RollNightContinuation(Struct, frozen=True, kw_only=True, tag="RollNightContinuation"):
    """CAMPAIGN MODIFICATIONS: after each scenario (or a Joker), does the night go on?"""

    moon: Moon


class EndCampaignWeek(Struct, frozen=True, kw_only=True, tag="EndCampaignWeek"):
    """The base-game results of the week, as the player read them (A7.1 recovery etc.)."""

    recovery: Annotated[str, Meta(pattern=r"^(ok|damaged|written_off|destroyed)$")] = "ok"
    points: Annotated[int, Meta(ge=-60, le=60)] = 0
    wounded_weeks: Annotated[int, Meta(ge=0, le=60)] = 0
    killed_or_crippled: bool = False
    no_longer_seasoned: bool = False
    iron_cross_first_class: bool = False


def _dice_for(moon: Moon) -> int:
    """Pilot Campaign: two dice in full moon weeks, three in half moon, four with no moon."""
    return {Moon.FULL: 2, Moon.HALF: 3, Moon.NONE: 4}[moon]


def _need(campaign: CampaignState | None) -> CampaignState:
    if campaign is None:
        raise RuleError("no campaign is being played (setup campaign is 'none')", rule=RULE)
    if campaign.result:
        raise RuleError(f"the campaign is over: {campaign.result}", rule=RULE)
    return campaign


def _card(
    turn: NightfighterTurn, campaign: CampaignState, week: int, rule: str
) -> tuple[DiceRolled, dict[str, object]]:
    """Draw a card (the pack reshuffled every month in the pilot campaign): hearts give a
    Dunaja scenario, others Himmelbett; J, Q, K a massive raid; the Joker no engagement."""
    deck, month = campaign.deck, campaign.deck_month
    # The pilot campaign reshuffles every month; the full campaign every week (base game).
    period = week if campaign.kind is CampaignKind.FULL else month_of(week)
    if period != month or not deck:
        deck, month = DECK, period
    roll = turn.roll(draw(len(deck)), "scenario card", rule, owner=Owner.OPPONENT)
    card = deck[roll.total - 1]
    rest = tuple(c for i, c in enumerate(deck) if i != roll.total - 1)
    if card == JOKER:
        info: dict[str, object] = {"card": card, "scenario": "", "raid": "", "engaged": False}
    else:
        info = {
            "card": card,
            "scenario": "Dunaja" if card.endswith("H") else "Himmelbett",
            "raid": "massive" if card[:-1] in ("J", "Q", "K") else "normal",
            "engaged": True,
        }
    info.update(deck=rest, deck_month=month)
    return roll, info


def roll_week(turn: NightfighterTurn, command: RollCampaignWeek) -> None:
    """Pilot Campaign: an eligible pilot rolls the moon's number of dice (seasoned pilots
    fly automatically); any 6 means flying; then the same number again, any 6 to engage,
    and a card for the scenario."""
    c = _need(turn.state.campaign)
    if c.kind not in (CampaignKind.LITE, CampaignKind.SEASONED):
        raise RuleError("weekly flying rolls belong to the pilot campaigns", rule=RULE_PILOT)
    if c.flying:
        raise RuleError("this week's rolls are made; end the week first", rule=RULE_PILOT)
    n = _dice_for(command.moon)
    if c.week < c.out_until:
        why = "grounded (aircraft repairs or wounds)"
        turn.emit(CampaignRolled(rule=RULE_PILOT, step="week", explanation=f"week {c.week}: {why}"))
        return
    nums: list[int] = []
    flying = True
    if c.kind is CampaignKind.LITE:
        roll = turn.roll(nd6(n), "flying this week?", RULE_PILOT, owner=Owner.PLAYER)
        nums.append(roll.roll)
        flying = 6 in roll.faces
    engaged = False
    info: dict[str, object] = {}
    if flying:
        roll = turn.roll(nd6(n), "engaging the enemy?", RULE_PILOT, owner=Owner.PLAYER)
        nums.append(roll.roll)
        engaged = 6 in roll.faces
        if engaged:
            card_roll, info = _card(turn, c, c.week, RULE_PILOT)
            nums.append(card_roll.roll)
            engaged = bool(info["engaged"])
    text = f"week {c.week} ({command.moon.value} moon, {n} dice): " + (
        "not flying"
        if not flying
        else (
            "engages: " + f"{info.get('card')} {info.get('scenario')} {info.get('raid')} raid"
            if engaged
            else "flies, no engagement" + (" (Joker)" if info else "")
        )
    )
    turn.emit(
        CampaignRolled(
            rule=RULE_PILOT,
            dice=tuple(nums),
            explanation=text,
            step="week",
            flying=flying,
            engaged=engaged,
            card=str(info.get("card", "")),
            scenario=str(info.get("scenario", "")),
            raid=str(info.get("raid", "")),
            deck=info.get("deck", c.deck),  # type: ignore[arg-type]
            deck_month=int(info.get("deck_month", c.deck_month)),  # type: ignore[call-overload]
        )
    )


def draw_card(turn: NightfighterTurn, command: DrawScenarioCard) -> None:
    """Full campaign: the next scenario card of the night (no monthly maxima or minima)."""
    c = _need(turn.state.campaign)
    if c.kind is not CampaignKind.FULL:
        raise RuleError("pilot campaigns draw their card with the week's rolls", rule=RULE)
    roll, info = _card(turn, c, c.week, RULE)
    turn.emit(
        CampaignRolled(
            rule=RULE,
            dice=(roll.roll,),
            explanation=f"card {info['card']}: {info['scenario'] or 'Joker'} {info['raid']}",
            step="card",
            engaged=bool(info["engaged"]),
            card=str(info["card"]),
            scenario=str(info["scenario"]),
            raid=str(info["raid"]),
            deck=info["deck"],  # type: ignore[arg-type]
            deck_month=int(info["deck_month"]),  # type: ignore[call-overload]
            night_cards=c.night_cards + 1,
        )
    )


def night_continues(turn: NightfighterTurn, command: RollNightContinuation) -> None:
    """CAMPAIGN MODIFICATIONS: a die, minus one per card already drawn that night, minus
    one in a full moon week, plus one with no moon; 3+ draws another card, else the night
    ends."""
    c = _need(turn.state.campaign)
    if c.kind is not CampaignKind.FULL:
        # Pilot Campaign: "Only one scenario is played per week"; the week's own rolls
        # decide whether it is played, so no roll asks for another.
        raise RuleError(
            "a pilot campaign plays one scenario a week: there is no roll for another "
            "(RollCampaignWeek decides the week's scenario; end the week with EndCampaignWeek)",
            rule=RULE_PILOT,
        )
    roll = turn.roll(d6(), "does the night continue?", RULE, owner=Owner.OPPONENT)
    moon = {Moon.FULL: -1, Moon.HALF: 0, Moon.NONE: 1}[command.moon]
    score = roll.total - c.night_cards + moon
    more = score >= 3
    turn.emit(
        CampaignRolled(
            rule=RULE,
            dice=(roll.roll,),
            candidates=(
                Candidate(option="another card", chosen=more, reason=f"modified {score} (3+)"),
                Candidate(option="night ends", chosen=not more, reason=f"modified {score} (<3)"),
            ),
            explanation=(
                f"roll {roll.total} - {c.night_cards} cards {moon:+d} moon = {score}: "
                + ("another scenario card" if more else "the night ends; recovery phase")
            ),
            step="night",
            night_cards=c.night_cards if more else 0,
            deck=c.deck,
            deck_month=c.deck_month,
        )
    )


def end_week(turn: NightfighterTurn, command: EndCampaignWeek) -> None:
    """Pilot Campaign: repairable damage grounds the pilot next week, a written-off or
    destroyed aircraft the next two (wounds run concurrently); from November two idle weeks
    retrain onto the Me110F-4 / Ju88C-6; win at the end of a week with 20 (points or
    kills), lose if killed or crippled (or, seasoned, no longer seasoned); after May 1943 a
    draw."""
    c = _need(turn.state.campaign)
    week = c.week
    if c.kind is CampaignKind.FULL:
        # The grounding, retraining and Knight's Cross verdicts below are the Pilot
        # Campaign's; the full campaign keeps the published campaign's week (its recovery,
        # replacements and victory are base-game steps the player resolves).
        turn.emit(
            CampaignWeekEnded(
                rule=RULE,
                explanation=f"week {week} ends (full campaign: the published campaign's "
                "recovery, replacements and victory apply)",
                week=week + 1,
                score=c.score,
                aircraft=c.aircraft,
                out_until=c.out_until,
                wounded_until=c.wounded_until,
                idle_weeks=c.idle_weeks,
            )
        )
        return
    out_until = max(c.out_until, {"damaged": week + 2, "written_off": week + 3,
                                  "destroyed": week + 3}.get(command.recovery, 0))  # fmt: skip
    wounded_until = max(c.wounded_until, week + 1 + command.wounded_weeks
                        if command.wounded_weeks else 0)  # fmt: skip
    out_until = max(out_until, wounded_until)
    flew = c.flying
    idle = 0 if flew or week < wounded_until else c.idle_weeks + 1
    aircraft = c.aircraft
    # Retraining needs both idle weeks "from November onwards" (a week is in the month it
    # starts in): an idle week begun in October does not open the two-week period (README
    # ledger, "Pilot Campaign, retraining").
    period = (month_of(week - 1), month_of(week))
    if idle >= 2 and all(m in RETRAINING_MONTHS for m in period):
        aircraft = {"Me110E-4": "Me110F-4", "Ju88C-2": "Ju88C-6"}.get(aircraft, aircraft)
    score = c.score + command.points
    # Pilot Campaign: the award counts if it was made in any week, not only the last.
    awarded = iron_cross(c) or command.iron_cross_first_class
    result = ""
    if command.killed_or_crippled or (
        c.kind is CampaignKind.SEASONED and command.no_longer_seasoned
    ):
        result = "defeat"
    elif score >= 20:
        result = "victory"
    elif week >= WEEKS:
        minor = awarded if c.kind is CampaignKind.LITE else score >= 16
        result = "draw (minor victory)" if minor else "draw (minor defeat)"
    award = ""
    if command.iron_cross_first_class:
        award = "; Iron Cross 1st Class " + ("already held" if iron_cross(c) else "awarded")
    elif awarded and result.startswith("draw") and c.kind is CampaignKind.LITE:
        award = "; Iron Cross 1st Class held"
    turn.emit(
        CampaignWeekEnded(
            rule=RULE_PILOT,
            explanation=f"week {week} ends: score {score}, {aircraft}"
            + award
            + (f"; {result}" if result else ""),
            week=week + 1,
            score=score,
            aircraft=aircraft,
            out_until=out_until,
            wounded_until=wounded_until,
            idle_weeks=idle,
            result=result,
            iron_cross_first_class=True if command.iron_cross_first_class else UNSET,
        )
    )


def evolve_campaign(campaign: CampaignState | None, event: Struct) -> CampaignState | None:
    """The campaign after one of its events."""
    if campaign is None:
        return None
    if isinstance(event, CampaignRolled):
        flying = event.flying if event.step == "week" else campaign.flying
        return replace(
            campaign,
            flying=flying,
            deck=event.deck or campaign.deck,
            deck_month=event.deck_month or campaign.deck_month,
            night_cards=event.night_cards
            if event.step in ("card", "night")
            else campaign.night_cards,
        )
    if isinstance(event, CampaignWeekEnded):
        return replace(
            campaign,
            week=event.week,
            score=event.score,
            aircraft=event.aircraft,
            out_until=event.out_until,
            wounded_until=event.wounded_until,
            idle_weeks=event.idle_weeks,
            flying=False,
            result=event.result,
            # Pilot Campaign: an award once made stays made.
            iron_cross_first_class=True
            if event.iron_cross_first_class is True
            else campaign.iron_cross_first_class,
        )
    return campaign
