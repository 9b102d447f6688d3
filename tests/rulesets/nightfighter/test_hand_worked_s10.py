"""Cases worked by hand from the seed (004_c3eb2ad371d7bb6a.txt) in the tenth session: the
seasoned pilot's end condition at exactly twenty kills, and the map edge of a fighter's
move. Each docstring gives the rule and the result read from the seed's text.
"""

from __future__ import annotations

import pytest

from tests.rulesets.nightfighter.setups import make_setup, make_state, named, run
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.nightfighter.evolve import initial_state
from umpire.engine.rulesets.nightfighter.terms import Phase


def test_pilot_campaign_seasoned_wins_at_exactly_twenty_kills() -> None:
    """Pilot Campaign, seasoned variant: 'you arrive … with eight kills to your credit. You
    win this campaign by ending a week with the twenty or more kills which make you an
    Experte'. Eight, then eleven in week 1: 19, the campaign goes on; one more in week 2:
    20 at the week's end, victory (and no third week is played)."""
    state = initial_state(make_setup(campaign="seasoned"))
    assert state.campaign is not None and state.campaign.score == 8
    state, _ = run(state, "EndCampaignWeek", [], points=11)
    assert state.campaign is not None
    assert (state.campaign.score, state.campaign.result) == (19, "")
    state, events = run(state, "EndCampaignWeek", [], points=1)
    assert state.campaign is not None
    assert (state.campaign.score, state.campaign.result) == (20, "victory")
    assert named(events, "CampaignWeekEnded")
    with pytest.raises(RuleError, match="over"):
        run(state, "EndCampaignWeek", [])


def test_s3_a_move_may_not_pass_off_the_map_and_back() -> None:
    """S3.0 with the example's turn 13 ('forced to exit the map from hex 0827'): the map's
    edge is where a fighter leaves play. F1 at 0127 (the bottom-left corner) may not fly
    0128 (off the map) and back to 0127: the first off-map hex is refused, naming it; an
    exit whose last hex is still on the map is refused too; flying off from 0127 to 0128
    with exit leaves the map (and, the only fighter, ends the game)."""
    state = make_state(make_setup(), [], Phase.FIGHTER_MOVEMENT, ("0127", 3))
    with pytest.raises(RuleError, match="0128 is off the map"):
        run(state, "MoveFighter", [], fighter="F1", path=["0128", "0127"], facing=3)
    with pytest.raises(RuleError, match="an exit must end off the map"):
        run(state, "MoveFighter", [], fighter="F1", path=["0126"], facing=0, exit=True)
    state, events = run(state, "MoveFighter", [], fighter="F1", path=["0128"], facing=3, exit=True)
    assert state.fighters[0].hex == ""
    assert named(events, "GameEnded").result.startswith("every nightfighter has left the map")


def test_the_fighter_movement_phase_begins_in_words_after_the_bombers_move() -> None:
    """Found playing 4B through the CLI: the phase that the bombers' move begins was logged
    as 'Phase began (phase: fighter movement)', every other as '<Name> phase'. The
    sequence of play (example, turn 1: the bombers move, then 'Your Do215B-5 flies up')."""
    state = initial_state(make_setup(bombers=[{"id": "B1", "turn": 1}]))
    _, events = run(state, "MoveBombers", [])
    assert named(events, "PhaseBegan").explanation == "Fighter Movement phase"
