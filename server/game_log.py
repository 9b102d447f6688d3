"""Where the audit, replay and export commands get a log: a game in the store, or an export
file (JSON Lines, `umpire-export/1`), read and checked line by line.

An export is a header line, then one envelope a line (`umpire.events.export`). Reading one never
writes anything; every refusal is an `ExportInvalid` naming the line and, where there is
one, the first bad seq.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine import registry
from umpire.engine.game import codec_for, ruleset_of
from umpire.engine.ruleset import Ruleset
from umpire.events.envelope import Envelope, check_game_id
from umpire.events.errors import GameNotFound, UmpireError
from umpire.events.export import EXPORT_FORMAT, line_to_envelope
from umpire.events.store import EventStore
from umpire.events.terminal_text import shown
from umpire.events.types import GameCreated, SeedRevealed
from umpire.server.input_files import utf8_text
from umpire.server.store_access import open_store
from umpire.server.store_check import missing_seqs

# An export line holds one event; the biggest real payloads (a scenario's map in
# GameCreated) are tens of KiB. These bounds keep a hostile file from exhausting memory.
MAX_LINE_BYTES = 4 * 1024 * 1024
MAX_EXPORT_BYTES = 512 * 1024 * 1024


class ExportInvalid(UmpireError):
    """A file that is not an acceptable export: wrong format, version, size or content."""

    code = "invalid_export"


class ExportHeader(Struct, frozen=True, kw_only=True):
    """The first line of an export."""

    format: str
    game_id: str
    ruleset: str
    ruleset_version: str
    events: int
    last_hash: str
    revealed: bool
    seed: str | None = None
    operator_secret: str | None = None
    operator_sealing_key: str | None = None
    exported_at: str = ""
    # Whether the log is a finished game: it holds GameEnded and its final reveal (docs/
    # audit.md section 1); anything else is a prefix, which no verifier calls "OK".
    complete: bool = False
    # Each event type's secrecy class (engine.redaction.secrecy_classes; docs/audit.md
    # section 3), so that a third party can check every commitment without the rules.
    secrecy: dict[str, str] | None = None
    # The game's receipt key as its GameCreated names it (docs/audit.md 8.4): what a
    # receipt must be signed by to count; "" for a game from before signed receipts.
    receipt_key_id: str = ""
    receipt_key: str = ""


class ExportFile(Struct, frozen=True, kw_only=True):
    """An export as read: its header and its envelopes (not yet audited)."""

    header: ExportHeader
    envelopes: tuple[Envelope, ...]


def ruleset_from_module(spec: str) -> Ruleset[Any]:
    """The Ruleset named by `module:ATTR` (ATTR defaults to RULESET), not registered.

    Used to audit or re-adjudicate a log under corrected rules that carry the same name as
    the installed ruleset.
    """
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UmpireError(f"cannot import ruleset module {spec!r}: {exc}") from exc
    ruleset = getattr(module, attr or "RULESET", None)
    if not isinstance(ruleset, Ruleset):
        raise UmpireError(f"{spec!r} does not name a Ruleset (give module:ATTRIBUTE)")
    return ruleset


async def read_log(store: EventStore, game_id: str) -> list[Envelope]:
    """Every event of a game in the store, or GameNotFound.

    A stream entry that holds another seq than its id (events moved in the store) is
    reported by the store as ChainBroken, which callers show as an audit failure.
    """
    check_game_id(game_id)
    envelopes = await store.read(game_id)
    if not envelopes:
        raise GameNotFound(f"no game {game_id!r} in this store", game_id=game_id)
    return envelopes


def _fail(message: str, line: int, seq: int | None = None) -> ExportInvalid:
    details: dict[str, Any] = {"line": line}
    if seq is not None:
        details["seq"] = seq
    where = f"line {line}" + (f" (seq {seq})" if seq is not None else "")
    return ExportInvalid(f"{where}: {message}", **details)


def parse_header(line: str) -> ExportHeader:
    """The export header, or ExportInvalid saying what the first line should be."""
    wanted = f'the first line of an export is a header {{"format": "{EXPORT_FORMAT}", ...}}'
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        raise _fail(f"this is not an umpire export: {wanted}", 1) from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise _fail(f"the export header is not valid: {exc}", 1) from None
    if not isinstance(data, dict) or "format" not in data:
        raise _fail(f"this is not an umpire export: {wanted}", 1)
    fmt = data["format"]
    if fmt != EXPORT_FORMAT:
        raise _fail(
            f"export format {fmt!r} is not supported by this build (supported: {EXPORT_FORMAT!r})",
            1,
        )
    try:
        return msgspec.convert(data, ExportHeader)
    except msgspec.ValidationError as exc:
        raise _fail(f"the export header is not valid: {exc}", 1) from None


def read_export(path: Path) -> ExportFile:
    """Read an export file, checking its header, size and every line's shape.

    The hash chain and the rules are checked by the audit that every caller runs next, and
    then `check_totals` (the count and last hash the header announces).
    """
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ExportInvalid(f"cannot read {str(path)!r}: {exc.strerror}") from None
    if size > MAX_EXPORT_BYTES:
        raise ExportInvalid(
            f"{str(path)!r} is {size} bytes; an export may be at most {MAX_EXPORT_BYTES} bytes",
            size=size,
        )
    try:
        handle = path.open("rb")
    except OSError as exc:  # a directory, or a file this user may not read
        raise ExportInvalid(f"cannot read {str(path)!r}: {exc.strerror}") from None
    if size == 0:
        handle.close()
        # What `umpire export GAME > FILE` leaves when the export was refused.
        raise ExportInvalid(
            f"{str(path)!r} is empty, not an umpire export: it starts with a header; if it was "
            "written by `umpire export GAME > FILE`, that export was refused (see its error)"
        )
    envelopes: list[Envelope] = []
    with handle:
        first = handle.readline(MAX_LINE_BYTES + 1)
        if len(first) > MAX_LINE_BYTES:
            raise _fail(f"the line is longer than {MAX_LINE_BYTES} bytes", 1)
        try:
            text = utf8_text(first, "the file", ExportInvalid)
        except ExportInvalid as exc:
            raise _fail(f"this is not an umpire export: {exc.message}", 1) from None
        header = parse_header(text)
        try:
            ruleset = registry.get(header.ruleset)
        except UmpireError as exc:
            raise _fail(f"the export's ruleset is not installed here: {exc}", 1) from None
        codec = codec_for(ruleset)
        number = 1
        while True:
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            number += 1
            expected_seq = len(envelopes) + 1
            if len(raw) > MAX_LINE_BYTES:
                raise _fail(f"the line is longer than {MAX_LINE_BYTES} bytes", number, expected_seq)
            if not raw.strip():
                continue
            envelopes.append(_envelope(raw, number, expected_seq, codec))
    if not envelopes:
        raise _fail("the export holds no events", max(number, 1), 1)
    return ExportFile(header=header, envelopes=tuple(envelopes))


def _envelope(raw: bytes, number: int, expected_seq: int, codec: Any) -> Envelope:
    try:
        record = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise _fail("the line is not JSON (cut or edited)", number, expected_seq) from None
    except RecursionError:
        raise _fail("the line nests arrays or objects too deeply", number, expected_seq) from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise _fail(f"the event record is malformed: {exc}", number, expected_seq) from None
    if not isinstance(record, dict):
        raise _fail("the line is not an event record", number, expected_seq)
    seq = record.get("seq") if isinstance(record.get("seq"), int) else expected_seq
    missing = [k for k in ("game_id", "seq", "type", "version", "payload", "command_id",
                           "recorded_at", "prev_hash", "hash") if k not in record]  # fmt: skip
    if missing:
        raise _fail(f"the event record lacks {', '.join(missing)}", number, seq)
    try:
        return line_to_envelope(record, codec)
    except UmpireError as exc:
        raise _fail(f"the event does not decode: {exc.message}", number, seq) from None
    except (TypeError, ValueError) as exc:
        raise _fail(f"the event record is malformed: {exc}", number, seq) from None


def check_totals(export: ExportFile) -> None:
    """Raise ExportInvalid at the first missing or extra seq when the file does not hold
    the events its header announces (a file cut short, or events added)."""
    header, envelopes = export.header, export.envelopes
    lines = len(envelopes) + 1
    if len(envelopes) < header.events:
        raise _fail(
            f"the export is truncated: its header announces {header.events} events but the "
            f"file holds {len(envelopes)}",
            lines,
            len(envelopes) + 1,
        )
    if len(envelopes) > header.events:
        raise _fail(
            f"the export holds {len(envelopes)} events but its header announces {header.events}",
            lines,
            header.events + 1,
        )
    if envelopes[-1].hash != header.last_hash:
        raise _fail(
            "the last event's hash is not the one the header announces (the file was cut, "
            "reordered or edited)",
            lines,
            envelopes[-1].seq,
        )


def check_secrets(
    header: ExportHeader, created: GameCreated, revealed: SeedRevealed | None
) -> bytes:
    """The seed an import may store (b"" for none), checked against the commitment.

    `revealed` is the log's last SeedRevealed. After a mid-game reveal (it commits a next
    seed) the seed to store is the next epoch's, which only an operator export carries.
    """
    rotated = revealed is not None and bool(revealed.next_commitment)
    if header.operator_secret is not None:
        seed_hex = header.operator_secret
        commitment = revealed.next_commitment if rotated and revealed else created.seed_commitment
    elif header.seed is not None:
        seed_hex = header.seed
        commitment = created.seed_commitment
    else:
        return b""
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        raise _fail("the header's seed is not hex", 1) from None
    if header.operator_secret is None and revealed is not None:
        # The audit has checked the revealed seed against its epoch's commitment.
        if revealed.seed != seed_hex:
            raise _fail("the header's seed is not the seed the log reveals", 1)
        return b"" if rotated else seed
    if hashlib.sha256(seed).hexdigest() != commitment:
        raise _fail("the header's seed does not match the game's seed commitment", 1, 1)
    return seed


def check_header(export: ExportFile) -> bytes:
    """The header against the events (after the audit passed): the game id its events
    belong to, and its seed against the log's commitment and reveal (`check_secrets`,
    whose seed it returns). ExportInvalid otherwise."""
    envelopes, header = export.envelopes, export.header
    if envelopes[0].game_id != header.game_id:
        raise ExportInvalid(
            f"line 2 (seq 1): the events belong to game {envelopes[0].game_id!r}, the header "
            f"names {header.game_id!r}",
            seq=1,
        )
    codec = codec_for(ruleset_of(envelopes[0]))
    created = codec.decode(envelopes[0].type, envelopes[0].version, envelopes[0].payload)
    assert isinstance(created, GameCreated)
    if (header.receipt_key_id, header.receipt_key) not in (
        ("", ""), (created.receipt_key_id, created.receipt_key)
    ):  # fmt: skip
        raise ExportInvalid(
            f"the header names receipt key {header.receipt_key_id!r}, GameCreated (seq 1) "
            f"names {created.receipt_key_id!r}: a receipt counts only under the log's own key",
            seq=1,
        )
    revealed = None
    for env in envelopes:
        if env.type == "SeedRevealed":
            event = codec.decode(env.type, env.version, env.payload, seq=env.seq)
            assert isinstance(event, SeedRevealed)
            revealed = event
    return check_secrets(header, created, revealed)


class LoadedLog(Struct, frozen=True, kw_only=True):
    """A log to audit, replay or explain, with where it came from."""

    source: str
    envelopes: tuple[Envelope, ...]
    snapshots: tuple[tuple[int, str], ...] = ()
    export: ExportFile | None = None
    # Lines naming each run of seqs the store's log skips or ends before its head (AOF
    # damage): what `store check` names "missing"; a reader of the log is told too.
    gaps: tuple[str, ...] = ()


def say_gaps(command: str, gaps: Sequence[str]) -> None:
    """Name on stderr each run of seqs the log shown lacks (`LoadedLog.gaps`): the events
    after a gap are shown as they are, and a state folded over it is not the game's."""
    for line in gaps:
        print(f"umpire {command}: this log lacks acknowledged events: {shown(line)}; "
              "`umpire store check` names the damage", file=sys.stderr)  # fmt: skip


async def load_log(settings: Any, game_id: str | None, file: Path | None) -> LoadedLog:
    """The log of `game_id` in the store (with its snapshot), or of an export `file`."""

    if (game_id is None) == (file is None):
        raise UmpireError("give either a GAME id or --file EXPORT.jsonl (one of them)")
    if file is not None:
        export = read_export(file)
        return LoadedLog(source=f"export {file}", export=export, envelopes=export.envelopes)
    assert game_id is not None
    async with open_store(settings) as store:
        envelopes = await read_log(store, game_id)
        snap = await store.load_snapshot(game_id)
        gaps = tuple(missing_seqs(game_id, envelopes, await store.version(game_id)))
    snapshots = ((snap.seq, snap.state_hash),) if snap is not None else ()
    return LoadedLog(
        source=f"game {game_id}", envelopes=tuple(envelopes), snapshots=snapshots, gaps=gaps
    )
