"""A log written before Down in Flames' decision events moved onto engine.decision.Decision
(event version 1, the decision fields last) still reads, audits, exports and imports: its
stored bytes are never rewritten, version 1 is read as version 2 field by field
(events/codec.py `old_versions`), and only new events are written as version 2."""

from __future__ import annotations

import json

import msgspec

from tests.support.gateway_games import create_bound
from umpire.engine.audit import audit
from umpire.engine.game import codec_for
from umpire.engine.rulesets.down_in_flames import RULESET
from umpire.engine.rulesets.down_in_flames.events import StartingAltitudeSet
from umpire.engine.rulesets.down_in_flames.events_v1 import StartingAltitudeSetV1
from umpire.events.codec import canonical_bytes
from umpire.events.envelope import Envelope, seal
from umpire.events.export import envelope_to_line, line_to_envelope
from umpire.server.games import Games


def _as_version_1(envelopes: list[Envelope]) -> list[Envelope]:
    """The same game as a build before version 2 stored it: each StartingAltitudeSet's
    payload in the version 1 field order, the hash chain sealed over those bytes."""
    codec = codec_for(RULESET)
    out: list[Envelope] = []
    for env in envelopes:
        payload, version, digest = env.payload, env.version, env.digest
        if env.type == StartingAltitudeSet.__struct_config__.tag:
            now = codec.decode(env.type, env.version, env.payload)
            payload = canonical_bytes(StartingAltitudeSetV1(**msgspec.structs.asdict(now)))
            version, digest = 1, ""
        out.append(
            seal(
                game_id=env.game_id, seq=env.seq, type=env.type, version=version,
                payload=payload, command_id=env.command_id, recorded_at=env.recorded_at,
                prev_hash=out[-1].hash if out else env.prev_hash, digest=digest,
            )
        )  # fmt: skip
    return out


async def test_a_version_1_log_reads_audits_and_round_trips_an_export(games: Games) -> None:
    created = await create_bound(games, "down_in_flames", None, "dif-v1", scenario="bomber-escort")
    await games.handle(created.game_id, "alt", {"type": "RollStartingAltitude"})
    await games.reveal(created.game_id)
    current = await games.store.read(created.game_id)
    written = [e for e in current if e.type == "down_in_flames.StartingAltitudeSet"]
    assert [e.version for e in written] == [2]  # new events are written as version 2
    old = _as_version_1(current)
    stored = next(e for e in old if e.type == "down_in_flames.StartingAltitudeSet")
    assert stored.version == 1 and stored.payload != written[0].payload
    keys = list(msgspec.msgpack.decode(stored.payload))
    assert keys[-4:] == ["rule", "dice", "candidates", "explanation"]  # the old order
    codec = codec_for(RULESET)
    read = codec.decode(stored.type, stored.version, stored.payload)
    assert read == codec.decode(written[0].type, written[0].version, written[0].payload)
    assert isinstance(read, StartingAltitudeSet)
    report = audit(old)  # the chain, the dice and every decision, re-made as version 2
    assert report.ok, report.failure
    assert report.decisions_checked >= 1
    lines = [json.loads(envelope_to_line(env, codec)) for env in old]
    assert [line_to_envelope(line, codec) for line in lines] == old  # import keeps the bytes
