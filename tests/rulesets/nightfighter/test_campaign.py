"""CAMPAIGN MODIFICATIONS and the Pilot Campaign."""

from __future__ import annotations

import pytest

from tests.rulesets.nightfighter.setups import make_setup, named, run
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.nightfighter.campaign import DECK, month_of
from umpire.engine.rulesets.nightfighter.evolve import initial_state


def _campaign(kind: str):  # type: ignore[no-untyped-def]
    return initial_state(make_setup(campaign=kind))


def test_calendar_and_deck() -> None:
    """June 1942 to the end of May 1943; a pack with the Joker."""
    assert month_of(1) == 6 and month_of(52) == 5
    assert len(DECK) == 53 and DECK[-1] == "JOKER"


@pytest.mark.parametrize(
    ("moon", "rolls", "flying", "engaged", "scenario", "raid"),
    [
        ("full", [[1, 2]], False, False, "", ""),
        ("full", [[6, 2], [1, 1]], True, False, "", ""),
        ("half", [[6, 2, 2], [3, 6, 1], [1]], True, True, "Dunaja", "normal"),  # AH
        ("none", [[6, 1, 1, 1], [6, 1, 1, 1], [13]], True, True, "Dunaja", "massive"),  # KH
        ("none", [[6, 1, 1, 1], [6, 1, 1, 1], [14]], True, True, "Himmelbett", "normal"),  # AD
        ("none", [[6, 1, 1, 1], [6, 1, 1, 1], [53]], True, False, "", ""),  # Joker
    ],
)
def test_lite_week_flying_engagement_and_card(
    moon: str, rolls: list[list[int]], flying: bool, engaged: bool, scenario: str, raid: str
) -> None:
    """Pilot Campaign: two/three/four dice by moon, any 6 flies; the same again to engage;
    hearts Dunaja, else Himmelbett; J, Q, K massive; the Joker no engagement."""
    state, events = run(_campaign("lite"), "RollCampaignWeek", rolls, moon=moon)
    e = named(events, "CampaignRolled")
    assert (e.flying, e.engaged, e.scenario, e.raid) == (flying, engaged, scenario, raid)
    if len(rolls) == 3:
        assert len(state.campaign.deck) == 52  # type: ignore[union-attr]


def test_seasoned_flies_automatically_and_starts_with_eight_kills() -> None:
    state = _campaign("seasoned")
    assert state.campaign.score == 8 and state.campaign.aircraft == "Me110F-4"  # type: ignore[union-attr]
    _, events = run(state, "RollCampaignWeek", [[1, 2]], moon="full")
    assert named(events, "CampaignRolled").flying is True


def test_damage_grounds_the_pilot_and_victory_at_twenty() -> None:
    """Repairable damage: no flying next week; written off: two weeks; 20 points wins."""
    state = _campaign("lite")
    state, _ = run(state, "EndCampaignWeek", [], recovery="damaged", points=6)
    assert state.campaign.out_until == 3  # type: ignore[union-attr]
    state, events = run(state, "RollCampaignWeek", [], moon="full")
    assert "grounded" in named(events, "CampaignRolled").explanation
    state, _ = run(state, "EndCampaignWeek", [], points=14)
    assert state.campaign.result == "victory"  # type: ignore[union-attr]
    with pytest.raises(RuleError, match="over"):
        run(state, "RollCampaignWeek", [], moon="full")


def test_defeat_and_draw() -> None:
    state, _ = run(_campaign("lite"), "EndCampaignWeek", [], killed_or_crippled=True)
    assert state.campaign.result == "defeat"  # type: ignore[union-attr]
    state, _ = run(_campaign("seasoned"), "EndCampaignWeek", [], no_longer_seasoned=True)
    assert state.campaign.result == "defeat"  # type: ignore[union-attr]
    state = _campaign("seasoned")
    for _ in range(52):
        state, _ = run(state, "EndCampaignWeek", [])
    assert state.campaign.result == "draw (minor defeat)"  # type: ignore[union-attr]


@pytest.mark.parametrize(("roll", "cards", "moon", "more"),
                         [(3, 0, "half", True), (4, 1, "full", False), (2, 0, "none", True),
                          (5, 2, "half", True), (5, 3, "half", False)])  # fmt: skip
def test_night_continuation_roll(roll: int, cards: int, moon: str, more: bool) -> None:
    """CAMPAIGN MODIFICATIONS: die - cards drawn - 1 full moon + 1 no moon; 3+ continues."""
    import msgspec

    state = _campaign("full")
    state = msgspec.structs.replace(
        state, campaign=msgspec.structs.replace(state.campaign, night_cards=cards)
    )
    _, events = run(state, "RollNightContinuation", [[roll]], moon=moon)
    assert named(events, "CampaignRolled").candidates[0].chosen is more


def test_campaign_commands_need_a_campaign() -> None:
    with pytest.raises(RuleError, match="no campaign"):
        run(initial_state(make_setup()), "RollCampaignWeek", [], moon="full")


def test_the_joker_counts_as_a_card_drawn_that_night() -> None:
    """README ledger CAMPAIGN MODIFICATIONS: "roll a die after finishing each scenario (or
    drawing a Joker), and you deduct one from the score for each scenario card already drawn
    that night": the Joker is one of the cards drawn, so a 3 (half moon) after it is 2 and the
    night ends."""
    state, events = run(_campaign("full"), "DrawScenarioCard", [[53]])
    assert named(events, "CampaignRolled").card == "JOKER"
    assert state.campaign.night_cards == 1  # type: ignore[union-attr]
    _, events = run(state, "RollNightContinuation", [[3]], moon="half")
    assert "night ends" in named(events, "CampaignRolled").explanation


def _engaged_week(state, face: int):  # type: ignore[no-untyped-def]
    """One Pilot Campaign week with no moon: flying (a 6), engaging (a 6), card `face`."""
    state, events = run(
        state, "RollCampaignWeek", [[6, 1, 1, 1], [6, 1, 1, 1], [face]], moon="none"
    )
    card = named(events, "CampaignRolled").card
    state, _ = run(state, "EndCampaignWeek", [])
    return state, card


def test_the_pilot_campaigns_pack_is_reshuffled_each_month_not_each_week() -> None:
    """Pilot Campaign: "The pack is reshuffled every month instead of every week". Week 1
    (1 June 1942) draws face 1 of 53, the ace of hearts; week 2 (8 June) is still June, so
    face 1 of the 52 left is the 2 of hearts; week 5 starts on 29 June, still June: face 1
    is the 3 of hearts of 51. Week 6 starts on 6 July: the pack is whole again, and face 1
    is the ace of hearts once more."""
    state = _campaign("lite")
    drawn = []
    for week in range(1, 7):
        if week in (3, 4):
            state, _ = run(state, "RollCampaignWeek", [[1, 1, 1, 1]], moon="none")  # not flying
            state, _ = run(state, "EndCampaignWeek", [])
            continue
        assert (week, month_of(week)) in ((1, 6), (2, 6), (5, 6), (6, 7))
        state, card = _engaged_week(state, 1)
        drawn.append(card)
        left = len(state.campaign.deck)  # type: ignore[union-attr]
        assert left == {1: 52, 2: 51, 5: 50, 6: 52}[week]
    assert drawn == ["AH", "2H", "3H", "AH"]
