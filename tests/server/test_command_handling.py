"""server/command_handling.py: the steps of one command, driven with scripted answers and
no store (issue #44 item 1). Each test plays a script: the request the steps must make
next, and the answer (or the error) the driver gives back; the steps must ask exactly that,
in that order, and return the result the script ends with. Behind the same steps stands
server/games.py `Games.handle`, which the rest of tests/server drives against a real store."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest
from msgspec import Struct

from umpire.engine import registry
from umpire.engine.errors import RuleError
from umpire.engine.game import Game, GameMeta
from umpire.engine.roles import Role
from umpire.events.command_body import body_hash
from umpire.events.errors import UmpireError, VersionConflict
from umpire.events.store import AppendResult
from umpire.events.types import GameEnded, SeedRevealed
from umpire.server.command_handling import (
    NOW,
    Append,
    DiceKeys,
    FindPending,
    Forget,
    KnownResult,
    Load,
    Pause,
    SealingKey,
    Seed,
    handle_command,
)
from umpire.server.game_records import CommandResult
from umpire.server.rules_job import RulesJob

RULESET = registry.get("counter")
GID = "g1"
SEED = bytes(range(32))
KEY = bytes(32)
HIDDEN = b"h" * 32
ADD = {"type": "Add", "amount": 1}


class Rolled(Struct, frozen=True, tag="Rolled"):
    """A stand-in for what the rules decide (the steps never look inside it)."""

    n: int


def _game(seq: int, *, ended: bool = False) -> Game:
    meta = GameMeta(
        game_id=GID, ruleset="counter", ruleset_version="1", seed_commitment="c",
        client_seed="s", seq=seq, last_hash=f"h{seq}", epoch=2, ended=ended,
    )  # fmt: skip
    return Game(meta, None)


# A script: (the request expected next, the answer to send back or the error to throw in).
Script = list[tuple[Any, Any]]


def _play(steps: Generator[Any, Any, CommandResult], script: Script) -> CommandResult:
    """Drive `steps` through `script` as a driver would; its result."""
    request = next(steps)
    for n, (expected, answer) in enumerate(script):
        assert request == expected, f"step {n}: asked {request!r}, not {expected!r}"
        try:
            request = (
                steps.throw(answer) if isinstance(answer, BaseException) else steps.send(answer)
            )
        except StopIteration as done:
            assert n == len(script) - 1, f"returned after step {n} of {len(script)}"
            result: CommandResult = done.value
            return result
    raise AssertionError(f"the steps asked for more: {request!r}")


def _steps(
    cached: tuple[Any, Game] | None, *, expected_seq: int | None = None, manual: Any = None
) -> Generator[Any, Any, CommandResult]:
    return handle_command(
        GID, "c1", ADD, manual_dice=manual, expected_seq=expected_seq, role=Role.PLAYER,
        nonce="n1", cached=cached, started=100.0, busy_seconds=30.0,
    )  # fmt: skip


def _job(game: Game, seed: bytes | None = SEED, manual: Any = None) -> RulesJob:
    return RulesJob(RULESET, game, ADD, manual, seed, Role.PLAYER, "n1", HIDDEN if seed else None)


def _body(manual: Any = None) -> str:
    """The hash of the body the command id is bound to (the store compares it)."""
    return body_hash(ADD, manual, "n1")


def test_a_conflict_on_the_cache_reloads_and_the_game_ending_command_carries_the_reveal() -> None:
    """The cached game lost a race: no pause, a read of the log, a fresh decision; that
    decision ends the game, so the append carries the final reveal (the epoch's seed and
    the sealing key) and, once appended, the disputes held pending are looked for."""
    stale, fresh = _game(3), _game(5)
    body = _body()
    ending = [Rolled(1), GameEnded(result="won")]
    reveal = SeedRevealed(seed=SEED.hex(), epoch=2, sealing_key=KEY.hex())
    conflict = VersionConflict("moved on", expected=3, actual=5)
    result = _play(
        _steps((RULESET, stale)),
        [
            (DiceKeys(stale), (SEED, HIDDEN)),
            (_job(stale), [Rolled(0)]),
            (Append(RULESET, stale, [Rolled(0)], "c1", body), conflict),
            (NOW, 101.0),  # within the busy deadline: retry at once (the cache is out of the way)
            (Load(GID), (RULESET, fresh)),
            (DiceKeys(fresh), (SEED, HIDDEN)),
            (_job(fresh), ending),
            (SealingKey(GID), KEY),
            (Append(RULESET, fresh, [*ending, reveal], "c1", body), AppendResult(6, 8, "h8")),
            (FindPending(GID), None),
        ],
    )
    assert result == CommandResult(GID, "c1", 6, 8, False)


def test_physical_dice_that_end_the_game_reveal_the_seed_read_for_it() -> None:
    """No seed was read to decide (the player's dice): the reveal asks for it; a
    duplicate (the command id was appended before) looks for no disputes."""
    game = _game(5)
    manual = [[6]]
    body = _body(manual)
    ending = [GameEnded(result="won")]
    reveal = SeedRevealed(seed=SEED.hex(), epoch=2, sealing_key="")
    result = _play(
        _steps((RULESET, game), manual=manual),
        [
            (_job(game, None, manual), ending),
            (Seed(game), SEED),
            (SealingKey(GID), None),  # a game from before sealing keys
            (Append(RULESET, game, [*ending, reveal], "c1", body), AppendResult(6, 7, "h", True)),
        ],
    )
    assert result == CommandResult(GID, "c1", 6, 7, True)


def test_a_refusal_on_the_cache_is_judged_again_on_the_log_then_answered_if_known() -> None:
    """Refused on the cached game: read the log and judge again; refused there too, a
    command id already recorded answers with its first result."""
    cached, read = _game(3), _game(4)
    refused = RuleError("not now", rule="r")
    body = _body()
    result = _play(
        _steps((RULESET, cached)),
        [
            (DiceKeys(cached), (SEED, HIDDEN)),
            (_job(cached), refused),
            (Load(GID), (RULESET, read)),
            (DiceKeys(read), (SEED, HIDDEN)),
            (_job(read), refused),
            (KnownResult(GID, "c1", body), CommandResult(GID, "c1", 4, 4, True)),
        ],
    )
    assert result == CommandResult(GID, "c1", 4, 4, True)


def test_a_refusal_of_a_new_command_id_is_raised() -> None:
    read = _game(4)
    steps = _steps(None)
    assert next(steps) == Load(GID)
    assert steps.send((RULESET, read)) == DiceKeys(read)
    assert steps.send((SEED, HIDDEN)) == _job(read)
    asked = steps.throw(RuleError("not now", rule="r"))
    assert isinstance(asked, KnownResult)
    with pytest.raises(RuleError, match="not now"):
        steps.send(None)


def test_a_stale_seed_reads_the_game_again_a_few_times_then_refuses() -> None:
    """A reveal rotated the seed since the game was read: forget it and read again;
    a store whose seed never matches is refused, not retried for ever."""
    game = _game(4)
    steps = _steps(None)
    asked = next(steps)
    reads = 0
    with pytest.raises(UmpireError, match="does not match the commitment of seed epoch 2"):
        while True:
            if asked == Load(GID):
                reads += 1
                asked = steps.send((RULESET, game))
            else:
                # The seed read is stale; forgetting, and the known-result lookup, answer None.
                assert asked in (DiceKeys(game), Forget(GID), KnownResult(GID, "c1", _body()))
                asked = steps.send(None)
    assert reads == 6  # MAX_STALE_SEEDS + 1


def test_conflicts_on_a_read_game_pause_and_give_up_busy_at_the_deadline() -> None:
    game = _game(4)
    body = _body()
    conflict = VersionConflict("moved on", expected=4, actual=5)
    steps = _steps(None)
    assert next(steps) == Load(GID)
    assert steps.send((RULESET, game)) == DiceKeys(game)
    assert steps.send((SEED, HIDDEN)) == _job(game)
    assert steps.send([Rolled(0)]) == Append(RULESET, game, [Rolled(0)], "c1", body)
    assert steps.throw(conflict) == NOW
    assert steps.send(100.5) == Pause(0.001)  # a jitter of at most 1 ms, growing per attempt
    assert steps.send(None) == Load(GID)
    steps.send((RULESET, game))
    steps.send((SEED, HIDDEN))
    steps.send([Rolled(0)])
    assert steps.throw(conflict) == NOW
    # Past the deadline: the game is forgotten (the retry is decided on the log) and the
    # command is refused as busy, to be sent again with the same id.
    assert steps.send(130.5) == Forget(GID)
    with pytest.raises(VersionConflict, match="busy: gave up after 2 conflicting attempts in 30 s"):
        steps.send(None)


def test_a_client_expected_seq_is_not_retried() -> None:
    cached = _game(3)
    steps = _steps((RULESET, cached), expected_seq=4)
    assert next(steps) == Load(GID)  # the cache is at another seq: the log is read
    read = _game(5)
    assert isinstance(steps.send((RULESET, read)), KnownResult)
    with pytest.raises(VersionConflict, match="is at seq 5, not 4"):
        steps.send(None)
