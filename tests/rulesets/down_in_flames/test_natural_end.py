"""The default scenario (`duel`) played by random listed actions ends by itself: one side
has no aircraft left (README "End of the engagement"), with no EndGame; the log audits."""

from __future__ import annotations

from tests.support.natural_end import play_to_end
from umpire.server.games import Games


async def test_the_duel_plays_to_its_natural_end(games: Games) -> None:
    played = await play_to_end(games, "down_in_flames", 1, limit=600)
    assert played.result.startswith("side "), (played.types, played.refused)
    assert "no aircraft left in the engagement" in played.result
    tags = [env.type for env in played.envelopes]
    assert tags[-2:] == ["GameEnded", "SeedRevealed"]
    assert "EndGame" not in str(played.types)
    assert played.report is not None and played.report.ok, played.report
