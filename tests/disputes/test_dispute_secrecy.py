"""A dispute of a decision that rests on a hidden value leaks nothing before the reveal
(issue 40 item 3 and its acceptance): twin Downtown games on the real store, the same
commands and seed, their hidden rolls coming out otherwise in the second, are disputed at
the same seq under the same reading. For the player and a spectator the dispute's frames,
the replies and the game's disputes are byte-identical in both (the finding is held
pending reveal in both, never made from a hidden value); after the final reveal both
games find it."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

import umpire.server.games as games_module
from tests.support.gyro_duel import gyro_duel
from umpire.engine import registry
from umpire.engine.dice import ServerDice
from umpire.engine.disputes import codec_decoded
from umpire.engine.kit.reading import value_text
from umpire.engine.redaction import is_secret
from umpire.engine.roles import Role
from umpire.events.envelope import Envelope
from umpire.events.errors import UmpireError
from umpire.events.redis_store import RedisEventStore
from umpire.events.types import CommandRecorded
from umpire.server.event_frames import encode_frame
from umpire.server.games import Games
from umpire.testing.support.dice import AlteredDice
from umpire.testing.support.drivers import driven_setup, driver

NAME = "downtown"
COMMANDS = 120
NORMALISED = ("hash", "prev_hash", "digest", "recorded_at")


async def _twin(store: RedisEventStore, dice: type[ServerDice],
                monkeypatch: pytest.MonkeyPatch) -> tuple[Games, str]:  # fmt: skip
    monkeypatch.setattr(games_module, "ServerDice", dice)
    games = Games(store, draw_seed=lambda: bytes(range(32)), draw_key=lambda: bytes(32))
    gid = (await games.create(NAME, driven_setup(NAME), game_id="twin")).game_id
    _, propose = driver(NAME)
    rng = random.Random(5)
    for i in range(COMMANDS):
        _, game = await games.load(gid)
        try:
            await games.handle(gid, f"c{i}", rng.choice(propose(game.state, rng)))
        except UmpireError:
            continue
    return games, gid


def _hidden_batch_seq(envelopes: list[Envelope]) -> int:
    """The first event after a CommandRecorded whose batch holds a secret event."""
    ruleset = registry.get(NAME)
    decoded = codec_decoded(ruleset, envelopes)
    for i, event in enumerate(decoded):
        if is_secret(ruleset, event):
            start = max(j for j in range(i + 1) if isinstance(decoded[j], CommandRecorded))
            return start + 2
    raise AssertionError("the driven game made no secret")


def _frames(envelopes: list[Envelope], first: int) -> list[Any]:
    ruleset = registry.get(NAME)
    decoded = codec_decoded(ruleset, envelopes)
    frames = []
    for env, event in zip(envelopes[first - 1 :], decoded[first - 1 :], strict=True):
        for role in (Role.PLAYER, Role.SPECTATOR):
            raw = encode_frame(ruleset, env, event, role, False)
            frame = msgspec.json.decode(raw) if raw is not None else None
            for key in NORMALISED:
                frame.pop(key, None)
            frames.append(frame)
    return frames


async def test_a_hidden_decisions_dispute_shows_the_same_in_twin_games(
    redis_server: Any, prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    reading = registry.get(NAME).readings[0]
    answers, frames, listed = [], [], []
    stores = [RedisEventStore.from_url(redis_server.url, prefix=f"{prefix}t{n}") for n in (0, 1)]
    try:
        twins = [await _twin(stores[0], ServerDice, monkeypatch),
                 await _twin(stores[1], AlteredDice, monkeypatch)]  # fmt: skip
        logs = [await s.read("twin") for s in stores]
        seq = _hidden_batch_seq(logs[0])
        assert seq == _hidden_batch_seq(logs[1])
        assert len(logs[0]) == len(logs[1])
        for games, gid in twins:
            filed = await games.dispute(
                gid, role=Role.PLAYER, seq=seq, claim="the hidden roll was read wrong",
                reading=reading.name, value=value_text(reading.alternatives[0]),
            )  # fmt: skip
            answers.append(msgspec.to_builtins(filed))
            frames.append(_frames(await games.store.read(gid), len(logs[0]) + 1))
            listed.append(msgspec.to_builtins((await games.disputes(gid))[1]))
        assert answers[0] == answers[1] and answers[0]["finding"] is None  # pending reveal
        assert frames[0] == frames[1]
        assert listed[0] == listed[1]
        # The final reveal finds both (the lines may part differently: the dice differ).
        for games, gid in twins:
            await games.handle(gid, "end", {"type": "EndGame", "result": "twins"})
            (dispute,) = (await games.disputes(gid))[1]
            assert dispute.finding is not None
    finally:
        for store in stores:
            await store.close()


async def test_the_operators_dispute_of_a_hidden_decision_is_pending_too(
    redis_server: Any, prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The finding is an event every role receives: the operator, who sees everything,
    gets no finding before the reveal either."""
    store = RedisEventStore.from_url(redis_server.url, prefix=f"{prefix}op")
    try:
        games, gid = await _twin(store, ServerDice, monkeypatch)
        seq = _hidden_batch_seq(await store.read(gid))
        filed = await games.dispute(gid, role=Role.REFEREE, seq=seq, claim="operator")
        assert filed.finding is None
    finally:
        await store.close()


async def test_a_spectators_dispute_under_a_reading_tells_nothing_of_a_hidden_pilot(
    redis_server: Any, prefix: str
) -> None:
    """Red team, 2026-11-29: a spectator disputed the player's three-burst attack under
    Down in Flames' gyro reading 10.9, and the finding, an event every role receives, told
    whether the player's pilot is a crack shot (the re-made line revealed the pilot, or
    stopped at a refusal naming "2 a turn"). Twin games that differ only in that secret:
    everything the spectator sees after the dispute is the same, the finding waits for the
    final reveal in both, and the reveal finds both."""
    ruleset = registry.get("down_in_flames")
    commands = [
        {"type": "BeginTurn", "side": "A"},
        {"type": "SetPosition", "attacker": "a1", "target": "b1", "position": "advantaged"},
        {"type": "Attack", "attacker": "a1", "target": "b1", "card": "in_my_sights",
         "hits": 1, "bursts": 3},
    ]  # fmt: skip
    seen = []
    stores = [RedisEventStore.from_url(redis_server.url, prefix=f"{prefix}g{n}") for n in (0, 1)]
    try:
        for store, crack_shot in zip(stores, (False, True), strict=True):
            games = Games(store, draw_seed=lambda: bytes(range(32)), draw_key=lambda: bytes(32))
            gid = (
                await games.create("down_in_flames", gyro_duel({"a1": crack_shot}), game_id="twin")
            ).game_id
            for n, command in enumerate(commands):
                await games.handle(gid, f"c{n}", command)
            before = await store.read(gid)
            decoded = codec_decoded(ruleset, before)
            attack = next(seq for seq, e in enumerate(decoded, start=1)
                          if type(e).__name__ == "AttackResolved")  # fmt: skip
            filed = await games.dispute(gid, role=Role.SPECTATOR, seq=attack,
                                        claim="a gyro sight's bursts are its pilot's (10.9)",
                                        reading="gyro_reading", value="10.9")  # fmt: skip
            after = await store.read(gid)
            seen.append((
                _spectator_frames(ruleset, before, 1),
                msgspec.to_builtins(filed),
                _spectator_frames(ruleset, after, len(before) + 1),
                msgspec.to_builtins((await games.disputes(gid))[1]),
            ))  # fmt: skip
            assert filed.finding is None  # pending reveal
            await games.handle(gid, "end", {"type": "EndGame", "result": "twins"})
            (dispute,) = (await games.disputes(gid))[1]
            assert dispute.finding is not None and not dispute.finding.same
        assert seen[0][0] == seen[1][0]  # the twins looked the same before the dispute
        assert seen[0][1:] == seen[1][1:]
    finally:
        for store in stores:
            await store.close()


def _spectator_frames(ruleset: Any, envelopes: list[Envelope], first: int) -> list[Any]:
    decoded = codec_decoded(ruleset, envelopes)
    frames = []
    for env, event in zip(envelopes[first - 1 :], decoded[first - 1 :], strict=True):
        raw = encode_frame(ruleset, env, event, Role.SPECTATOR, False)
        frame = msgspec.json.decode(raw) if raw is not None else None
        if frame is not None:
            for key in NORMALISED:
                frame.pop(key, None)
            for key in ("receipt_key_id", "receipt_key"):  # each store makes its own
                frame["payload"].pop(key, None)
        frames.append(frame)
    return frames
