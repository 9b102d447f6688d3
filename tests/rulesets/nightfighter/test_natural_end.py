"""The default scenario (4B) played by random listed actions ends by itself: the last
nightfighter leaves the map (EXAMPLE OF PLAY turn 13), with no EndGame; the log audits."""

from __future__ import annotations

from tests.support.natural_end import play_to_end
from umpire.server.games import Games


async def test_4b_plays_to_its_natural_end(games: Games) -> None:
    played = await play_to_end(games, "nightfighter", 1, limit=600)
    assert played.result.startswith("every nightfighter has left the map"), (
        played.types,
        played.refused,
    )
    # 4B's stated victory condition (EXAMPLE OF PLAY turn 13) is said either way.
    assert "the scenario's victory condition (shoot down 1 bomber) is" in played.result
    assert [env.type for env in played.envelopes][-2:] == ["GameEnded", "SeedRevealed"]
    assert played.report is not None and played.report.ok, played.report
