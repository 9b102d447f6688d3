"""Differential: the same game played twice with different hidden values looks the same to
a player and a spectator until the rules make the result public (issue #16 acceptance).

Each ruleset's game is played twice on the real store under the same game id, seed and
commands (testing/support/drivers.py, one fixed random sequence that sends every command type
the ruleset lists): once as rolled, once with every hidden roll's faces moved to another
face (a ruleset whose test set-ups give a `secret_variant` setup, as down_in_flames, whose
secret is its opponents' pilots rather than dice, also with that setup). A ruleset that
declares secrets (`Ruleset.has_secrets`, from its own redaction declarations) must show
a secret decision that differs before the results go public. A command the rules refuse
must be refused with one of the engine's typed errors (drivers.REFUSALS); any other
exception from `decide` fails the test. Every event frame and the
view after every seq, as the player and as a spectator receive them before the reveal,
must be byte-identical up to the first event in which the difference is public by the
rules: the first event whose type differs, or a public event that differs, or a field
that a rule publishes (the ruleset's `Testing.published_fields`). A public event that used a
hidden roll (its `dice`) may differ only where a rule publishes it (`Testing.published`,
engine/ruleset.py): otherwise the test fails, so
an undeclared field derived from a hidden roll cannot pass as "made public".

Normalised (and why): `hash`, `prev_hash` and `digest` are keyed commitments or hashes
over them, which differ by design when a hidden value does (tests/access/
test_hash_secrecy.py attacks exactly those fields); `recorded_at` is the wall clock.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from msgspec import Struct

import umpire.server.games as games_module
from umpire.engine import registry
from umpire.engine.dice import ServerDice
from umpire.engine.game import apply, codec_for, fold
from umpire.engine.redaction import is_secret, view_for
from umpire.engine.roles import Role
from umpire.engine.ruleset import secret_declarations
from umpire.events.envelope import Envelope
from umpire.events.redis_store import RedisEventStore
from umpire.events.types import DiceRolled
from umpire.server.feed import encode_frame
from umpire.testing.support.dice import AlteredDice
from umpire.testing.support.drivers import REFUSALS, Coverage, driver, rulesets, setups_of
from umpire.testing.support.nonces import NoncedGames

COMMANDS = 150
ATTEMPTS = 4  # games (other dice, other commands) a ruleset with secrets may take to show one
NORMALISED = ("hash", "prev_hash", "digest", "recorded_at")


async def _play(
    store: RedisEventStore, name: str, setup: dict[str, Any], dice: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch, attempt: int,
) -> list[Envelope]:  # fmt: skip
    monkeypatch.setattr(games_module, "ServerDice", dice)
    games = NoncedGames(store, draw_seed=lambda: bytes(range(32)), draw_key=lambda: bytes(32),
                        draw_receipt_key=lambda: bytes(32))  # fmt: skip
    gid = (await games.create(name, setup, game_id="gdiff", client_entropy="bind")).game_id
    await games.bind_client_seed(gid, f"diff{attempt}")
    _, propose = driver(name)
    rng = random.Random(11 + attempt)
    coverage = Coverage(name)
    for i in range(COMMANDS):
        _, game = await games.load(gid)
        if game.meta.ended:
            break
        coverage.offer(game.state)
        command = rng.choice(propose(game.state, rng))
        coverage.send(command)
        # Refused by the rules (the driver proposes freely): only the engine's typed
        # refusals; any other exception of `decide` fails the test.
        with contextlib.suppress(*REFUSALS):
            await games.handle(gid, f"c{i}", command)
    coverage.check()
    return await store.read(gid)


def _frame(ruleset: Any, env: Envelope, event: Struct, role: Role) -> Any:
    raw = encode_frame(ruleset, env, event, role, False)
    frame = msgspec.json.decode(raw) if raw is not None else None
    if isinstance(frame, dict):
        for key in NORMALISED:
            frame.pop(key, None)
    return frame


def _public_difference(ruleset: Any, a: Struct, b: Struct, hidden_rolls: set[int]) -> bool:
    if type(a) is not type(b):
        return True
    if a == b:
        return False
    if not (is_secret(ruleset, a) or is_secret(ruleset, b)):
        tag = type(a).__struct_config__.tag  # type: ignore[attr-defined]
        used = set(getattr(a, "dice", ())) | set(getattr(b, "dice", ()))
        # A public event that used a hidden roll and differs leaks it, unless a rule
        # publishes its result: then the comparison ends here.
        assert not used & hidden_rolls or tag in ruleset.testing.published, (
            f"{tag} used hidden roll(s) {sorted(used & hidden_rolls)}, differs, and is not "
            f"redacted: {a} vs {b}"
        )
        return True
    tag = type(a).__struct_config__.tag  # type: ignore[attr-defined]
    published = ruleset.testing.published_fields.get(tag, ())
    return any(getattr(a, f) != getattr(b, f) for f in published)


def _shifted(shift: int) -> type[AlteredDice]:
    return type(f"Shifted{shift}", (AlteredDice,), {"shift": shift})


def _compare(ruleset: Any, logs: list[list[Envelope]]) -> tuple[int, int]:
    """Check the two logs' frames and views for both roles up to the first public
    difference; (that stop index, how many secret decisions differed before it)."""
    codec = codec_for(ruleset)
    events = [[codec.decode(e.type, e.version, e.payload) for e in log] for log in logs]
    stop = min(len(logs[0]), len(logs[1]))
    hidden_rolls = {e.roll for log in events for e in log if isinstance(e, DiceRolled) and e.hidden}
    for i, (a, b) in enumerate(zip(events[0], events[1], strict=False)):
        if _public_difference(ruleset, a, b, hidden_rolls):
            stop = i
            break
    played = [fold(logs[k][:1], ruleset=ruleset) for k in (0, 1)]
    for i in range(stop):
        if i > 0:
            played = [apply(ruleset, played[k], events[k][i]) for k in (0, 1)]  # type: ignore[arg-type]
        for role in (Role.PLAYER, Role.SPECTATOR):
            frames = [_frame(ruleset, logs[k][i], events[k][i], role) for k in (0, 1)]
            assert frames[0] == frames[1], f"{ruleset.name} {role}: seq {i + 1}: {frames}"
            views = [
                msgspec.json.encode(view_for(ruleset, g.state, role, revealed=False))  # type: ignore[union-attr]
                for g in played
            ]
            assert views[0] == views[1], f"{ruleset.name} {role}: view after seq {i + 1}"
    decisions = sum(
        1
        for a, b in zip(events[0][:stop], events[1][:stop], strict=True)
        if a != b and not isinstance(a, DiceRolled)
    )
    return stop, decisions


async def _variants(
    url: str, prefix: str, name: str, setup: dict[str, Any], original: list[Envelope],
    attempt: int, monkeypatch: pytest.MonkeyPatch,
) -> int:  # fmt: skip
    """Play the variants of a game and compare each with it; how many secret decisions
    differed before a result went public. The variants: the game's hidden rolls come out
    otherwise, several alternatives when it rolled any (some keep the public result longer:
    downtown's AAA roll 8 -> 4 buys as many counters, of other densities); and a setup with
    other secrets where the ruleset's test set-ups give one (`secret_variant`:
    down_in_flames' opposing pilots)."""
    ruleset = registry.get(name)
    codec = codec_for(ruleset)
    decoded = [codec.decode(e.type, e.version, e.payload) for e in original]
    hidden_dice = any(isinstance(e, DiceRolled) and e.hidden for e in decoded)
    variants = [(setup, _shifted(shift)) for shift in (range(1, 7) if hidden_dice else [1])]
    other_secrets = getattr(setups_of(name), "secret_variant", None)
    if other_secrets is not None:
        variants = [(other_secrets(setup), ServerDice), *(variants if hidden_dice else [])]
    decisions = 0
    for n, (variant_setup, dice) in enumerate(variants, start=1):
        store = RedisEventStore.from_url(url, prefix=f"{prefix}{n}")
        try:
            log = await _play(store, name, variant_setup, dice, monkeypatch, attempt)
        finally:
            await store.close()
        stop, differed = _compare(ruleset, [original, log])
        assert stop > 1, f"{name}: the games differ publicly from their creation"
        decisions += differed
    return decisions


@pytest.mark.parametrize("name", rulesets())
async def test_hidden_values_do_not_show_until_the_rules_publish_them(
    redis_server: Any, prefix: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset = registry.get(name)
    setup, _ = driver(name)
    codec = codec_for(ruleset)
    # The dice decide whether a game makes secrets at all (a nightfighter game may never
    # find a bomber), and whether one differs before its result goes public (downtown's
    # AAA purchase is counted in public): a ruleset that declares secrets gets another game
    # (other dice, other commands) while one shows none.
    hidden_rolled = False
    for attempt in range(ATTEMPTS):
        store = RedisEventStore.from_url(redis_server.url, prefix=f"{prefix}a{attempt}")
        try:
            original = await _play(store, name, setup, ServerDice, monkeypatch, attempt)
        finally:
            await store.close()
        decoded = [codec.decode(e.type, e.version, e.payload) for e in original]
        hidden_rolled |= any(isinstance(e, DiceRolled) and e.hidden for e in decoded)
        decisions = await _variants(
            redis_server.url, f"{prefix}a{attempt}v", name, setup, original, attempt, monkeypatch
        )  # fmt: skip
        if decisions or not ruleset.has_secrets:
            break
    # Its declarations say its secrets come from hidden rolls: one of its games rolls some.
    assert hidden_rolled or not ruleset.has_hidden_dice, f"{name}: no hidden roll in its games"
    if ruleset.has_secrets:  # its own declarations say so (engine/ruleset.py)
        assert decisions, (
            f"{name} declares secrets ({', '.join(secret_declarations(ruleset)[1])}), but no "
            f"secret decision differed before the results went public"
        )
    else:  # nothing is hidden in this game: the variants played it identically
        assert not any(is_secret(ruleset, e) for e in decoded)
