"""Rules disputes on a real store (issue 40 items 2, 3, 4 and 7; docs/audit.md "Disputes").

Per ruleset: a game is played on the store, the first seq where one of its declared
readings makes the game go otherwise is found from the log, and the player disputes it
under that reading: `DisputeFiled` is appended, then the finding (`DisputeFound`) with the
parting seq, at once, or, where the disputed decision rests on something the player may not
see yet, held pending until the final reveal and found then. The log still audits (the
audit re-makes the finding). Bad input is refused with a typed error and writes nothing.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from umpire.engine import registry
from umpire.engine.audit import audit
from umpire.engine.audit_grammar import check_batches
from umpire.engine.disputes import (
    CLAIM_MAX,
    DisputeOpen,
    DisputeRefused,
    MayNotRule,
    NotDisputable,
    RulingRefused,
    SeqSuperseded,
    UnknownReading,
    codec_decoded,
    on_line,
    remake,
)
from umpire.engine.game import amended_setup, fold, state_hash
from umpire.engine.kit.reading import Reading, probe_of, setup_value, value_text
from umpire.engine.replay import SeqOutOfRange, line_of
from umpire.engine.roles import Role
from umpire.events.codec import canonical_json
from umpire.events.errors import UmpireError, Unauthorized
from umpire.events.redis_store import RedisEventStore
from umpire.events.store import Credential
from umpire.events.types import (
    CommandRecorded,
    DiceRolled,
    DisputeFiled,
    DisputeFound,
    DisputeRuled,
    GameAmended,
    GameCreated,
)
from umpire.server import credentials
from umpire.server.games import Games
from umpire.server.head_checkpoints import Heads
from umpire.server.store_check import check_game
from umpire.testing.support.drivers import driven_setup, driver
from umpire.testing.support.readings import Log, parting

RULESETS = ["age_of_dogfights", "conflict_of_heroes", "down_in_flames", "downtown",
            "nightfighter"]  # fmt: skip
LIMIT = 150
SECOND_AFTER = 6  # commands played between the two amendments


async def _play(games: Games, name: str, reading: Reading, seed: int, limit: int = LIMIT) -> str:
    """A game of `name` on the store: the reading's probe (or the test set-up), driven
    (at most `limit` commands after the probe's script)."""
    setup, script = probe_of(reading, driven_setup(name))
    created = await games.create(name, setup)
    game_id = created.game_id
    _, propose = driver(name)
    rng = random.Random(seed)
    accepted = 0
    for i in range(len(script) + LIMIT * 4):
        _, game = await games.load(game_id)
        if game.meta.ended or accepted >= limit + len(script):
            break
        if i < len(script):
            command = script[i]
        else:
            try:
                command = rng.choice(propose(game.state, rng))
            except (StopIteration, KeyError, IndexError):
                break
        try:
            await games.handle(game_id, f"c{i}", command)
        except UmpireError:
            if i < len(script):
                raise
            continue
        accepted += 1
    return game_id


async def _log(store: RedisEventStore, name: str, game_id: str) -> Log:
    envelopes = await store.read(game_id)
    decoded = codec_decoded(registry.get(name), envelopes)
    return Log(envelopes=tuple(envelopes), decoded=tuple(decoded), game=None)


async def _parted_game(
    games: Games, store: RedisEventStore, name: str
) -> tuple[str, Reading, str, int]:
    """A stored game in which the ruleset's first declared reading parts the lines: the
    game, the reading, its alternative and the parting seq."""
    reading = registry.get(name).readings[0]
    value = value_text(reading.alternatives[0])
    for seed in range(6):
        game_id = await _play(games, name, reading, seed)
        parts = parting(name, await _log(store, name, game_id), reading, value)
        if parts is not None:
            return game_id, reading, value, parts
    raise AssertionError(f"{name}: no driven game parts under {reading.name}={value}")


@pytest.mark.parametrize("name", RULESETS)
async def test_a_dispute_under_a_reading_is_found_with_its_parting_seq(
    games: Games, store: RedisEventStore, name: str
) -> None:
    game_id, reading, value, parts = await _parted_game(games, store, name)
    log = await _log(store, name, game_id)
    # The parting event, or the first event of its batch's decision when the reading
    # refuses the whole command (the lines part at its CommandRecorded).
    seq = parts + 1 if isinstance(log.decoded[parts - 1], CommandRecorded) else parts
    head = len(log.envelopes)
    filed = await games.dispute(game_id, role=Role.PLAYER, seq=seq, claim="the reading",
                                reading=reading.name, value=value)  # fmt: skip
    assert filed.id == head + 1
    after = await _log(store, name, game_id)
    dispute = after.decoded[filed.id - 1]
    assert dispute == DisputeFiled(who="player", seq=seq, claim="the reading",
                                   reading=reading.name, value=value, blind=True)  # fmt: skip
    assert after.envelopes[filed.id - 1].command_id == f"umpire:dispute:{filed.id}"
    if filed.finding is None:
        # It rests on what the player may not see yet: nothing is found before the end.
        assert len(after.envelopes) == head + 1
        _, game = await games.load(game_id)
        assert not game.meta.ended
        with pytest.raises(RulingRefused, match="pending reveal"):
            await games.rule(game_id, role=Role.PLAYER, dispute=filed.id, ruling="uphold")
        await games.handle(
            game_id, "the-end", {"type": "EndGame", "result": "stopped to find the dispute"}
        )
        _, listed = await games.disputes(game_id)
        (only,) = listed
        finding = only.finding
        assert finding is not None, "the final reveal did not find the pending dispute"
    else:
        finding = filed.finding
        assert after.decoded[-1] == finding
        assert after.envelopes[-1].command_id == f"umpire:finding:{filed.id}"
    assert finding.dispute == filed.id
    assert finding.parts_at == parts
    assert finding.same is False
    assert finding.as_played and finding.under_reading
    final = await store.read(game_id)
    report = audit(final)
    assert report.ok, report.failure


async def test_a_forged_finding_fails_the_audit(games: Games, store: RedisEventStore) -> None:
    name = "conflict_of_heroes"
    game_id, reading, value, parts = await _parted_game(games, store, name)
    log = await _log(store, name, game_id)
    seq = parts + 1 if isinstance(log.decoded[parts - 1], CommandRecorded) else parts
    filed = await games.dispute(game_id, role=Role.PLAYER, seq=seq, claim="x",
                                reading=reading.name, value=value)  # fmt: skip
    assert filed.finding is not None
    envelopes = await store.read(game_id)
    ruleset = registry.get(name)
    decoded = codec_decoded(ruleset, envelopes)
    assert check_batches(envelopes, decoded, ruleset).failure is None
    for forged in (
        msgspec.structs.replace(filed.finding, same=True, parts_at=0),
        msgspec.structs.replace(filed.finding, parts_at=filed.finding.parts_at + 1),
    ):
        walk = check_batches(envelopes, [*decoded[:-1], forged], ruleset)
        assert walk.failure is not None and walk.failure.check == "dispute", walk.failure
        assert walk.failure.seq == len(envelopes)


async def _counter_like(games: Games) -> tuple[str, int, int]:
    """A Conflict of Heroes game a few commands in: its id, a CommandRecorded seq and a
    decision seq."""
    name = "conflict_of_heroes"
    ruleset = registry.get(name)
    created = await games.create(name)
    for n, command in enumerate(ruleset.openings):
        await games.handle(created.game_id, f"o{n}", msgspec.to_builtins(command))
    envelopes = await games.store.read(created.game_id)
    decoded = codec_decoded(ruleset, envelopes)
    recorded = next(i + 1 for i, e in enumerate(decoded) if isinstance(e, CommandRecorded))
    return created.game_id, recorded, recorded + 1


BAD: list[tuple[str, dict[str, Any], type[UmpireError]]] = [
    ("seq 0", {"seq": 0}, SeqOutOfRange),
    ("past the head", {"seq": 10_000}, SeqOutOfRange),
    ("GameCreated", {"seq": 1}, NotDisputable),
    ("a recorded command", {"seq": "recorded"}, NotDisputable),
    ("an unknown reading", {"reading": "no_such_reading"}, UnknownReading),
    ("a value the reading lacks", {"reading": "sideways_moves", "value": "maybe"},
     UnknownReading),
    ("the value played", {"reading": "sideways_moves", "value": "false"}, UnknownReading),
    ("a value without a reading", {"value": "true"}, UnknownReading),
    ("a claim too long", {"claim": "x" * (CLAIM_MAX + 1)}, DisputeRefused),
    ("an empty claim", {"claim": "  "}, DisputeRefused),
]  # fmt: skip


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
async def test_bad_input_is_refused_and_writes_nothing(
    games: Games, case: tuple[str, dict[str, Any], type[UmpireError]]
) -> None:
    game_id, recorded, decision = await _counter_like(games)
    _, fields, error = case
    asked: dict[str, Any] = {"seq": decision, "claim": "wrong", **fields}
    if asked["seq"] == "recorded":
        asked["seq"] = recorded
    before = await games.store.version(game_id)
    with pytest.raises(error) as refused:
        await games.dispute(game_id, role=Role.PLAYER, **asked)
    assert refused.value.message  # says what was wrong and what is allowed
    assert await games.store.version(game_id) == before


async def test_a_second_dispute_of_the_same_seq_is_refused(games: Games) -> None:
    game_id, _, decision = await _counter_like(games)
    first = await games.dispute(game_id, role=Role.SPECTATOR, seq=decision, claim="wrong")
    assert first.finding is not None and first.finding.same and first.finding.parts_at == 0
    before = await games.store.version(game_id)
    with pytest.raises(DisputeOpen) as refused:
        await games.dispute(game_id, role=Role.SPECTATOR, seq=decision, claim="again")
    assert f"id {first.id}" in refused.value.message
    assert "by the spectator" in refused.value.message
    assert await games.store.version(game_id) == before
    # A dispute's own events are not disputable either.
    with pytest.raises(NotDisputable):
        await games.dispute(game_id, role=Role.PLAYER, seq=first.id, claim="meta")
    envelopes = await games.store.read(game_id)
    decoded = codec_decoded(registry.get("conflict_of_heroes"), envelopes)
    assert isinstance(decoded[-1], DisputeFound)
    assert audit(envelopes).ok


async def test_a_spectators_open_dispute_never_refuses_the_players(games: Games) -> None:
    """One open dispute of a seq per disputing role (docs/audit.md "Disputes"): in a game
    the operator referees (the player could not clear a spectator's dispute), the player's
    and the referee's disputes of a seq a spectator disputed are filed and found, all three
    are ruled, and the log audits; the player's second dispute of the seq is refused."""
    name = "conflict_of_heroes"
    ruleset = registry.get(name)
    game_id = (await games.create(name, referee="operator")).game_id
    for n, command in enumerate(ruleset.openings):
        await games.handle(game_id, f"o{n}", msgspec.to_builtins(command))
    decoded = codec_decoded(ruleset, await games.store.read(game_id))
    decision = next(i + 1 for i, e in enumerate(decoded) if isinstance(e, CommandRecorded)) + 1
    filed = [await games.dispute(game_id, role=role, seq=decision, claim=f"by the {role.value}")
             for role in (Role.SPECTATOR, Role.PLAYER, Role.REFEREE)]  # fmt: skip
    assert all(f.finding is not None and f.finding.dispute == f.id for f in filed)
    before = await games.store.version(game_id)
    with pytest.raises(DisputeOpen) as refused:
        await games.dispute(game_id, role=Role.PLAYER, seq=decision, claim="again")
    assert f"id {filed[1].id}" in refused.value.message
    assert await games.store.version(game_id) == before
    for dispute in (filed[1].id, filed[0].id, filed[2].id):
        await games.rule(game_id, role=Role.REFEREE, dispute=dispute, ruling="uphold")
    envelopes = await games.store.read(game_id)
    decoded = codec_decoded(ruleset, envelopes)
    assert [(type(e).__name__, getattr(e, "who", "")) for e in decoded[-9:]] == [
        ("DisputeFiled", "spectator"), ("DisputeFound", ""),
        ("DisputeFiled", "player"), ("DisputeFound", ""),
        ("DisputeFiled", "referee"), ("DisputeFound", ""),
        ("DisputeRuled", ""), ("DisputeRuled", ""), ("DisputeRuled", ""),
    ]  # fmt: skip
    assert audit(envelopes).ok
    # Each ruled, the seq may be disputed again by the same role.
    again = await games.dispute(game_id, role=Role.SPECTATOR, seq=decision, claim="still")
    assert again.finding is not None


RULING_REFUSALS: list[tuple[str, dict[str, Any], type[UmpireError]]] = [
    ("by a spectator", {"role": Role.SPECTATOR}, MayNotRule),
    ("of no dispute", {"dispute": 1}, RulingRefused),
    ("neither uphold nor amend", {"ruling": "overrule"}, RulingRefused),
]


@pytest.mark.parametrize("case", RULING_REFUSALS, ids=[c[0] for c in RULING_REFUSALS])
async def test_a_ruling_that_may_not_be_made_is_refused_and_writes_nothing(
    games: Games, case: tuple[str, dict[str, Any], type[UmpireError]]
) -> None:
    game_id, _, decision = await _counter_like(games)
    filed = await games.dispute(game_id, role=Role.PLAYER, seq=decision, claim="wrong")
    asked: dict[str, Any] = {"role": Role.PLAYER, "dispute": filed.id, "ruling": "uphold",
                             **case[1]}  # fmt: skip
    before = await games.store.version(game_id)
    with pytest.raises(case[2]) as refused:
        await games.rule(game_id, **asked)
    assert refused.value.message
    assert await games.store.version(game_id) == before


async def test_an_upheld_dispute_is_closed_and_the_log_audits(games: Games) -> None:
    game_id, _, decision = await _counter_like(games)
    filed = await games.dispute(game_id, role=Role.PLAYER, seq=decision, claim="wrong")
    seq = await games.rule(game_id, role=Role.PLAYER, dispute=filed.id, ruling="uphold")
    envelopes = await games.store.read(game_id)
    ruleset = registry.get("conflict_of_heroes")
    decoded = codec_decoded(ruleset, envelopes)
    assert decoded[seq - 1] == DisputeRuled(dispute=filed.id, ruling="uphold", by="player")
    assert envelopes[seq - 1].command_id == f"umpire:ruling:{filed.id}"
    with pytest.raises(RulingRefused, match="ruled already"):
        await games.rule(game_id, role=Role.REFEREE, dispute=filed.id, ruling="uphold")
    # Ruled, the seq may be disputed again.
    again = await games.dispute(game_id, role=Role.SPECTATOR, seq=decision, claim="still")
    assert again.finding is not None
    envelopes = await games.store.read(game_id)
    assert audit(envelopes).ok
    # A ruling by a role that may not rule, forged into the log, fails the grammar.
    decoded = codec_decoded(ruleset, envelopes)
    forged = [*decoded]
    forged[seq - 1] = DisputeRuled(dispute=filed.id, ruling="uphold", by="spectator")
    walk = check_batches(envelopes, forged, ruleset)
    assert walk.failure is not None and walk.failure.seq == seq
    assert "may not rule" in walk.failure.message


# An `amend` ruling (issue 40 item 4; docs/audit.md "Amendments"): the ruling's batch
# holds DisputeRuled, GameAmended (naming the superseded seqs) and the line re-made under
# the reading; the game plays on from it to its end and the whole log audits; a forged
# amended line fails the audit.

PLAY_ON = 400  # commands tried after the amendment before the game is ended by hand


async def _running_parted_games(
    games: Games, store: RedisEventStore, name: str
) -> AsyncIterator[tuple[str, Reading, str, int]]:
    """Stored games still running in which one of the ruleset's declared readings parts
    the lines (an amendment continues a running game): the game, the reading, its
    alternative and the parting seq."""
    for reading in registry.get(name).readings:
        value = value_text(reading.alternatives[0])
        for limit in (10, 25, 60):
            for seed in range(6):
                game_id = await _play(games, name, reading, seed, limit)
                _, game = await games.load(game_id)
                if game.meta.ended:
                    continue
                parts = parting(name, await _log(store, name, game_id), reading, value)
                if parts is not None:
                    yield game_id, reading, value, parts


async def _play_on(games: Games, name: str, game_id: str, seed: int) -> None:
    """Drive the game to its natural end (or, past PLAY_ON commands, end it)."""
    _, propose = driver(name)
    rng = random.Random(seed)
    for i in range(PLAY_ON):
        _, game = await games.load(game_id)
        if game.meta.ended:
            return
        try:
            command = rng.choice(propose(game.state, rng))
        except (StopIteration, KeyError, IndexError):
            break
        try:
            await games.handle(game_id, f"after-{i}", command)
        except UmpireError:
            continue
    _, game = await games.load(game_id)
    if not game.meta.ended:
        await games.handle(game_id, "the-end", {"type": "EndGame", "result": "played on"})


async def _amended(games: Games, store: RedisEventStore, name: str) -> tuple[str, int]:
    """A stored game amended under one of its readings, where the disputed decision rests
    on nothing hidden (else its finding waits for the final reveal, after which a game is
    not amended): its id and the ruling's seq."""
    async for game_id, reading, value, parts in _running_parted_games(games, store, name):
        log = await _log(store, name, game_id)
        seq = parts + 1 if isinstance(log.decoded[parts - 1], CommandRecorded) else parts
        filed = await games.dispute(game_id, role=Role.PLAYER, seq=seq, claim="otherwise",
                                    reading=reading.name, value=value)  # fmt: skip
        if filed.finding is None:
            continue  # pending reveal: try another game
        assert filed.finding.parts_at == parts and not filed.finding.same
        ruled = await games.rule(game_id, role=Role.PLAYER, dispute=filed.id, ruling="amend")
        assert ruled == filed.id + 2  # after the finding
        return game_id, ruled
    raise AssertionError(f"{name}: no running driven game to amend under a reading")


@pytest.mark.parametrize("name", RULESETS)
async def test_an_amended_game_plays_on_to_its_end_and_audits(
    games: Games, store: RedisEventStore, name: str
) -> None:
    game_id, ruled = await _amended(games, store, name)
    ruleset = registry.get(name)
    envelopes = await store.read(game_id)
    decoded = codec_decoded(ruleset, envelopes)
    assert isinstance(decoded[ruled - 1], DisputeRuled) and decoded[ruled - 1].ruling == "amend"
    marker = decoded[ruled]
    assert isinstance(marker, GameAmended)
    assert marker.superseded_to == ruled - 1
    assert isinstance(decoded[marker.parts_from - 1], CommandRecorded)
    assert {e.command_id for e in envelopes[ruled - 1 :]} == {f"umpire:ruling:{marker.dispute}"}
    # The re-made line is the one the log before the ruling makes under the reading.
    created = decoded[0]
    assert isinstance(created, GameCreated)
    under = amended_setup(ruleset, created, marker.reading, marker.value)
    line = remake(ruleset, envelopes[: ruled - 1], decoded[: ruled - 1], marker.parts_from,
                  under, commands_only=True)  # fmt: skip
    assert [canonical_json(e) for e in decoded[ruled + 1 :]] == [
        canonical_json(e) for e in line.events
    ]
    # The first command no longer legal ends the re-application (it may be the disputed
    # command itself: then the game goes on from the state before it).
    assert marker.stopped == line.stopped
    assert marker.reapplied == sum(isinstance(e, CommandRecorded) for e in line.events)
    # The store's game is the amended line's: the same state, the log's roll count kept.
    _, game = await games.load(game_id)
    assert game.state == line.game.state
    whole = fold(envelopes)
    assert whole is not None and state_hash(whole) == state_hash(game)
    before = fold(envelopes[: ruled - 1])
    assert before is not None and game.meta.rolls == before.meta.rolls
    # A superseded seq is no longer part of the game: its dispute is refused, saying what
    # is possible instead, and writes nothing.
    head = await store.version(game_id)
    with pytest.raises(SeqSuperseded, match="--line N") as refused:
        await games.dispute(game_id, role=Role.PLAYER, seq=marker.parts_from + 1, claim="x")
    assert refused.value.details["amended"] == ruled + 1
    assert await store.version(game_id) == head
    await _play_on(games, name, game_id, seed=7)
    _, game = await games.load(game_id)
    assert game.meta.ended
    final = await store.read(game_id)
    report = audit(final)
    assert report.ok, report.failure
    # Every batch (client commands, the disputes', the ruling's re-made line holding many
    # CommandRecorded under one id, the final reveal) is one run with its dedupe entry.
    found = await check_game(store, game_id, Heads())
    assert found.damages == [], found.lines()


async def _amended_twice(games: Games, store: RedisEventStore, name: str) -> tuple[str, int, int]:
    """A game amended under a reading, played on a few commands, then amended again from a
    decision of its current line (after the first GameAmended) under the same reading
    switched back to the value first played: its id and both rulings' seqs."""
    game_id, first = await _amended(games, store, name)
    _, propose = driver(name)
    # The seeded player's commands between the two amendments; 11 ended Down in Flames v9's
    # game (a Fuel Tank no longer aggregated) before the second dispute, whose ruling was
    # then refused for the final reveal: a seed whose games all run on.
    rng = random.Random(12)
    for i in range(SECOND_AFTER):
        _, game = await games.load(game_id)
        if game.meta.ended:
            break
        try:
            command = rng.choice(propose(game.state, rng))
        except (StopIteration, KeyError, IndexError):
            break
        with contextlib.suppress(UmpireError):
            await games.handle(game_id, f"on-{i}", command)
    log = await _log(store, name, game_id)
    marker = log.decoded[first]
    created = log.decoded[0]
    assert isinstance(marker, GameAmended) and isinstance(created, GameCreated)
    reading = registry.get(name).reading(marker.reading)
    assert reading is not None
    original = value_text(setup_value(reading, created.setup))
    for seq in range(first + 2, len(log.decoded) + 1):
        try:
            filed = await games.dispute(game_id, role=Role.PLAYER, seq=seq, claim="as first read",
                                        reading=reading.name, value=original)  # fmt: skip
        except NotDisputable:
            continue
        if filed.finding is None:
            continue  # pending reveal: another seq
        # Every ruleset's game is still running here, Downtown's (amended under a reading
        # whose decision is public) too: the driver sends no EndGame, and SECOND_AFTER
        # commands stay short of a natural end. A refusal fails the test.
        second = await games.rule(game_id, role=Role.PLAYER, dispute=filed.id, ruling="amend")
        return game_id, first, second
    raise AssertionError(f"{name}: no decision of the amended line to amend again")


@pytest.mark.parametrize("name", RULESETS)
async def test_a_game_amended_twice_plays_on_to_its_end_and_audits(
    games: Games, store: RedisEventStore, name: str
) -> None:
    """A second dispute of a decision of the current line is found and amended (the setup
    then carries both amendments' readings, the second last); the fold is the second
    amended line; `replay --line N` has three lines; a seq the second amendment superseded
    is refused; the game plays on to its end and the audit re-makes both lines."""
    game_id, first, second = await _amended_twice(games, store, name)
    ruleset = registry.get(name)
    envelopes = await store.read(game_id)
    decoded = codec_decoded(ruleset, envelopes)
    one, two = decoded[first], decoded[second]
    assert isinstance(one, GameAmended) and isinstance(two, GameAmended)
    assert two.parts_from > first + 1 and two.superseded_to == second - 1
    assert {e.command_id for e in envelopes[second - 1 :]} == {f"umpire:ruling:{two.dispute}"}
    # The second line is re-made from the current line before the second ruling, under
    # the first amendment's reading switched on by the second.
    created = decoded[0]
    assert isinstance(created, GameCreated)
    under = amended_setup(ruleset, amended_setup(ruleset, created, one.reading, one.value),
                          two.reading, two.value)  # fmt: skip
    line = remake(ruleset, *_current(ruleset, envelopes[: second - 1]), two.parts_from, under,
                  commands_only=True)  # fmt: skip
    assert [canonical_json(e) for e in decoded[second + 1 :]] == [
        canonical_json(e) for e in line.events
    ]
    _, game = await games.load(game_id)
    assert game.state == line.game.state
    whole = fold(envelopes)
    assert whole is not None and state_hash(whole) == state_hash(game)
    # A forged second amended line (its marker, or its last re-made event dropped) fails.
    assert check_batches(envelopes, decoded, ruleset).failure is None
    forged = msgspec.structs.replace(two, reapplied=two.reapplied + 1)
    walk = check_batches(envelopes, [*decoded[:second], forged, *decoded[second + 1 :]],
                         ruleset)  # fmt: skip
    assert walk.failure is not None and walk.failure.check == "amendment"
    assert walk.failure.seq == second + 1
    if len(decoded) > second + 1:
        walk = check_batches(envelopes[:-1], decoded[:-1], ruleset)
        assert walk.failure is not None and walk.failure.check == "amendment"
    # Three lines: as first played, as the first amendment left it, the game now.
    lines = [line_of(envelopes, n) for n in range(3)]
    assert [len(x) for x in lines] == [first - 1, second - 1, len(envelopes)]
    for n, part in enumerate(lines):
        assert fold(part) is not None, n
    head = await store.version(game_id)
    with pytest.raises(SeqSuperseded, match=f"amendment at seq {second + 1}"):
        await games.dispute(game_id, role=Role.PLAYER, seq=two.superseded_to, claim="x")
    assert await store.version(game_id) == head
    await _play_on(games, name, game_id, seed=8)
    _, game = await games.load(game_id)
    assert game.meta.ended
    report = audit(await store.read(game_id))
    assert report.ok, report.failure


def _current(ruleset: Any, envelopes: Any) -> tuple[Any, Any]:
    """The current line of a log: its envelopes and events, superseded ones left out."""
    _, kept, events = on_line(ruleset, envelopes, codec_decoded(ruleset, envelopes))
    return kept, events


async def test_an_open_dispute_an_amendment_superseded_is_upheld_not_amended(
    games: Games,
) -> None:
    """Dispute A stays open while dispute B of an earlier decision is amended, which
    supersedes A's seq: `amend` on A is refused, saying what is possible, and writes
    nothing; `uphold` closes it; a dispute of its seq is refused (`seq_superseded`); the
    log audits."""
    game_id = (await games.create("counter", {"target": 100})).game_id
    await games.handle(game_id, "p1", {"type": "Push"})  # seqs 2-4
    await games.handle(game_id, "p2", {"type": "Push"})  # seqs 5-7
    first = await games.dispute(game_id, role=Role.PLAYER, seq=6, claim="the second roll")
    second = await games.dispute(game_id, role=Role.PLAYER, seq=3, claim="the first roll")
    assert first.finding is not None and second.finding is not None
    ruled = await games.rule(game_id, role=Role.PLAYER, dispute=second.id, ruling="amend")
    head = await games.store.version(game_id)
    with pytest.raises(RulingRefused, match="uphold is possible") as refused:
        await games.rule(game_id, role=Role.PLAYER, dispute=first.id, ruling="amend")
    assert refused.value.details["amended"] == ruled + 1
    assert await games.store.version(game_id) == head
    with pytest.raises(SeqSuperseded):
        await games.dispute(game_id, role=Role.PLAYER, seq=6, claim="again")
    await games.rule(game_id, role=Role.PLAYER, dispute=first.id, ruling="uphold")
    report = audit(await games.store.read(game_id))
    assert report.ok, report.failure


async def test_a_forged_amended_line_fails_the_audit(games: Games, store: RedisEventStore) -> None:
    name = "conflict_of_heroes"
    game_id, ruled = await _amended(games, store, name)
    ruleset = registry.get(name)
    envelopes = await store.read(game_id)
    decoded = codec_decoded(ruleset, envelopes)
    assert check_batches(envelopes, decoded, ruleset).failure is None
    marker = decoded[ruled]
    assert isinstance(marker, GameAmended)
    forgeries = [
        (ruled, msgspec.structs.replace(marker, parts_from=marker.parts_from + 1)),
        (ruled, msgspec.structs.replace(marker, reapplied=marker.reapplied + 1)),
    ]
    rolls = [j for j in range(ruled + 1, len(decoded)) if isinstance(decoded[j], DiceRolled)]
    if rolls:
        roll = decoded[rolls[0]]
        assert isinstance(roll, DiceRolled)
        faces = tuple(1 if f != 1 else 2 for f in roll.faces)
        forgeries.append((rolls[0], msgspec.structs.replace(roll, faces=faces)))
    for index, forged in forgeries:
        walk = check_batches(envelopes, [*decoded[:index], forged, *decoded[index + 1 :]],
                             ruleset)  # fmt: skip
        assert walk.failure is not None, forged
        assert walk.failure.check == "amendment" and walk.failure.seq == index + 1
    # A line cut short (its last re-made event dropped) fails too.
    walk = check_batches(envelopes[:-1], decoded[:-1], ruleset)
    assert walk.failure is not None and walk.failure.check == "amendment"


async def test_an_amendment_across_a_seed_batch_is_refused_and_fails_the_audit_forged(
    games: Games,
) -> None:
    """An ended game's final reveal (a seed batch) stands after the disputed decision: the
    rolls after it rest on it and the game may not go on, so `amend` is refused, writing
    nothing; an amending batch forged into the log fails the audit."""
    game_id, _, decision = await _counter_like(games)
    filed = await games.dispute(game_id, role=Role.PLAYER, seq=decision, claim="wrong")
    await games.handle(game_id, "end", {"type": "EndGame", "result": "over"})
    before = await games.store.version(game_id)
    with pytest.raises(RulingRefused, match="SeedRevealed") as refused:
        await games.rule(game_id, role=Role.PLAYER, dispute=filed.id, ruling="amend")
    assert "uphold is" in refused.value.message
    assert await games.store.version(game_id) == before
    # Forged: the ruling (and its GameAmended) written anyway.
    envelopes = await games.store.read(game_id)
    ruleset = registry.get("conflict_of_heroes")
    decoded = codec_decoded(ruleset, envelopes)
    ruling = await games.rule(game_id, role=Role.PLAYER, dispute=filed.id, ruling="uphold")
    envelopes = await games.store.read(game_id)
    forged = [*codec_decoded(ruleset, envelopes)]
    forged[ruling - 1] = DisputeRuled(dispute=filed.id, ruling="amend", by="player")
    walk = check_batches(envelopes, forged, ruleset)
    assert walk.failure is not None and walk.failure.seq == ruling
    assert walk.failure.check == "dispute" and "SeedRevealed" in walk.failure.message
    assert len(decoded) == ruling - 1


async def test_a_revoked_credential_files_no_dispute_and_makes_no_ruling(games: Games) -> None:
    """The append of a dispute and of a ruling checks the disputer's credential, as a
    command's does: one revoked while the request was on its way (past the gateway's own
    check) is refused there and writes nothing."""
    game_id, _, decision = await _counter_like(games)
    spectator = await credentials.issue(games.store, game_id, Role.SPECTATOR)
    player = await credentials.issue(games.store, game_id, Role.PLAYER)

    def held(credential: str, role: Role) -> Credential:
        return Credential(credentials.fingerprint(credential)[1], role.value)

    found = await games.dispute(game_id, role=Role.PLAYER, seq=decision, claim="wrong",
                                credential=held(player, Role.PLAYER))  # fmt: skip
    assert found.finding is not None
    await credentials.revoke(games.store, spectator)
    await credentials.revoke(games.store, player)
    before = await games.store.version(game_id)
    with pytest.raises(Unauthorized):
        await games.dispute(game_id, role=Role.SPECTATOR, seq=decision, claim="again",
                            credential=held(spectator, Role.SPECTATOR))  # fmt: skip
    with pytest.raises(Unauthorized):
        await games.rule(game_id, role=Role.PLAYER, dispute=found.id, ruling="uphold",
                         credential=held(player, Role.PLAYER))  # fmt: skip
    assert await games.store.version(game_id) == before
    # Without a credential (the operator's, or the command line's on its own store) both
    # are still taken.
    await games.rule(game_id, role=Role.PLAYER, dispute=found.id, ruling="uphold")
    assert await games.store.version(game_id) == before + 1
