"""`umpire play`'s `help TYPE`: a player at a gateway, with no store to run `umpire actions`
on, learns a command's fields, the values each takes and an example to copy, and `help`
names the fields of a choice (Conflict of Heroes's UnitAction: one of several cases)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.processes import client_env, start_gateway, umpire_out
from umpire.server.embedded import EmbeddedRedis


def test_help_on_a_command_gives_its_values_and_an_example_play_takes(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> None:
    # Fails without the fix: `help UnitAction` was refused ("'UnitAction' is not
    # FIELD=VALUE; help takes no fields"), `help` listed UnitAction without a field (its
    # fields are a choice's), and sent the player to `umpire actions GAME` "where the store
    # is", which a player at a gateway does not have.
    gateway, port = start_gateway(redis_server.url, prefix)
    env = {**client_env(tmp_path), "REDIS_URL": redis_server.url, "UMPIRE_PREFIX": prefix}
    try:
        created = json.loads(umpire_out(env, "new", "conflict_of_heroes", "--json"))
        out = umpire_out(
            env, "play", "--url", f"ws://127.0.0.1:{port}/ws",
            "--credential", created["player_credential"],
            typed="help\nhelp UnitAction\nhelp unitaction\nhelp Nope\n",
        )  # fmt: skip
        listing, _, told = out.partition("\nUnitAction  ")
        assert "\n  UnitAction  " in listing, out
        unit_action = listing.split("\n  UnitAction  ", 1)[1].split("\n  ", 2)
        fields = "    fields: units, action, ap; optional: caps, moves"
        assert unit_action[1].startswith(fields), out
        assert "help TYPE shows a command's fields" in listing, out
        assert "where the store is" not in out, out
        assert "    action: one of fire, move, rally, pivot, other" in told, out
        assert "    ap: integer 1..7" in told, out
        assert "hex side faced, clockwise from the top of the map: 0 N" in told, out
        assert told.count("    or, as words: UnitAction ") == 2, out  # the type in either case
        assert "Conflict of Heroes Solo Expansion" in told and ".txt" not in told, out
        assert "Nope is not a command you may send now; you may send: UnitAction, " in out, out
        assert "is not FIELD=VALUE" not in out, out
        example = told.split("    or, as words: ", 1)[1].split("\n", 1)[0]
        example = example.replace("UnitAction", "unitaction", 1)  # any capitals
        sent = umpire_out(
            env, "play", "--url", f"ws://127.0.0.1:{port}/ws",
            "--credential", created["player_credential"], typed=example + "\n",
        )  # fmt: skip
        assert "accepted: seqs" in sent and "refused" not in sent, (example, sent)
        # The AI's turn takes `cards` fixed to [] now: nothing to fill, so no field named
        # (without the fix: "fields: cards", as if it needed one).
        passed = umpire_out(
            env, "play", "--url", f"ws://127.0.0.1:{port}/ws",
            "--credential", created["player_credential"], typed="Pass\nhelp\n",
        )  # fmt: skip
        # (listed first, marked as the rules' next step: Action.next)
        ai_turn = passed.split("\n  next: TakeAiTurn  ", 1)[1].split("\n")[1]
        assert not ai_turn.lstrip().startswith(("fields", "optional")), passed
    finally:
        gateway.terminate()
        gateway.wait(20)
