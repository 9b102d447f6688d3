"""Fog of war on the terminal: `umpire send`, `log`, `log --json`, `state`, `replay` and
`explain` show the player's view unless the operator token is given.

Attacked, not grepped for names: a downtown raid (hidden AAA generation rolls, the DRV's
secret pool) and nightfighter's example of play up to an AI search rolled by the server
(a hidden localisation roll and its secret hex) are played through the command line; the
test reads the referee's log with the operator token, takes every value the referee sees
and the player must not (hidden faces, secret fields, withheld explanations), and checks
that none of it reaches anything printed for the player or a spectator before the reveal.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.rulesets.nightfighter.setups import Play, setup_4b_phase_by_phase, start_turn
from tests.support.gateway_games import create_bound
from umpire.engine.rulesets.downtown import RULESET as RULESET_DOWNTOWN
from umpire.engine.rulesets.nightfighter import RULESET as RULESET_NIGHTFIGHTER
from umpire.events.redis_store import RedisEventStore
from umpire.server import replay_command, store_commands
from umpire.server.cli import main
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games

TOKEN = "fog-of-war-operator-token"


@pytest.fixture
def cli_env(monkeypatch: pytest.MonkeyPatch, redis_server: EmbeddedRedis, prefix: str) -> str:
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("UMPIRE_PREFIX", prefix)
    monkeypatch.setenv("UMPIRE_OPERATOR_TOKEN", TOKEN)
    # No wrapping: a secret split over two table lines would slip past the search.
    monkeypatch.setattr(store_commands.console, "width", 5000)
    monkeypatch.setattr(replay_command.console, "width", 5000)
    return prefix


class Terminal:
    """Runs `umpire` in-process and keeps everything printed for the player/spectator."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys
        self.shown: list[str] = []

    def __call__(self, *argv: str, referee: bool = False) -> str:
        self.capsys.readouterr()
        code = main([*argv, "--operator-token", TOKEN] if referee else list(argv))
        out = self.capsys.readouterr()
        assert code == 0, out.err
        if not referee:
            self.shown.append(out.out + out.err)
        return out.out


def _secrets(
    referee: dict[str, Any], player: dict[str, Any] | None, secret_fields: tuple[str, ...]
) -> list[Any]:
    """Values in the referee's payload that the player's lacks or shows otherwise (of an
    event hidden from the player: its secret fields and its explanation)."""
    if player is None:
        return [v for k, v in referee.items() if k in (*secret_fields, "explanation") and v]
    found: list[Any] = []
    for key, value in referee.items():
        if key not in player or player[key] != value:
            found.append(value)
    return found


def _leaks(secret: Any, printed: str) -> bool:
    """Whether a secret value shows in printed text (short numbers would match anything,
    so they are checked where they stand: in a roll's faces, see _hidden_rolls)."""
    if isinstance(secret, str):
        return len(secret) >= 6 and secret in printed
    if isinstance(secret, dict):
        # A candidate's `reason` is the rule's own wording ("outside the area"), which the
        # public explanation uses too; what a redacted candidate hides is its `option`.
        return any(_leaks(v, printed) for k, v in secret.items() if k != "reason")
    if isinstance(secret, list):
        return any(_leaks(v, printed) for v in secret)
    return False


def _attack(
    term: Terminal, game: str, secret_fields: tuple[str, ...], in_state: tuple[str, ...] = ()
) -> int:
    """Print everything a player can ask for, then check it against the referee's log.
    Returns how many secret values were checked (the attack must have had something)."""
    term("log", game)
    player_lines = [json.loads(line) for line in term("log", game, "--json").splitlines()]
    term("log", game, "--as", "spectator")
    spectator = term("state", game, "--json", "--as", "spectator")
    state = term("state", game, "--json")
    term("state", game)
    referee_lines = [
        json.loads(line) for line in term("log", game, "--json", referee=True).splitlines()
    ]
    referee_state = json.loads(term("state", game, "--json", referee=True))["view"]
    head = referee_lines[-1]["seq"]
    term("replay", game, "--at", str(head), "--json")
    checked = 0
    for ref, mine in zip(referee_lines, player_lines, strict=True):
        assert ref["seq"] == mine["seq"] and mine["seen_by"] == "player"
        payload = ref["payload"]
        if ref["type"] == "DiceRolled" and payload["hidden"]:
            assert mine["payload"]["faces"] == [] and mine["payload"]["total"] == 0
            faces = f"roll {payload['roll'] + 1}: {payload['kind']} ["
            for printed in term.shown:
                assert faces not in printed, faces  # a shown roll lists its faces so
            term("explain", game, str(ref["seq"]))
            checked += 1
        if mine["payload"] is None:  # hidden whole: nothing of it in the player's record
            for name in secret_fields:
                assert name not in json.dumps(mine)
                if payload.get(name):
                    assert json.dumps(payload[name]) not in json.dumps(mine)
        for secret in _secrets(payload, mine["payload"], secret_fields):
            checked += 1
            for printed in term.shown:
                assert not _leaks(secret, printed), (ref["type"], secret)
    # The state: the referee's secret fields exist, and the player's view holds none.
    assert all(f'"{name}"' in json.dumps(referee_state) for name in in_state)
    for printed in (state, spectator):
        assert not [name for name in in_state if f'"{name}"' in printed]
    # Each hidden roll's line reads "hidden", never its faces or a total of 0.
    for printed in term.shown:
        assert "= 0 (server)" not in printed
    return checked


def test_a_downtown_raid_shows_the_player_no_drv_secret(
    cli_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    term = Terminal(capsys)
    game = json.loads(term("new", "downtown", "--json"))["game_id"]
    sent = term("send", game, '{"type": "DeployGroundUnits"}')
    assert "[hidden]" in sent
    term("send", game, '{"type": "CheckDrvRadar"}')
    term(
        "send", game, '{"type": "DeployDrvAir", "early_warning": "good", "placement": "in_the_air"}'
    )
    fields = RULESET_DOWNTOWN.secret_fields
    assert _attack(term, game, fields, ("aaa_pool", "hidden_sams", "hidden_fire_cans")) > 3
    # With the operator token the referee sees what was hidden; a mid-game reveal opens
    # none of it (the pool is still in play: issue #30 item 4), the end of the game all.
    assert "[hidden]" not in term("log", game, referee=True)
    term("reveal", game)
    assert "[hidden]" in term("log", game)


def test_nightfighter_shows_the_player_no_hidden_location(
    cli_env: str, capsys: pytest.CaptureFixture[str], redis_server: EmbeddedRedis
) -> None:
    term = Terminal(capsys)

    async def example_to_turn_3() -> str:
        store = RedisEventStore.from_url(redis_server.url, prefix=cli_env)
        try:
            games = Games(store, draw_seed=lambda: b"\x05" * 32, draw_key=lambda: b"\x06" * 32)
            created = await create_bound(
                games, "nightfighter", setup_4b_phase_by_phase(), "fog", opponent_manual_dice=True
            )
            p = Play(games, created.game_id)
            await start_turn(p, ["1019", "1018", "1017"], 0)
            await p.do("PlaceRadarSearches", [[2]], searches=[{"radar": "Wurzburg", "hex": "0403"}])
            await p.phases(4)
            await start_turn(p, ["1016", "1015", "1014", "1013"], 0)
            await p.do("PlaceRadarSearches", [[4]], searches=[{"radar": "Wurzburg", "hex": "1606"}])
            await p.phases(4)
            await start_turn(p, ["1012", "1011", "1010"], 0)
            await p.do("PlaceRadarSearches", [[5], [3]],
                       searches=[{"radar": "Wurzburg", "hex": "0306"}])  # fmt: skip
            await p.do("EndPhase")
            return created.game_id
        finally:
            await store.close()

    game = asyncio.run(example_to_turn_3())
    # The AI search with the server's dice: its localisation roll is hidden (S5.0).
    sent = term("send", game, '{"type": "SearchAI", "fighter": "F1", "hex": "1009"}')
    assert "[hidden]" in sent
    assert _attack(term, game, RULESET_NIGHTFIGHTER.secret_fields) >= 1


def test_the_referee_view_needs_the_operator_token(
    cli_env: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    main(["new", "downtown", "--json"])
    game = json.loads(capsys.readouterr().out)["game_id"]
    assert main(["state", game, "--operator-token", "not-the-operator-token"]) == 2
    assert "not the operator token" in " ".join(capsys.readouterr().err.split())
    monkeypatch.delenv("UMPIRE_OPERATOR_TOKEN")
    assert main(["log", game, "--as", "referee"]) == 2
    assert "none is configured" in " ".join(capsys.readouterr().err.split())
    assert main(["state", game, "--as", "spectator", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["role"] == "spectator"
