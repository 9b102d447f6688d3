"""Takeback (issue #18 item 4): a player takes back their last command, and the one before
it, while no die has been rolled and nothing hidden shown since. It is an event
(`CommandTakenBack`); the fold returns to the state before the command; the audit re-runs
the TakeBack and so accepts only an allowed one.

Logs are built in memory as the server appends them (tests/support/takeback_log.py)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import Struct
from umpire_counter import RULESET as COUNTER
from umpire_counter import Added

from tests.support.takeback_log import Log, bookkeeping_free
from umpire.engine import registry
from umpire.engine.actions import legal_actions, offered
from umpire.engine.audit import audit
from umpire.engine.commands import TAKEBACK_RULE, TakeBack, TakebackPolicy
from umpire.engine.dice import RecordedDice
from umpire.engine.errors import RuleError
from umpire.engine.game import Game, decode_game, encode_game, fold, state_hash
from umpire.engine.handling import decide_command
from umpire.engine.offers import command_schema
from umpire.engine.replay import game_at, readjudicate, state_at
from umpire.engine.roles import Role
from umpire.engine.scenarios import default_setup
from umpire.engine.takeback import TakebackRefused
from umpire.events.types import ClientSeedBound, CommandRecorded, CommandTakenBack
from umpire.testing.support.schema_sampler import sample

RULESETS = registry.shipped()


def add(n: int) -> dict[str, Any]:
    return {"type": "Add", "amount": n}


TAKE_BACK = {"type": "TakeBack"}


def refused(log: Log, why: str, match: str) -> TakebackRefused:
    """A TakeBack refused for `why` with a message matching `match`; nothing written."""
    before = list(log.envelopes)
    with pytest.raises(TakebackRefused, match=match) as info:
        log.send(TAKE_BACK)
    assert info.value.code == "command_not_allowed"
    assert info.value.details["why"] == why and info.value.rule == TAKEBACK_RULE
    assert log.envelopes == before
    return info.value


def test_an_allowed_takeback_folds_to_the_state_before_the_command_and_audits() -> None:
    log = Log(COUNTER, {"target": 100})
    log.send(add(2))
    before = log.game
    log.send(add(3), "mistake")
    events = log.send(TAKE_BACK)
    assert events == [
        CommandRecorded(command_type="TakeBack", command={"type": "TakeBack"}),
        CommandTakenBack(seq=4, command_id="mistake", command_type="Add", rule=TAKEBACK_RULE),
    ]
    after = log.game
    assert after.state == before.state and after.state.total == 2
    assert bookkeeping_free(after) == bookkeeping_free(before)
    assert after.meta.taken_back == 1 and after.meta.commands == 3
    report = audit(log.envelopes, ruleset=COUNTER)
    assert report.ok, report.failure
    assert report.state_hash == state_hash(after)


def test_twice_takes_back_the_one_before_too_and_a_third_is_refused_as_too_deep() -> None:
    log = Log(COUNTER, {"target": 100})
    log.send(add(1))
    first = log.game
    log.send(add(2))
    log.send(add(3))
    log.send(TAKE_BACK)
    log.send(TAKE_BACK)
    assert log.game.state == first.state
    assert bookkeeping_free(log.game) == bookkeeping_free(first)
    refused(log, "depth", "more than 2 deep")
    assert audit(log.envelopes, ruleset=COUNTER).ok


def test_a_takeback_after_a_roll_is_refused_naming_the_roll() -> None:
    log = Log(COUNTER, {"target": 100})
    log.send(add(1))
    log.send({"type": "Push"})  # CommandRecorded at seq 4, its DiceRolled at seq 5
    # Neither the command whose decide rolled nor the one before it comes back.
    refused(log, "roll", "a die was rolled since: at seq 5")
    log.send({"type": "RollDice", "dice": "d6", "purpose": "weather"})
    refused(log, "roll", "a die was rolled since: at seq 8")


def test_a_takeback_after_a_hidden_roll_is_refused() -> None:
    log = Log(COUNTER, {"target": 100})
    log.send(add(1))
    log.send({"type": "Hide"})
    error = refused(log, "roll", "a die was rolled since")
    assert "secret" not in error.message


def _hidden_sixes(event: Struct, role: Role) -> Struct | None:
    """Counter, but an Add of 6 is withheld from the player (hidden without a roll)."""
    if isinstance(event, Added) and event.amount == 6 and role is not Role.REFEREE:
        return None
    return COUNTER.redact(event, role)


def test_a_takeback_after_something_hidden_was_shown_is_refused() -> None:
    hiding = dataclasses.replace(COUNTER, redact=_hidden_sixes)
    log = Log(hiding, {"target": 100})
    log.send(add(1))
    log.send(add(6))  # its Added at seq 5 is withheld from the player
    refused(log, "hidden", "something hidden was shown since: at seq 5")
    log.send(add(2))
    log.send(TAKE_BACK)  # what came after is still the player's to take back
    refused(log, "hidden", "at seq 5")
    assert audit(log.envelopes, ruleset=hiding).ok


def test_a_rulesets_revealing_event_type_blocks_like_a_roll() -> None:
    revealing = dataclasses.replace(COUNTER, takeback=TakebackPolicy(reveals=("counter.Added",)))
    log = Log(revealing, {"target": 100})
    log.send(add(1))
    refused(log, "hidden", "something hidden was shown since: at seq 3")


def test_a_ruleset_may_forbid_a_command_type_or_allow_less_depth() -> None:
    forbidding = dataclasses.replace(COUNTER, takeback=TakebackPolicy(forbidden=("Add",)))
    log = Log(forbidding, {"target": 100})
    log.send(add(1))
    refused(log, "forbidden", "forbid taking back Add")
    shallow = dataclasses.replace(COUNTER, takeback=TakebackPolicy(depth=1))
    log = Log(shallow, {"target": 100})
    log.send(add(1))
    log.send(add(2))
    log.send(TAKE_BACK)
    refused(log, "depth", "more than 1 deep")
    none = dataclasses.replace(COUNTER, takeback=TakebackPolicy(depth=0))
    log = Log(none, {"target": 100})
    log.send(add(1))
    refused(log, "forbidden", "allow no takebacks")
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"depth": 3}, TakebackPolicy)


def test_nothing_to_take_back_at_the_start() -> None:
    log = Log(COUNTER, {"target": 100})
    refused(log, "nothing", "nothing to take back")
    log.send(add(1))
    log.send(TAKE_BACK)
    refused(log, "nothing", "nothing to take back")


def test_a_takeback_before_any_command_says_there_is_none_not_the_seed() -> None:
    """`umpire new` binds the client's seed at creation (newcomer walk, 2026-11-29): a
    TakeBack then was refused because "the dice seed was bound or revealed since: at seq
    2", where the player had sent nothing to take back."""
    log = Log(COUNTER, {"target": 100})
    log.append([ClientSeedBound(epoch=0, client_seed="ab" * 16)], "umpire:bind:0")
    refusal = refused(log, "nothing", "nothing to take back")
    assert "seed" not in refusal.message


def test_a_taken_back_then_resent_command_can_be_taken_back_again() -> None:
    log = Log(COUNTER, {"target": 100})
    log.send(add(1))
    start = log.game
    log.send(add(4), "first try")
    log.send(TAKE_BACK)
    log.send(add(4), "second try")
    assert log.game.state.total == 5
    events = log.send(TAKE_BACK)
    assert events[1] == CommandTakenBack(
        seq=8, command_id="second try", command_type="Add", rule=TAKEBACK_RULE
    )
    assert log.game.state == start.state
    log.send(TAKE_BACK)  # and, two in a row, the one before it
    assert log.game.state.total == 0
    assert audit(log.envelopes, ruleset=COUNTER).ok


def test_takeback_is_listed_exactly_when_allowed_naming_the_command() -> None:
    log = Log(COUNTER, {"target": 100})

    def listed(game: Game, role: Role = Role.PLAYER) -> list[Any]:
        actions = legal_actions(COUNTER, game.state, role, ended=game.meta.ended, game=game)
        return [a for a in actions if a.type == "TakeBack"]

    assert listed(log.game) == []
    log.send(add(1))
    (action,) = listed(log.game)
    assert action.description == f"Take back: Add (seq 2) ({TAKEBACK_RULE})"
    assert action.rule == TAKEBACK_RULE and action.schema == command_schema(TakeBack)
    assert listed(log.game, Role.SPECTATOR) == []
    # Without the folded game (a past state, a caller that has only the state) never.
    assert "TakeBack" not in [
        a.type for a in offered(COUNTER, log.game.state, Role.PLAYER, ended=False)
    ]
    log.send({"type": "Push"})
    assert listed(log.game) == []


def test_a_spectator_cannot_take_back() -> None:
    log = Log(COUNTER, {"target": 100})
    log.send(add(1))
    with pytest.raises(RuleError, match="TakeBack is not allowed now"):
        decide_command(COUNTER, log.game, TAKE_BACK, RecordedDice(()), role=Role.SPECTATOR)


def test_the_takeback_stack_survives_a_snapshot_and_a_fold_from_any_point() -> None:
    log = Log(COUNTER, {"target": 100})
    log.send(add(1))
    log.send(add(2))
    for cut in range(1, len(log.envelopes) + 1):
        part = fold(log.envelopes[:cut], None, COUNTER)
        assert part is not None
        restored = decode_game(COUNTER, encode_game(part))
        assert state_hash(restored) == state_hash(part)
        whole = fold(log.envelopes[cut:], restored, COUNTER)
        assert whole is not None and state_hash(whole) == state_hash(log.game)
    restored = decode_game(COUNTER, encode_game(log.game))
    assert restored.meta.undo[-1].state == log.game.meta.undo[-1].state
    assert type(restored.meta.undo[-1].state) is type(log.game.state)


@pytest.mark.parametrize("name", RULESETS)
def test_every_ruleset_takes_back_to_the_earlier_state_and_audits(name: str) -> None:
    """Random legal commands until one rolled nothing and showed nothing hidden; its
    takeback folds to the state before it and the log audits."""
    ruleset = registry.get(name)
    log = Log(ruleset, default_setup(ruleset))
    rng = random.Random(11)
    for n in range(400):
        game = log.game
        actions = offered(ruleset, game.state, Role.PLAYER, ended=game.meta.ended, game=game)
        if any(a.type == "TakeBack" for a in actions):
            break
        assert not game.meta.ended, f"{name}: the game ended before any command was undoable"
        choices = [a for a in actions if a.type not in ("RollDice", "EndGame")]
        action = rng.choice(choices)
        before = game
        try:
            log.send(sample(action.wire().schema, rng), f"r{n}")
        except RuleError:
            continue
    else:  # pragma: no cover
        pytest.fail(f"{name}: no command in 400 could be taken back")
    top = log.game.meta.undo[-1]
    events = log.send(TAKE_BACK)
    assert events[-1] == CommandTakenBack(
        seq=top.seq, command_id=top.command_id, command_type=top.command_type, rule=TAKEBACK_RULE
    )
    after = log.game
    assert after.state == before.state
    assert bookkeeping_free(after) == bookkeeping_free(before)
    report = audit(log.envelopes, ruleset=ruleset)
    assert report.ok, report.failure


@st.composite
def _moves(draw: st.DrawFn) -> list[str]:
    return draw(
        st.lists(st.sampled_from(["add1", "add2", "add3", "push", "take", "take"]), max_size=14)
    )


@settings(max_examples=60, deadline=None)
@given(_moves())
def test_the_state_is_the_fold_of_the_log_without_the_taken_back_batches(
    moves: list[str],
) -> None:
    """For any commands and takebacks: the state equals that of the same commands sent
    without the taken-back ones (and without the TakeBacks); a refused TakeBack writes
    nothing."""
    log = Log(COUNTER, {"target": 10_000})
    kept: list[dict[str, Any]] = []
    for move in moves:
        if move == "take":
            before = list(log.envelopes)
            try:
                log.send(TAKE_BACK)
            except TakebackRefused:
                assert log.envelopes == before
                continue
            kept.pop()
            continue
        command = {"type": "Push"} if move == "push" else add(int(move[-1]))
        log.send(command)
        kept.append(command)
    plain = Log(COUNTER, {"target": 10_000})
    for command in kept:
        plain.send(command)
    assert log.game.state == plain.game.state
    assert log.game.meta.rolls == plain.game.meta.rolls
    assert audit(log.envelopes, ruleset=COUNTER).ok


def test_replay_at_any_seq_and_readjudication_keep_the_takebacks() -> None:
    log = Log(COUNTER, {"target": 100})
    log.send(add(1))
    log.send(add(4))
    log.send(TAKE_BACK)  # seqs 6-7
    log.send(add(2))
    totals = [game_at(log.envelopes, seq, COUNTER).state.total for seq in range(1, 10)]
    assert totals == [0, 0, 1, 1, 5, 5, 1, 1, 3]
    assert state_at(log.envelopes, 7, Role.PLAYER, COUNTER).state["total"] == 1
    again = readjudicate(log.envelopes, COUNTER, game_id="tb2")
    assert again.difference is None and not again.stopped
    assert [e for b in again.batches for e in b.events][6] == CommandTakenBack(
        seq=4, command_id="c2", command_type="Add", rule=TAKEBACK_RULE
    )
