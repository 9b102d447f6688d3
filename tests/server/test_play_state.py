"""`umpire play`'s `state`: a player at a gateway sees the game as their role sees it, in
the ruleset's words (the table's state panel: its tracks, then each part, a list of
records as a table), never a snake_case key, a code name or JSON; after each move, the
tracks it changed on one line; `help` says how to ask for it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.support.processes import client_env, start_gateway, umpire_out
from umpire.server.embedded import EmbeddedRedis

SNAKE_CASE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")


def test_state_shows_the_view_in_the_rulesets_words(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    # Fails without the fix: `state` was sent as a command ("refused (invalid_command):
    # unknown command type 'state'"): play showed no state at all.
    gateway, port = start_gateway(redis_server.url, prefix)
    env = {**client_env(tmp_path), "REDIS_URL": redis_server.url, "UMPIRE_PREFIX": prefix}
    try:
        created = json.loads(umpire_out(env, "new", "nightfighter", "--json"))
        out = umpire_out(
            env, "play", "--url", f"ws://127.0.0.1:{port}/ws",
            "--credential", created["player_credential"],
            typed="help\nMoveBombers\nstate\n",
        )  # fmt: skip
        assert "state shows the game as you see it" in out, out
        assert "refused" not in out and "unknown command type" not in out, out
        moved, _, shown = out.partition("\ngame ")
        # The move's changed tracks, by their labels (counters_due: "Bomber counters due").
        # (Nightfighter v9 opens at turn 1: the move changes the phase, not the turn.)
        assert "\nnow: Phase: Fighter Movement · Bomber counters due: 3" in moved, out
        assert shown.startswith(f"{created['game_id']} at seq 8, in play, as the player sees"), out
        assert "\nTracks\n" in shown, out
        assert re.search(r"\nBomber counters due +3", shown), out
        assert re.search(r"\nSerrate used this turn +no", shown), out
        # The player's fighter and the bomber counters they see, as tables.
        assert "\nFighters (1)" in shown and "\nCounters (3)" in shown, out
        assert "│ F1 " in shown and "B1-1" in shown, out
        assert "Setup: Zones (7)" in shown, out
        assert SNAKE_CASE.search(shown) is None, SNAKE_CASE.search(shown)
        assert "{" not in shown and '"' not in shown and "true" not in shown, out
    finally:
        gateway.terminate()
        gateway.wait(20)


def test_help_marks_the_rules_next_step_first(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    """The table marks the step the sequence of play takes next (Action.next); play's
    `help` and `help TYPE` listed it unmarked, among the others (Nightfighter's opening:
    the bombers' move, as the example of play begins)."""
    gateway, port = start_gateway(redis_server.url, prefix)
    env = {**client_env(tmp_path), "REDIS_URL": redis_server.url, "UMPIRE_PREFIX": prefix}
    try:
        created = json.loads(umpire_out(env, "new", "nightfighter", "--json"))
        out = umpire_out(
            env, "play", "--url", f"ws://127.0.0.1:{port}/ws",
            "--credential", created["player_credential"],
            typed="help\nhelp MoveBombers\n",
        )  # fmt: skip
        listed = out.split("you may send now:\n", 1)[1].splitlines()
        assert listed[0].startswith("  next: MoveBombers  "), out
        assert sum("next: " in line for line in listed) == 1, out
        assert "MoveBombers  " in out.split("help TYPE shows", 1)[1], out
        assert "    the next step in the rules' sequence of play" in out, out
    finally:
        gateway.terminate()
        gateway.wait(20)
