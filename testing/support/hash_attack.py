"""The attack on the hash chain's secrecy (issue #16, "What was found" 1), as a tool.

A player or spectator holds frames; the referee's log says which events are secret and
what they really hold. For every secret event the attacker re-encodes candidate payloads
with the ruleset's codec (every face combination of a hidden roll, and for any other
secret event the true payload itself, the best guess there is) and compares every hash
or digest it can compute from a candidate with every 64-hex-digit string in the frames.
A match recovers the hidden value.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import msgspec
from msgspec import Struct

from umpire.engine.dice import DiceKind, DiceSpec, face_range, total_of
from umpire.engine.game import codec_for
from umpire.engine.redaction import is_secret
from umpire.engine.ruleset import Ruleset
from umpire.events.codec import EventRegistry
from umpire.events.envelope import ENVELOPE_VERSION, LEGACY_ENVELOPE, Envelope, expected_hash
from umpire.events.types import DiceRolled

HEX64 = re.compile(r"[0-9a-f]{64}")
MAX_CANDIDATES = 5000  # per event: a d100 is 100, a coloured 2d6 is 36


@dataclass(frozen=True)
class Recovered:
    """A hidden value found: the event's seq and the candidate payload that matched."""

    seq: int
    type: str
    candidate: str


def hex_strings(raw_frames: Iterable[str]) -> set[str]:
    """Every 64-hex-digit string in the frames (hashes, digests, commitments, ...)."""
    found: set[str] = set()
    for raw in raw_frames:
        found.update(HEX64.findall(raw))
    return found


def _candidates(event: Struct) -> Iterator[Struct]:
    yield event  # the true payload: if it matches nothing, no guess can
    if isinstance(event, DiceRolled) and event.hidden:
        spec = DiceSpec(DiceKind(event.kind), tuple(event.sides), tuple(event.labels))
        ranges = [
            range(lo, hi + 1) for lo, hi in (face_range(spec, i) for i in range(len(spec.sides)))
        ]
        for faces in itertools.islice(itertools.product(*ranges), MAX_CANDIDATES):
            yield msgspec.structs.replace(event, faces=faces, total=total_of(spec, faces))


def _digests(env: Envelope, payload: bytes) -> set[str]:
    """Every hash an attacker can compute from a candidate payload for this envelope."""
    plain = hashlib.sha256(payload).hexdigest()
    out = {
        plain,
        expected_hash(
            msgspec.structs.replace(env, payload=payload, envelope_version=LEGACY_ENVELOPE)
        ),
    }
    for committed in (False, True):
        out.add(
            expected_hash(
                msgspec.structs.replace(
                    env, payload=payload, envelope_version=ENVELOPE_VERSION, digest=plain,
                    committed=committed,
                )
            )
        )  # fmt: skip
    return out


def secret_events(
    ruleset: Ruleset[object], envelopes: list[Envelope]
) -> list[tuple[Envelope, Struct]]:
    """The events of a log that some role may not see in full before the reveal."""
    codec = codec_for(ruleset)
    out = []
    for env in envelopes:
        event = codec.decode(env.type, env.version, env.payload, seq=env.seq)
        if is_secret(ruleset, event):
            out.append((env, event))
    return out


def attack(
    codec: EventRegistry, secrets: list[tuple[Envelope, Struct]], seen: set[str]
) -> list[Recovered]:
    """Every secret event whose content a candidate's hash finds among `seen`."""
    recovered = []
    for env, event in secrets:
        for candidate in _candidates(event):
            _, _, payload = codec.encode(candidate)
            if _digests(env, payload) & seen:
                recovered.append(
                    Recovered(env.seq, env.type, msgspec.json.encode(candidate).decode()[:200])
                )
                break
    return recovered
