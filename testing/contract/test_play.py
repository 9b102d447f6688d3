"""Contract: every installed ruleset (engine.registry: the built-ins, the example package and
any other), with no list to edit, played through a real gateway.

- Random play to the end: legal actions only, fields drawn from their schemas
  (testing/support/legal_play.py); the game ends by its rules or, for a ruleset with no end of its
  own, by the listed EndGame after a bounded number of commands. The log audits.
- Rule traceability: every citation in the log's events and in the listed actions names a
  rule of the ruleset's rules document (testing/support/citations.py).
- Fold determinism: the same log folds to the same state hash twice, and from a snapshot;
  each step leaves the state before it as it was (evolve changes nothing in place).
- Bad input changes nothing: malformed commands, unlisted ones, ones the rules refuse and
  any command after the end are refused with a typed error and write no event.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from umpire.clients import UmpireClient
from umpire.clients import UmpireError as ErrorFrame
from umpire.engine import registry
from umpire.engine.actions import legal_actions
from umpire.engine.audit import audit
from umpire.engine.game import codec_for, decode_game, encode_game, fold, state_hash
from umpire.engine.handling import command_types
from umpire.engine.roles import Role
from umpire.engine.schemas import struct_schema
from umpire.events.redis_store import RedisEventStore
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.citations import cited_by_file, unresolved
from umpire.testing.support.dice import seed_source
from umpire.testing.support.drivers import rulesets, start_setup
from umpire.testing.support.legal_play import gateway_client, play
from umpire.testing.support.schema_sampler import sample

RULESETS = rulesets()
LIMIT = 600  # commands sent at most (refused ones included)


def test_every_installed_ruleset_is_covered() -> None:
    """The suite runs over what is installed, every package's rulesets alike."""
    assert set(registry.shipped()) <= set(RULESETS) == set(registry.installed())


@pytest.mark.parametrize("name", RULESETS)
async def test_random_play_to_the_end(
    request: pytest.FixtureRequest,
    redis_server: EmbeddedRedis,
    store: RedisEventStore,
    prefix: str,
    name: str,
) -> None:
    ruleset = registry.get(name)
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        played = await play(
            client,
            name,
            start_setup(name),
            random.Random(1),
            limit=LIMIT,
            end_after=ruleset.testing.end_after,
        )
    assert played.ended, (played.commands, played.refusals)
    # No minimum length: a game may end by its rules after a few commands; but the
    # ruleset's own commands were played, not only rolls and the final EndGame.
    own = {t for t, sent in played.types.items() if sent > played.refusals.get(t, (0, ""))[0]}
    assert own - {"RollDice", "EndGame", "TakeBack"}, (played.types, played.refusals)
    envelopes = await store.read(played.game_id, 1)
    report = audit(envelopes)
    assert report.failure is None, report.failure

    # Rule traceability: every citation the game produced, and every listed action's rule.
    codec = codec_for(ruleset)
    citations: set[str] = set()
    game = None
    for env in envelopes:
        event = codec.decode(env.type, env.version, env.payload, seq=env.seq)
        if isinstance(event, ruleset.event_types) and getattr(event, "rule", ""):
            citations.add(event.rule)
        # One way to cite (issue 41 item 7): an event's words for people cite a rule by
        # its number; the seed's file is in its `rule` alone, which readers show by title.
        assert not cited_by_file(event), (env.seq, event)
        old = None if game is None else game.state
        old_bytes = None if old is None else msgspec.msgpack.encode(old)
        game = fold([env], game, ruleset)
        assert game is not None
        # evolve makes a new state for a change and leaves the old one as it was: the
        # takeback stack and the receipts' kept views hold old states (docs/rulesets.md).
        assert old is None or msgspec.msgpack.encode(old) == old_bytes, env.seq
        if not game.meta.ended:
            for action in legal_actions(ruleset, game.state, Role.PLAYER, ended=False):
                if action.type not in ("RollDice", "EndGame"):
                    citations.add(action.rule)
    assert citations, "the game cited no rule"

    # Fold determinism: twice from the start, and from a snapshot taken half-way.
    once, twice = fold(envelopes), fold(envelopes)
    assert once is not None and twice is not None
    assert state_hash(once) == state_hash(twice)
    half = len(envelopes) // 2
    early = fold(envelopes[:half])
    assert early is not None
    resumed = fold(envelopes[half:], decode_game(ruleset, encode_game(early)), ruleset)
    assert resumed is not None and state_hash(resumed) == state_hash(once)

    # Last, as it reads the rules document (a provenance check: it skips on a clone
    # without the documents, after everything above has run).
    wrong = sorted(filter(None, (unresolved(name, c) for c in sorted(citations))))
    assert wrong == [], "\n".join(wrong)


async def _refused(client: UmpireClient, game_id: str, command: Any, codes: set[str]) -> str:
    """Send a command that must be refused: its error code, and nothing was written."""
    before = await client.view(game_id)
    with pytest.raises(ErrorFrame) as info:
        await client.send(game_id, command)
    assert info.value.code in codes, (command, info.value.code, info.value.message)
    assert info.value.message, "an error says what was wrong"
    after = await client.view(game_id)
    assert (after.seq, after.state) == (before.seq, before.state), command
    return info.value.code


@pytest.mark.parametrize("name", RULESETS)
async def test_bad_input_changes_nothing(
    request: pytest.FixtureRequest, redis_server: EmbeddedRedis, prefix: str, name: str
) -> None:
    ruleset = registry.get(name)
    rng = random.Random(3)
    async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
        created = await client.create(name, start_setup(name), client_seed="bad-input")
        gid = created.game_id
        listed = (await client.view(gid)).actions
        own = [a for a in listed if a.type not in ("RollDice", "EndGame")]
        assert own, "a new game lists at least one command of the ruleset"

        # Malformed: no type, an unknown type, a listed type with every field of a wrong shape.
        await _refused(client, gid, {"amount": 1}, {"invalid_command"})
        await _refused(client, gid, {"type": "NoSuchCommand"}, {"invalid_command"})
        for action in own:
            fields = action.schema.get("properties", {})
            broken = {key: {"not": ["a", "valid", "value"]} for key in fields if key != "type"}
            if broken:
                await _refused(client, gid, {"type": action.type, **broken}, {"invalid_command"})
                break

        # Illegal: a well-formed command of a type not listed now, if there is one.
        types = command_types(ruleset)
        unlisted = sorted(set(types) - {a.type for a in listed})
        if unlisted:
            command = sample(struct_schema(types[unlisted[0]]), rng)
            await _refused(client, gid, command, {"command_not_allowed"})

        # Illegal by the rules: commands drawn from the unnarrowed schemas of listed types;
        # whatever the rules refuse writes nothing (what they accept moves the game on).
        for n in range(60):
            view = await client.view(gid)
            if view.ended:
                break
            choices = [a for a in view.actions if a.type not in ("RollDice", "EndGame")]
            if not choices:
                break
            command = sample(struct_schema(types[rng.choice(choices).type]), rng)
            try:
                await client.send(gid, command, command_id=f"r{n}")
            except ErrorFrame as frame:
                refusals = ("rule_violation", "nothing_to_do", "command_not_allowed")
                assert frame.code in (*refusals, "opponent_dice"), frame.message
                after = await client.view(gid)
                assert (after.seq, after.state) == (view.seq, view.state), command

        # After the end: nothing is accepted, and nothing is written.
        if not (await client.view(gid)).ended:
            await client.send(gid, {"type": "EndGame", "result": "contract over"})
        await _refused(client, gid, sample(own[0].schema, rng), {"game_over"})
