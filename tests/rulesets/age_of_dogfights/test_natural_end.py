"""The default scenario played by random listed actions ends by itself (the bots' side or
the player's is out of the fight), with no EndGame; the log audits."""

from __future__ import annotations

from tests.support.natural_end import play_to_end
from umpire.server.games import Games


async def test_the_default_scenario_plays_to_its_natural_end(games: Games) -> None:
    played = await play_to_end(games, "age_of_dogfights", 1, limit=600)
    assert played.result, (played.types, played.refused)
    tags = [env.type for env in played.envelopes]
    assert tags[-2:] == ["GameEnded", "SeedRevealed"]
    assert "EndGame" not in played.types
    assert played.report is not None and played.report.ok, played.report
