"""No roll is known before its command (issue #30 item 5, break 8): every server roll of a
command's batch derives from the seed, the epoch's client seed and the nonce the command
itself carries, so whoever holds the seed and the bound client seed (the operator, anyone
with the store) cannot compute it until the command's own entropy arrives."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import msgspec
import pytest

from umpire.engine import registry
from umpire.engine.dice import (
    ServerDice,
    check_nonce,
    commitment,
    d6,
    derive_faces,
    nd6,
    require_nonce,
)
from umpire.engine.errors import InvalidNonce, NonceRequired
from umpire.engine.game import Game, apply, parse_setup, start
from umpire.engine.handling import decide_command
from umpire.events.types import (
    ClientEntropy,
    ClientSeedBound,
    CommandRecorded,
    DiceRolled,
    GameCreated,
    Owner,
)

SEED = bytes(range(32))
CLIENT_SEED = "alice"
NONCES = [f"{k:032x}" for k in range(1, 13)]
# Twenty dice in one roll: two derivations agree by chance with odds of 6**-20.
ROLL = {"type": "RollDice", "dice": "nd6", "count": 20, "purpose": "a test of the nonce"}


def _bound_game() -> tuple[Any, Game]:
    """A counter game created with a seed commitment, its client seed bound: everything
    the store holds before the command, and what its holder can compute from."""
    ruleset = registry.get("counter")
    created = GameCreated(
        game_id="g-nonce",
        ruleset=ruleset.name,
        ruleset_version=ruleset.version,
        setup=msgspec.to_builtins(parse_setup(ruleset, {"target": 1000})),
        seed_commitment=commitment(SEED),
        client_entropy=ClientEntropy.BIND,
    )
    game = start(ruleset, created)
    bound = ClientSeedBound(epoch=0, client_seed=CLIENT_SEED)
    return ruleset, apply(ruleset, game, bound, seq=2, command_id="umpire:bind:0")


def _rolls(ruleset: Any, game: Game, command: dict[str, Any], nonce: str) -> list[Any]:
    dice = ServerDice(SEED, game.meta.client_seed, game.meta.rolls, nonce=nonce)
    return decide_command(ruleset, game, command, dice, nonce=nonce)


def test_the_next_roll_is_not_computable_from_the_seed_and_client_seed_alone() -> None:
    ruleset, game = _bound_game()
    n = game.meta.rolls
    # What the store's holder computes before the command: the seed, the client seed and
    # the next roll number are all known to them.
    predicted = derive_faces(SEED, CLIENT_SEED, n, nd6(20))
    drawn = []
    for nonce in NONCES[:2]:
        recorded, roll = _rolls(ruleset, game, ROLL, nonce)
        assert isinstance(recorded, CommandRecorded) and recorded.nonce == nonce
        assert isinstance(roll, DiceRolled) and roll.roll == n
        # the roll is the derivation with the command's nonce, and only with it
        assert roll.faces == derive_faces(SEED, CLIENT_SEED, n, nd6(20), nonce)
        assert roll.faces != predicted
        drawn.append(roll.faces)
    # two commands identical but for their nonce draw different rolls
    assert drawn[0] != drawn[1]


def test_every_roll_of_the_batch_takes_its_commands_nonce_the_opponents_too() -> None:
    """Counter's Push is the bot's roll (the opponent's): it belongs to the command that
    triggered it and derives from that command's nonce."""
    ruleset, game = _bound_game()
    faces = set()
    for nonce in NONCES:
        events = _rolls(ruleset, game, {"type": "Push"}, nonce)
        (roll,) = [e for e in events if isinstance(e, DiceRolled)]
        assert roll.owner is Owner.OPPONENT
        assert roll.faces == derive_faces(SEED, CLIENT_SEED, roll.roll, d6(), nonce)
        faces.add(roll.faces)
    assert len(faces) > 1  # the nonce, not the seeds alone, decides the face


def test_a_command_without_a_nonce_derives_and_records_as_before() -> None:
    """An old log (and a game that waived client entropy) holds commands without a nonce:
    their rolls derive without one, and their CommandRecorded bytes hold no nonce field."""
    ruleset, game = _bound_game()
    recorded, roll = _rolls(ruleset, game, ROLL, "")
    assert recorded.nonce is msgspec.UNSET and recorded.entropy == ""
    assert "nonce" not in msgspec.to_builtins(recorded)
    assert roll.faces == derive_faces(SEED, CLIENT_SEED, 0, nd6(20))


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "abc",
        "0" * 31,
        "0" * 65,
        "A" * 32,
        "g" * 32,
        " " + "0" * 31,
        "0" * 31 + "\n",
        "\u0660" * 32,
        7,
        None,
    ],
)
def test_a_malformed_nonce_is_refused_saying_what_is_allowed(bad: Any) -> None:
    with pytest.raises(InvalidNonce, match="32 to 64 lowercase hexadecimal digits"):
        check_nonce(bad)


def test_a_missing_nonce_is_refused_where_one_is_required() -> None:
    with pytest.raises(NonceRequired) as refused:
        require_nonce("")
    assert refused.value.code == "nonce_required"
    assert require_nonce(NONCES[0]) == NONCES[0]


def test_the_worked_numbers_of_docs_audit_md() -> None:
    """docs/audit.md (4.1), "With a command nonce"."""
    message = b"alice:0:0:000102030405060708090a0b0c0d0e0f"
    digest = hmac.new(SEED, message, hashlib.sha256).hexdigest()
    assert digest == "52a7d2c2d53ff6f8613a47946da1031629ea036f8dfdf9875ac3b48e961222e2"
    assert int(digest[:8], 16) == 1386730178
    assert derive_faces(SEED, "alice", 0, d6(), "000102030405060708090a0b0c0d0e0f") == (3,)
    assert derive_faces(SEED, "alice", 0, d6()) == (2,)
    assert derive_faces(SEED, "alice", 0, d6(), "f" * 32) == (5,)
