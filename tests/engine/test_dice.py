"""Commit-reveal dice: derivation, ranges, fairness, manual and recorded sources."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from umpire_counter import RULESET as COUNTER

from tests.support.takeback_log import Log
from umpire.engine.commands import RollDice
from umpire.engine.dice import (
    DiceKind,
    ManualDice,
    RecordedDice,
    ServerDice,
    coloured,
    commitment,
    custom,
    d6,
    d10,
    d12,
    d20,
    d100,
    derive_faces,
    draw,
    is_doubles,
    nd6,
    total_of,
    two_d6,
)
from umpire.engine.errors import DiceMismatch, InvalidCommand, ManualDiceError
from umpire.engine.offers import command_schema
from umpire.events.types import Owner

SEED = bytes(range(32))


def test_commitment_is_sha256_of_the_seed() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_derivation_is_deterministic_and_depends_on_every_input() -> None:
    base = derive_faces(SEED, "client", 7, nd6(10))
    assert base == derive_faces(SEED, "client", 7, nd6(10))
    assert base != derive_faces(SEED, "client", 8, nd6(10))
    assert base != derive_faces(SEED, "other", 7, nd6(10))
    assert base != derive_faces(bytes(32), "client", 7, nd6(10))


@given(st.integers(0, 10_000), st.sampled_from([d6(), two_d6(), d10(), d12(), d20(), nd6(5)]))
def test_faces_stay_in_range(roll: int, spec) -> None:
    faces = derive_faces(SEED, "c", roll, spec)
    assert len(faces) == len(spec.sides)
    assert all(1 <= f <= s for f, s in zip(faces, spec.sides, strict=True))


def test_percentile_reads_tens_and_units_with_double_zero_as_100() -> None:
    """000_842c81c5c58bc2f6.txt 1.2.3: 00 = 100."""
    spec = d100()
    assert total_of(spec, (0, 0)) == 100
    assert total_of(spec, (0, 7)) == 7
    assert total_of(spec, (4, 2)) == 42
    totals = {
        ServerDice(SEED, "c", n).roll(spec, purpose="p", rule="r", owner=Owner.PLAYER).total
        for n in range(3000)
    }
    assert min(totals) == 1 and max(totals) == 100 and len(totals) == 100


def test_every_face_is_equally_likely_chi_square() -> None:
    """No modulo bias: 12,000 d6 and d20 rolls pass a chi-square test at p = 0.001."""
    for spec, critical in ((d6(), 20.52), (d20(), 43.82)):
        sides = spec.sides[0]
        counts = Counter(derive_faces(SEED, "chi", n, spec)[0] for n in range(12_000))
        expected = 12_000 / sides
        chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, sides + 1))
        assert chi2 < critical, (spec.kind, chi2)


def test_draw_picks_among_remaining_cards() -> None:
    seen = Counter(derive_faces(SEED, "deck", n, draw(7))[0] for n in range(7000))
    assert sorted(seen) == list(range(1, 8))
    assert min(seen.values()) > 800


def test_doubles_and_named_dice() -> None:
    dice = ManualDice([[3, 3], [2, 5]], next_roll=0)
    a = dice.roll(two_d6(), purpose="attack", rule="r", owner=Owner.PLAYER)
    b = dice.roll(coloured(blue=6, purple=6), purpose="locate", rule="r", owner=Owner.PLAYER)
    assert is_doubles(a) and not is_doubles(b)
    assert b.labels == ("blue", "purple") and b.faces == (2, 5) and b.total == 7


def test_server_dice_number_rolls_from_the_game_count() -> None:
    dice = ServerDice(SEED, "c", next_roll=5)
    first = dice.roll(d6(), purpose="a", rule="r", owner=Owner.PLAYER)
    second = dice.roll(d6(), purpose="b", rule="r", owner=Owner.PLAYER, hidden=True)
    assert (first.roll, second.roll) == (5, 6)
    assert second.hidden and dice.rolled == [first, second]
    assert first.faces == derive_faces(SEED, "c", 5, d6())


def test_manual_dice_refuse_what_does_not_fit() -> None:
    with pytest.raises(ManualDiceError, match="has 1 die"):
        ManualDice([[4]], 0).roll(two_d6(), purpose="p", rule="r", owner=Owner.PLAYER)
    with pytest.raises(ManualDiceError, match="not on the die"):
        ManualDice([[10, 0]], 0).roll(d100(), purpose="p", rule="r", owner=Owner.PLAYER)
    with pytest.raises(ManualDiceError, match="ran out"):
        ManualDice([], 0).roll(d6(), purpose="p", rule="r", owner=Owner.PLAYER)


def test_recorded_dice_replay_and_detect_a_different_roll() -> None:
    rolled = ServerDice(SEED, "c", 0).roll(d6(), purpose="p", rule="r", owner=Owner.PLAYER)
    assert RecordedDice([rolled]).roll(d6(), purpose="p", rule="r", owner=Owner.PLAYER) == rolled
    with pytest.raises(DiceMismatch, match="d10"):
        RecordedDice([rolled]).roll(d10(), purpose="p", rule="r", owner=Owner.PLAYER)
    with pytest.raises(DiceMismatch, match="does not hold"):
        RecordedDice([]).roll(d6(), purpose="p", rule="r", owner=Owner.PLAYER)


def test_spec_constructors_refuse_nonsense() -> None:
    with pytest.raises(ValueError):
        draw(0)
    with pytest.raises(ValueError):
        nd6(0)
    with pytest.raises(ValueError):
        custom(1)
    assert custom(3, 3).kind is DiceKind.CUSTOM


def _faces_as_documented(
    seed: bytes, client_seed: str, roll: int, sides: list[int], nonce: str = ""
) -> tuple[int, ...]:
    """docs/audit.md (4.1) read literally: the 32-bit big-endian words of HMAC-SHA256 over
    `client_seed:roll:block[:nonce]`, block 0, 1, ... in turn; a word at or past the
    largest multiple of a die's sides is skipped, the next one taken."""
    words: list[int] = []
    faces = []
    block = 0
    for n in sides:
        while True:
            if not words:
                message = f"{client_seed}:{roll}:{block}" + (f":{nonce}" if nonce else "")
                digest = hmac.new(seed, message.encode(), hashlib.sha256).digest()
                words = [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]
                block += 1
            word = words.pop(0)
            if word < 2**32 - 2**32 % n:
                faces.append(1 + word % n)
                break
    return tuple(faces)


@pytest.mark.parametrize("nonce", ["", "0123456789abcdef0123456789abcdef"])
def test_the_words_run_on_into_the_next_blocks(nonce: str) -> None:
    # Twenty dice take three blocks; dice of 2**31 + 1 sides skip about half their words,
    # so their draws cross block boundaries at every count.
    for roll in range(40):
        assert derive_faces(SEED, "alice", roll, nd6(20), nonce) == _faces_as_documented(
            SEED, "alice", roll, [6] * 20, nonce
        )
        big = [2**31 + 1] * 12
        assert derive_faces(SEED, "bob", roll, custom(*big), nonce) == _faces_as_documented(
            SEED, "bob", roll, big, nonce
        )


@pytest.mark.parametrize("kind", ["coloured", "draw"])
def test_a_players_roll_of_a_rulesets_own_kind_is_refused_naming_the_kinds_allowed(
    kind: str,
) -> None:
    """RollDice took every DiceKind, and rolled a ruleset's named dice or a card draw as
    `custom` dice without a word (docs engineer, 2026-11-29); the published schemas
    advertised both. They are the rulesets' own rolls: a player's is refused, and writes
    nothing."""
    log = Log(COUNTER, {"target": 100})
    before = list(log.envelopes)
    with pytest.raises(InvalidCommand) as refused:
        log.send({"type": "RollDice", "dice": kind, "purpose": "a roll of my own"})
    assert f"'{kind}' is not one of its values" in refused.value.message
    assert "allowed: one of d6, 2d6, d10, d12, d20, d100, nd6, custom" in refused.value.message
    assert log.envelopes == before
    listed = command_schema(RollDice)["properties"]["dice"]["enum"]
    assert listed == ["d6", "2d6", "d10", "d12", "d20", "d100", "nd6", "custom"]


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"dice": "d6", "sides": 20}, "sides 20 is not used by d6 dice"),
        ({"dice": "2d6", "sides": 8}, "sides 8 is not used by 2d6 dice"),
        ({"dice": "d20", "count": 3}, "count 3 is not used by d20"),
        ({"dice": "d100", "count": 2}, "count 2 is not used by d100"),
    ],
)
def test_a_roll_field_its_kind_does_not_use_is_refused(
    fields: dict[str, object], said: str
) -> None:
    """Red team 9: {"dice": "d20", "count": 3} rolled one d20 and {"dice": "d6", "sides":
    20} a d6, each accepted without a word of the field dropped. Refused now, writing
    nothing; the fields' defaults, as a form sends them, are still taken."""
    log = Log(COUNTER, {"target": 100})
    before = list(log.envelopes)
    with pytest.raises(InvalidCommand) as refused:
        log.send({"type": "RollDice", "purpose": "a roll of my own", **fields})
    assert said in refused.value.message, refused.value.message
    assert log.envelopes == before
    log.send({"type": "RollDice", "dice": "d20", "count": 1, "sides": 6, "purpose": "mine"})
    log.send({"type": "RollDice", "dice": "custom", "count": 3, "sides": 20, "purpose": "x"})
    assert len(log.envelopes) == len(before) + 4
