"""Helpers for the audit tests: the CLI in process, and forged logs.

A forger who edits an export and re-seals the hash chain from the edit on gets past the
chain check; the audit must then catch the edit with the dice or the decision checks.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis

from umpire.engine import registry
from umpire.engine.game import codec_for
from umpire.events.codec import canonical_bytes
from umpire.events.envelope import encode_envelope, seal
from umpire.events.epochs import epochs_of
from umpire.events.export import line_to_envelope
from umpire.events.redis_keys import game_keys
from umpire.server.cli import main


@dataclass
class Result:
    """What one command printed and returned."""

    code: int
    out: str
    err: str


@dataclass
class Cli:
    """`umpire ARGS...` in process, under one prefix (switchable for a second store)."""

    monkeypatch: pytest.MonkeyPatch
    capsys: pytest.CaptureFixture[str]
    prefix: str
    redis_url: str
    tmp: Path

    def __call__(self, *argv: str) -> Result:
        self.capsys.readouterr()
        code = main(list(argv))
        out = self.capsys.readouterr()
        # stderr is rich-wrapped at the terminal width: compare its words, not its lines.
        return Result(code, out.out, " ".join(out.err.split()))

    def use_prefix(self, prefix: str) -> None:
        """Point later commands at another store prefix (a second server's keys)."""
        self.prefix = prefix
        self.monkeypatch.setenv("UMPIRE_PREFIX", prefix)

    def new(self, ruleset: str = "counter", setup: dict[str, Any] | None = None) -> str:
        """Create a game (client entropy waived, so the seqs below hold); returns its id."""
        args = ["new", ruleset, "--json", "--setup", json.dumps(setup or {}),
                "--waive-client-entropy"]  # fmt: skip
        result = self(*args)
        assert result.code == 0, result.err
        return str(json.loads(result.out)["game_id"])

    def send(self, game: str, command: dict[str, Any], dice: Any = None) -> None:
        """Send one command, which must be accepted."""
        args = ["send", game, json.dumps(command)]
        if dice is not None:
            args += ["--dice", json.dumps(dice)]
        result = self(*args)
        assert result.code == 0, result.err

    def export(self, game: str, *extra: str) -> Path:
        """Export a game to a file; returns the path."""
        path = self.tmp / f"{game}-{self.prefix}.jsonl"
        result = self("export", game, "-o", str(path), *extra)
        assert result.code == 0, result.err
        return path


def counter_game(cli: Cli, *, reveal: bool = True) -> str:
    """A counter game: push (server roll), hide (hidden roll), add, push; then the reveal.

    Seqs: 1 created; 2-4 push (3 roll, 4 BotPushed); 5-7 hide; 8-9 add; 10-12 push;
    13 SeedRevealed.
    """
    game = cli.new("counter", {"target": 40})
    for command in ({"type": "Push"}, {"type": "Hide"}, {"type": "Add", "amount": 3},
                    {"type": "Push"}):  # fmt: skip
        cli.send(game, command)
    if reveal:
        assert cli("reveal", game).code == 0
    return game


def read_lines(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An export's header and records."""
    lines = path.read_text().splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def match_bytes(header: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """Re-encode every readable payload into `payload_b64`, as a forger who edits the
    readable payload would, so the edit reaches the bytes the chain covers."""
    codec = codec_for(registry.get(header["ruleset"]))
    for record in records:
        if "payload_b64" in record:
            event = codec.from_builtins(record["type"], record["version"], record["payload"])
            record["payload_b64"] = base64.b64encode(canonical_bytes(event)).decode()


def write_lines(path: Path, header: dict[str, Any], records: list[dict[str, Any]]) -> Path:
    """Write an export from a header and records (readable payloads win: match_bytes)."""
    match_bytes(header, records)
    text = "\n".join(json.dumps(r) for r in [header, *records]) + "\n"
    path.write_text(text)
    return path


def reseal(header: dict[str, Any], records: list[dict[str, Any]], start: int) -> None:
    """Recompute the hash chain from record index `start` on, as a forger would (a
    commitment with the revealed seed of its epoch, where the file reveals one)."""
    codec = codec_for(registry.get(header["ruleset"]))
    match_bytes(header, records)
    epochs = epochs_of(line_to_envelope(r, codec) for r in records)
    for index in range(start, len(records)):
        record = records[index]
        if index > 0:
            record["prev_hash"] = records[index - 1]["hash"]
        env = line_to_envelope(record, codec)
        seed = epochs.key_of(env) if env.committed else None
        sealed = seal(
            game_id=env.game_id, seq=env.seq, type=env.type, version=env.version,
            payload=env.payload, command_id=env.command_id, recorded_at=env.recorded_at,
            prev_hash=env.prev_hash, commit_seed=seed,
            digest="" if seed or not env.committed else env.digest,
            envelope_version=env.envelope_version,
        )  # fmt: skip
        record["hash"], record["digest"] = sealed.hash, sealed.digest
    header["last_hash"] = records[-1]["hash"]


def rewrite_stream(
    redis_url: str, prefix: str, game: str, header: dict[str, Any], records: list[dict[str, Any]]
) -> None:
    """Replace a game's stream in the store with these records (a tampered store).

    Each record goes to the entry id of its position, as if the store had been edited.
    """
    codec = codec_for(registry.get(header["ruleset"]))
    client = redis.Redis.from_url(redis_url)
    try:
        key = game_keys(game, prefix).stream
        client.delete(key)
        match_bytes(header, records)
        for record in records:
            env = line_to_envelope(record, codec)
            client.xadd(key, {"e": encode_envelope(env)}, id=f"{record['seq']}-0")
    finally:
        client.close()


def ended_counter_game(cli: Cli) -> str:
    """`counter_game` ended by the player instead of revealed: seqs 1-12 as there; 13 the
    EndGame command, 14 GameEnded, 15 the final SeedRevealed (same batch)."""
    game = counter_game(cli, reveal=False)
    cli.send(game, {"type": "EndGame", "result": "enough"})
    return game


def renumber(header: dict[str, Any], records: list[dict[str, Any]]) -> None:
    """Give every record the seq of its position (after an insert, delete or swap), and
    the header the new count, as a forger tidying up would."""
    for index, record in enumerate(records):
        record["seq"] = index + 1
    header["events"] = len(records)
    header["last_hash"] = records[-1]["hash"]


def forged(like: dict[str, Any], payload: dict[str, Any], command_id: str) -> dict[str, Any]:
    """A new record shaped like `like` (same game, version 1) holding `payload`."""
    record = dict(like)
    record.update(type=payload["type"], version=1, payload=payload, command_id=command_id)
    return record


def insert(
    header: dict[str, Any], records: list[dict[str, Any]], index: int, record: dict[str, Any]
) -> None:
    """Insert `record` at position `index` (seq index + 1) and renumber what follows."""
    records.insert(index, record)
    renumber(header, records)
