"""An independent verifier of umpire exports, written from docs/audit.md alone.

It imports nothing of umpire: the Python standard library and a MessagePack library
(`msgpack`). Run it as

    python verifier/verify_export.py game.jsonl

It prints `OK` with what it checked and exits 0, or prints the first failure, naming its
seq, and exits 1 (2 for a file it cannot read at all).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import struct
import sys
from dataclasses import dataclass, field
from typing import Any

import msgpack

FORMAT = "umpire-export/1"
GENESIS = "0" * 64
WORD = 2**32


class Failure(Exception):
    """The first thing that does not verify, at `seq` (0: the file as a whole)."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"seq {seq}: {reason}")
        self.seq = seq
        self.reason = reason


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- section 2: the hash chain --------------------------------------------------------------


def envelope_hash(record: dict[str, Any], payload: bytes) -> str:
    """docs/audit.md section 2: version 2 hashes the digest, version 1 the payload."""
    version = record.get("envelope_version", 1)
    if version == 2:
        body = [2, record["game_id"], record["seq"], record["type"], record["version"],
                record["digest"], record["committed"], record["command_id"],
                record["recorded_at"], record["prev_hash"]]  # fmt: skip
    elif version == 1:
        body = [record["game_id"], record["seq"], record["type"], record["version"], payload,
                record["command_id"], record["recorded_at"], record["prev_hash"]]  # fmt: skip
    else:
        raise Failure(record["seq"], f"unknown envelope version {version!r}")
    return sha256_hex(msgpack.packb(body, use_bin_type=True))


# -- section 3: commitments -----------------------------------------------------------------


def commitment(seed: bytes, game_id: str, seq: int, payload: bytes) -> str:
    """docs/audit.md section 3: the keyed commitment of a secret payload."""
    key = hmac.new(seed, f"umpire-commitment:{game_id}:{seq}".encode(), hashlib.sha256).digest()
    return hmac.new(key, payload, hashlib.sha256).hexdigest()


# -- section 4: epochs ----------------------------------------------------------------------


@dataclass
class Epochs:
    """Which epoch each seq belongs to, and each epoch's revealed seed (section 4)."""

    reveal_seqs: list[int] = field(default_factory=list)
    seeds: list[bytes] = field(default_factory=list)

    def epoch_of(self, seq: int) -> int:
        return sum(1 for s in self.reveal_seqs if s < seq)

    def seed_of(self, seq: int) -> bytes | None:
        epoch = self.epoch_of(seq)
        return self.seeds[epoch] if epoch < len(self.seeds) else None


# -- section 5: the dice --------------------------------------------------------------------


def _words(seed: bytes, client_seed: str, n: int):  # type: ignore[no-untyped-def]
    block = 0
    while True:
        digest = hmac.new(seed, f"{client_seed}:{n}:{block}".encode(), hashlib.sha256).digest()
        yield from struct.unpack(">8I", digest)
        block += 1


def server_faces(seed: bytes, client_seed: str, n: int, kind: str, sides: list[int]) -> list[int]:
    """Section 5: the faces of server roll n."""
    words = _words(seed, client_seed, n)
    faces = []
    for s in sides:
        limit = WORD - (WORD % s)
        w = next(words)
        while w >= limit:
            w = next(words)
        low = 0 if kind == "d100" else 1
        faces.append(low + w % s)
    return faces


def total_of(kind: str, faces: list[int]) -> int:
    if kind == "d100":
        value = faces[0] * 10 + faces[1]
        return 100 if value == 0 else value
    return sum(faces)


# -- section 7: the checks ------------------------------------------------------------------


@dataclass
class Event:
    record: dict[str, Any]
    payload_bytes: bytes
    payload: Any


def read(path: str) -> tuple[dict[str, Any], list[Event]]:
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f.read().splitlines() if line.strip()]
    if not lines:
        raise Failure(0, "the file is empty")
    header = json.loads(lines[0])
    if header.get("format") != FORMAT:
        raise Failure(0, f"the header's format is {header.get('format')!r}, not {FORMAT!r}")
    events = []
    for number, line in enumerate(lines[1:], start=2):
        record = json.loads(line)
        seq = record.get("seq", 0)
        if "payload_b64" not in record:
            raise Failure(seq, f"line {number} carries no payload_b64: the hash cannot be checked")
        try:
            raw = base64.b64decode(record["payload_b64"], validate=True)
            decoded = msgpack.unpackb(raw, raw=False, strict_map_key=False)
        except Exception as exc:
            raise Failure(seq, f"payload_b64 does not decode: {exc}") from None
        if decoded != record.get("payload"):
            raise Failure(seq, "the readable payload differs from the hashed payload bytes")
        events.append(Event(record, raw, decoded))
    return header, events


def verify(header: dict[str, Any], events: list[Event]) -> list[str]:
    """Every check of docs/audit.md section 7; what was verified, or raise Failure."""
    game_id = header.get("game_id")
    # 2: seqs, game, links and hashes
    prev = GENESIS
    for expected, ev in enumerate(events, start=1):
        r = ev.record
        if r["seq"] != expected:
            raise Failure(expected, f"expected seq {expected}, found {r['seq']}: an event is "
                                    "missing or out of order")  # fmt: skip
        if r["game_id"] != game_id:
            raise Failure(expected, f"the event belongs to game {r['game_id']!r}")
        if r["prev_hash"] != prev:
            raise Failure(expected, "prev_hash does not link to the previous event's hash")
        if envelope_hash(r, ev.payload_bytes) != r["hash"]:
            raise Failure(expected, "the hash does not match the event")
        prev = r["hash"]
    if len(events) != header.get("events"):
        raise Failure(min(len(events), header.get("events") or 0) + 1,
                      f"the header announces {header.get('events')} events, the file holds "
                      f"{len(events)}")  # fmt: skip
    if events and header.get("last_hash") != prev:
        raise Failure(len(events), "the header's last_hash is not the last event's hash")
    # 4: epochs, seeds and their commitments
    epochs = Epochs()
    commitments: list[str] = []  # the commitment each epoch's seed must match
    client_seeds: dict[int, str] = {}
    for ev in events:
        r, p = ev.record, ev.payload
        if r["type"] == "GameCreated":
            if r["seq"] != 1:
                raise Failure(r["seq"], "GameCreated after seq 1")
            commitments.append(p["seed_commitment"])
            client_seeds[0] = p["client_seed"]
        elif r["type"] == "ClientSeedBound":
            client_seeds[int(p["epoch"])] = p["client_seed"]
        elif r["type"] == "SeedRevealed":
            epoch = len(epochs.seeds)
            try:
                seed = bytes.fromhex(p["seed"])
            except ValueError:
                raise Failure(r["seq"], "the revealed seed is not hex") from None
            if epoch >= len(commitments) or sha256_hex(seed) != commitments[epoch]:
                raise Failure(r["seq"], f"the revealed seed of epoch {epoch} does not match "
                                        "its commitment")  # fmt: skip
            epochs.reveal_seqs.append(r["seq"])
            epochs.seeds.append(seed)
            if p.get("next_commitment"):
                commitments.append(p["next_commitment"])
    # 3: digests and commitments
    opened = pending = 0
    for ev in events:
        r = ev.record
        if r.get("envelope_version", 1) != 2:
            continue
        if not r["committed"]:
            if r["digest"] != sha256_hex(ev.payload_bytes):
                raise Failure(r["seq"], "the payload does not match its digest")
            continue
        seed = epochs.seed_of(r["seq"])
        if seed is None:
            pending += 1
            continue
        if r["digest"] != commitment(seed, r["game_id"], r["seq"], ev.payload_bytes):
            raise Failure(r["seq"], "the payload does not open its commitment")
        opened += 1
    # 5: roll numbers and server rolls
    rolls = checked = 0
    for ev in events:
        r, p = ev.record, ev.payload
        if r["type"] != "DiceRolled":
            continue
        if p["roll"] != rolls:
            raise Failure(r["seq"], f"roll number {p['roll']}, expected {rolls}")
        rolls += 1
        if p.get("by", "server") != "server":
            continue
        seed = epochs.seed_of(r["seq"])
        if seed is None:
            continue
        client_seed = client_seeds.get(epochs.epoch_of(r["seq"]))
        if client_seed is None:
            raise Failure(r["seq"], "no client seed for this roll's epoch")
        faces = server_faces(seed, client_seed, p["roll"], p["kind"], p["sides"])
        if faces != p["faces"] or total_of(p["kind"], faces) != p["total"]:
            raise Failure(r["seq"], f"server roll {p['roll']} shows {p['faces']} "
                                    f"(total {p['total']}), the seed gives {faces}")  # fmt: skip
        checked += 1
    return [
        f"{len(events)} events, hash chain intact",
        f"{opened} commitments opened, {pending} still closed (unrevealed epoch)",
        f"{len(epochs.seeds)} revealed seed(s) match their commitments",
        f"{rolls} rolls numbered, {checked} server rolls recomputed",
    ]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python verify_export.py GAME.jsonl", file=sys.stderr)
        return 2
    try:
        header, events = read(argv[1])
        done = verify(header, events)
    except Failure as failure:
        print(f"FAILED at seq {failure.seq}: {failure.reason}")
        return 1
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"FAILED at seq 0: the file is not a readable export ({type(exc).__name__}: {exc})")
        return 2
    print("OK: " + "; ".join(done))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
