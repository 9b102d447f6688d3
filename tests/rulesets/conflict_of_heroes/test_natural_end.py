"""The default scenario (sample-crossroads) played by random listed actions ends by itself
(README "End of the mission": the last round, or a side with no counter left), with no
EndGame; the log audits."""

from __future__ import annotations

from tests.support.natural_end import play_to_end
from umpire.server.games import Games


async def test_sample_crossroads_plays_to_its_natural_end(games: Games) -> None:
    played = await play_to_end(games, "conflict_of_heroes", 1, limit=600)
    assert played.result, (played.types, played.refused)
    assert played.result.startswith(("the AI wins", "the player wins", "draw")), played.result
    assert [env.type for env in played.envelopes][-2:] == ["GameEnded", "SeedRevealed"]
    assert played.report is not None and played.report.ok, played.report


async def test_without_losses_the_mission_ends_after_its_last_round(games: Games) -> None:
    """A player who reports no counter destroyed: the mission runs to the end of round 5
    (the sample's last) and the result says who holds OBJ-A."""
    played = await play_to_end(
        games, "conflict_of_heroes", 2, limit=1500, avoid=("ReportDestroyed",)
    )
    assert "round 5" in played.result, (played.result, played.types, played.refused)
    assert played.report is not None and played.report.ok, played.report
