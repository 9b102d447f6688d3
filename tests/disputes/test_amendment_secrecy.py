"""An amendment rests on nothing hidden either (docs/audit.md "Amendments"; red team 10).

A blind finding is given where the line under the reading, re-made on the game with its
secrets poisoned, reads none. But the player rules later: every command played since the
dispute is re-applied in the amended line too. The attack, through a real gateway on the
real store: a Downtown double disputed under `doubles_reading` (found at once: it rests on
public values), then the player plays on until a command of the line reads a DRV secret
(the SAM check reads the hidden battalions, the Fire Can check the inactive cans), then
rules `amend`. On main the ruling was appended: the amended line re-made those checks on
the real secrets under the reading, and their public counts, `stopped` and `reapplied`
were a second draw on the secrets (re-made on the game with other secrets, the same line
said "2 SAM battalions switch on" in one and "0" in the other). Now the ruling is refused
(`ruling_refused`), nothing written, by a rule that reads nothing hidden."""

from __future__ import annotations

import random
from typing import Any

import pytest

from umpire.clients import UmpireError as ErrorFrame
from umpire.engine import registry
from umpire.engine.disputes import _batch_start, codec_decoded, on_line, remake, setup_under
from umpire.engine.kit.reading import probe_of
from umpire.engine.poison import SecretRead
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.readings import DOUBLES_ATTACKS
from umpire.events.redis_store import RedisEventStore
from umpire.events.wire import DisputeFiledReply
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.dice import seed_source
from umpire.testing.support.drivers import start_setup
from umpire.testing.support.legal_play import gateway_client
from umpire.testing.support.schema_sampler import sample

NAME, READING, CLAIMED = "downtown", "doubles_reading", "a_and_b"
SKIPPED = ("RollDice", "EndGame", "TakeBack")


def _reads_a_secret(envelopes: list[Any], disputed: int) -> bool:
    """Whether the line an amendment of the dispute on `disputed` would re-make reads a
    secret of the game (the engine's own blinded re-making, as main has it)."""
    ruleset = registry.get(NAME)
    decoded = codec_decoded(ruleset, envelopes)
    start = _batch_start(decoded, disputed)
    created, envelopes, decoded = on_line(ruleset, envelopes, decoded)
    claimed = setup_under(created, ruleset.reading(READING), CLAIMED)
    try:
        remake(ruleset, envelopes, decoded, start, claimed, commands_only=True, blind=True)
    except SecretRead:
        return True
    return False


async def test_an_amendment_over_a_command_that_reads_a_secret_is_refused(
    request: pytest.FixtureRequest, redis_server: EmbeddedRedis, prefix: str
) -> None:
    reading = registry.get(NAME).reading(READING)
    assert reading is not None
    setup, script = probe_of(reading, {**start_setup(NAME), "turn_limit": 2})
    opening, attack = script[:-DOUBLES_ATTACKS], script[-1]
    store = RedisEventStore.from_url(redis_server.url, prefix=prefix)
    try:
        async with gateway_client(redis_server.url, prefix, seed_source(request)) as client:
            gid = (await client.create(NAME, setup, client_entropy="waived")).game_id
            for n, command in enumerate(opening):
                await client.send(gid, command, command_id=f"open-{n}")
            disputed = 0
            for n in range(200):  # one roll in ten is a double (4.1.2)
                await client.send(gid, attack, command_id=f"attack-{n}")
                decoded = codec_decoded(registry.get(NAME), await store.read(gid))
                doubles = [seq for seq, e in enumerate(decoded, start=1)
                           if isinstance(e, ev.DrvAttackRolled) and e.doubles]  # fmt: skip
                if doubles:
                    disputed = doubles[0]
                    break
            assert disputed, "no double rolled"
            filed = await client.request({"type": "dispute", "game_id": gid, "seq": disputed,
                                          "claim": "(b) alone", "reading": READING,
                                          "value": CLAIMED})  # fmt: skip
            assert isinstance(filed, DisputeFiledReply) and filed.finding is not None
            rng = random.Random(5)
            for n in range(400):
                envelopes = await store.read(gid)
                if _reads_a_secret(envelopes, disputed):
                    break
                view = await client.view(gid)
                assert not view.ended, "the raid ended before a command read a secret"
                own = [a for a in view.actions if a.type not in SKIPPED]
                try:
                    await client.send(gid, sample(rng.choice(own).schema, rng),
                                      command_id=f"on-{n}")  # fmt: skip
                except ErrorFrame:
                    continue
            else:
                raise AssertionError("no command read a secret")
            head = len(envelopes)
            with pytest.raises(ErrorFrame) as refused:
                await client.request({"type": "rule", "game_id": gid, "dispute": filed.dispute,
                                      "ruling": "amend"})  # fmt: skip
            assert refused.value.code == "ruling_refused", refused.value
            assert "may not be amended before the game's final reveal" in refused.value.message
            assert len(await store.read(gid)) == head  # nothing written
            # Uphold still closes it.
            await client.request({"type": "rule", "game_id": gid, "dispute": filed.dispute,
                                  "ruling": "uphold"})  # fmt: skip
            assert len(await store.read(gid)) == head + 1
    finally:
        await store.close()
