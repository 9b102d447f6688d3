"""`umpire export GAME` and `umpire import FILE`.

An export is JSON Lines: a header `{"format": "umpire-export/1", ...}`, then one envelope a
line (`umpire.events.export`). Policy: a game whose seed is revealed exports to anyone who can
read the store, with the seed in the header. An unrevealed game's log still holds its
hidden rolls, so it exports only with `--operator`, and then the header also carries the
secret seed (`operator_secret`) so the game can go on after an import on another server;
such a file must not reach the player. So does a game after a mid-game reveal while any
commitment is still shut (a hidden roll or a ruleset secret that only the final reveal
opens): a player's export never holds a payload the player's view hides.

Import reads the whole file, checks its format, size, hash chain and every decision
(`umpire.engine.audit`) before writing anything, and then appends the events batch by batch with
their original command ids and times, so the new store holds byte-identical envelopes.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Sequence

import msgspec

from umpire.engine.audit import audit
from umpire.engine.game import codec_for, ruleset_of
from umpire.engine.redaction import secrecy_classes
from umpire.events.envelope import Envelope
from umpire.events.epochs import epochs_of
from umpire.events.errors import GameExists, GameNotFound, UmpireError
from umpire.events.export import EXPORT_FORMAT, envelope_to_line
from umpire.events.receipt import check_anchors
from umpire.events.recorder import seal_batch
from umpire.events.store import PendingEvent, Store
from umpire.events.terminal_text import printable_json, shown, terminal
from umpire.events.types import GameCreated, GameEnded, SeedRevealed
from umpire.server.clock import utc_now_iso
from umpire.server.config import Settings
from umpire.server.data_dir import resolve_data_dir
from umpire.server.game_log import (
    ExportFile,
    ExportHeader,
    ExportInvalid,
    check_header,
    check_totals,
    read_export,
    read_log,
)
from umpire.server.head_checkpoints import read_heads
from umpire.server.output_files import write_output
from umpire.server.progress import progress_bar
from umpire.server.receipts_file import check_state_hashes, kept, read_file, views_unchecked
from umpire.server.store_access import open_store
from umpire.server.store_check import acknowledged_losses, missing_seqs
from umpire.server.store_commands import command_games

console = terminal(highlight=False, soft_wrap=True)
err_console = terminal(stderr=True)


class ExportRefused(UmpireError):
    """An export the policy does not allow (an unrevealed game without --operator)."""

    code = "export_refused"


async def cmd_export(settings: Settings, args: argparse.Namespace) -> int:
    """Write a game as JSON Lines."""
    async with open_store(settings) as store:
        # Refused before a seal is written: a seal closes the log for good, and would
        # close it on what is left.
        lost = await _refused_losses(settings, args, store)
        if args.seal:
            # Closes the ended game's log for good, then exports it with the seal.
            await command_games(settings, store).seal(args.game)
        envelopes = await read_log(store, args.game)
        ruleset = ruleset_of(envelopes[0])
        codec = codec_for(ruleset)
        events = [codec.decode(e.type, e.version, e.payload, seq=e.seq) for e in envelopes]
        created = events[0]
        assert isinstance(created, GameCreated)
        reveals = [e for e in events if isinstance(e, SeedRevealed)]
        seed = reveals[-1].seed if reveals else None
        # A mid-game reveal publishes the rolls so far only: what follows it is the next
        # seed's secret (docs/audit.md (4.1)), so such a log exports as an unrevealed one.
        open_after = bool(reveals) and bool(reveals[-1].next_commitment)
        secret: str | None = None
        sealing_key: str | None = None
        # A commitment still shut (a hidden roll or a ruleset secret of a game not yet
        # over: only the final reveal opens it) holds a payload the player's view hides:
        # no player export holds it (issue #30 item 4).
        epochs = epochs_of(envelopes)
        shut = sum(1 for env in envelopes if env.committed and epochs.key_of(env) is None)
        if seed is None or shut or (open_after and envelopes[-1].type != "SeedRevealed"):
            try:
                held = await store.secret(args.game)
                key = await store.sealing_key(args.game)
            except GameNotFound:
                raise ExportRefused(
                    f"game {args.game!r} holds no dice seed of its own (a re-adjudication "
                    "copy records its original's unrevealed rolls): it cannot be exported; "
                    "reveal the original, then re-adjudicate it again"
                ) from None
            if not args.operator:
                if seed is not None and shut:
                    raise ExportRefused(
                        f"game {args.game!r} holds {shut} sealed events (hidden rolls or "
                        "secrets still in play) that only the end of the game opens: a "
                        "player's export after a mid-game reveal would hold them; export it "
                        "once the game has ended, or pass --operator to move it to another "
                        "server (the file then holds the secret)"
                    )
                # After a mid-game reveal, the seed in question is the next epoch's.
                which = (
                    f"the seed committed by its reveal at seq {_last_reveal_seq(envelopes)}"
                    if reveals
                    else "its seed"
                )
                raise ExportRefused(
                    f"game {args.game!r} has not revealed {which}, whose rolls stay hidden "
                    f"from the player until then: reveal it first (umpire reveal {args.game}; the "
                    "export must follow the reveal), or pass --operator to move it to another "
                    "server (the file then holds the secret)"
                )
            secret = held.hex()
            sealing_key = key.hex() if key else None
    header = ExportHeader(
        format=EXPORT_FORMAT,
        game_id=args.game,
        ruleset=ruleset.name,
        ruleset_version=created.ruleset_version,
        events=len(envelopes),
        last_hash=envelopes[-1].hash,
        revealed=seed is not None,
        seed=seed,
        operator_secret=secret,
        operator_sealing_key=sealing_key,
        exported_at=utc_now_iso(),
        complete=any(isinstance(e, GameEnded) for e in events)
        and bool(reveals)
        and not reveals[-1].next_commitment,
        secrecy=secrecy_classes(ruleset, codec.types()),
        receipt_key_id=created.receipt_key_id,
        receipt_key=created.receipt_key,
    )
    lines = [msgspec.json.encode(header).decode()]
    lines += [envelope_to_line(env, codec) for env in envelopes]
    # JSON escapes for DEL, C1 and the bidirectional controls (msgspec writes them raw): the
    # file decodes to the same values, and printed or shown in an editor it acts on nothing.
    text = printable_json("\n".join(lines) + "\n")
    if args.output is not None:
        # An operator export (the secret seed in its header) is 0600 from its first byte,
        # also over an existing file; a planted symlink or another's file is refused.
        write_output(args.output, text, private=secret is not None)
        note = " (it holds the secret seed: readable by you alone)" if secret else ""
        err_console.print(f"exported {len(envelopes)} events of {args.game} to {args.output}{note}")
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
        if secret:  # a shell redirect made the file with the umask's mode, often 0644
            err_console.print(
                "this export holds the game's secret seed: keep it from the player and other "
                "users (`-o FILE` writes it readable by you alone)"
            )
    for line in lost:  # --with-losses: the file lacks them, and says nothing of it itself
        err_console.print(f"umpire export: this export lacks acknowledged events: {shown(line)}")
    return 0


async def _refused_losses(settings: Settings, args: argparse.Namespace, store: Store) -> list[str]:
    """What the head checkpoints say the game lost (lines naming each loss); ExportRefused
    naming them unless `--with-losses`, or when the game is lost whole."""
    try:
        envelopes = await read_log(store, args.game)
    except GameNotFound:
        gone = _losses(settings, args.game, ())
        if gone:  # lost whole (a restore from before it): its checkpoint names it
            raise ExportRefused(f"game {args.game!r}: {'; '.join(gone)}") from None
        raise
    # A gap in the log (a step dropped or reordered in the AOF) is a loss too, in any
    # store: on main it was exported with exit 0 and no word (red team 9).
    lost = missing_seqs(args.game, envelopes, await store.version(args.game))
    lost += _losses(settings, args.game, envelopes)
    if lost and not args.with_losses:
        raise ExportRefused(
            f"game {args.game!r} lost acknowledged events, so an export of what the "
            f"store holds would pass as the whole game (a verifier of the file cannot "
            f"tell): {'; '.join(lost)}. Restore them (umpire store restore PATH), or "
            "pass --with-losses to export what is left, the losses named again"
        )
    return lost


def _losses(settings: Settings, game_id: str, envelopes: Sequence[Envelope]) -> list[str]:
    """What the embedded store's head checkpoints say `game_id` lost (lines naming each
    game and seqs, as `umpire audit` and `store check` say them); none for a Redis of the
    operator's, whose acknowledged heads this machine does not keep."""
    if settings.redis_url:
        return []
    heads = read_heads(resolve_data_dir(settings.data_dir))
    return acknowledged_losses(game_id, envelopes, heads)


def _last_reveal_seq(envelopes: Sequence[Envelope]) -> int:
    return next(env.seq for env in reversed(envelopes) if env.type == "SeedRevealed")


def _check_receipts(settings: Settings, args: argparse.Namespace, export: ExportFile) -> None:
    """Refuse an export that receipts contradict (docs/audit.md 8.1): those this machine
    keeps of the game, and `--receipts FILE`."""
    game_id = export.header.game_id
    sets = [kept(settings.data_dir, game_id)]
    if args.receipts is not None:
        sets.append(read_file(args.receipts, game_id))
    for anchors in sets:
        if anchors is None:
            continue
        failure, _ = check_anchors(anchors, export.envelopes)
        rules = ruleset_of(export.envelopes[0])
        if failure is None and not views_unchecked(export.envelopes, rules):
            failure = check_state_hashes(anchors, export.envelopes, rules)
        if failure is not None:
            raise ExportInvalid(
                f"the export is refused at seq {failure.seq} (receipt): {failure.message}",
                seq=failure.seq,
                check="receipt",
            )


async def cmd_import(settings: Settings, args: argparse.Namespace) -> int:
    """Check an export whole, then write it into this store with identical hashes."""
    export = read_export(args.file)
    envelopes = export.envelopes
    header = export.header
    if envelopes[0].game_id != header.game_id:
        raise ExportInvalid(
            f"line 2 (seq 1): the events belong to game {envelopes[0].game_id!r}, the header "
            f"names {header.game_id!r}",
            seq=1,
        )
    with progress_bar("checking", envelopes[-1].seq, err_console) as advance:
        report = audit(envelopes, progress=advance)
    if report.failure is None or report.failure.check != "hash_chain":
        check_totals(export)  # a file cut short is refused as such, at its first missing seq
    if report.failure is not None:
        f = report.failure
        raise ExportInvalid(
            f"the export is refused at seq {f.seq} ({f.check}): {f.message}"
            + (f" — expected {f.expected}, found {f.found}" if f.expected or f.found else ""),
            seq=f.seq,
            check=f.check,
        )
    seed = check_header(export)
    _check_receipts(settings, args, export)
    sealing = b""
    if header.operator_secret is not None and header.operator_sealing_key:
        try:
            sealing = bytes.fromhex(header.operator_sealing_key)
        except ValueError:
            raise ExportInvalid("the header's operator_sealing_key is not hex", seq=1) from None
        if len(sealing) != 32:
            raise ExportInvalid("the header's operator_sealing_key is not 32 bytes", seq=1)
        created = codec_for(ruleset_of(envelopes[0])).decode(
            envelopes[0].type, envelopes[0].version, envelopes[0].payload, seq=1
        )
        committed = created.sealing_commitment if isinstance(created, GameCreated) else ""
        if committed and hashlib.sha256(sealing).hexdigest() != committed:
            # The game's hidden rolls derive from it: another key would re-draw them.
            raise ExportInvalid(
                "the header's operator_sealing_key does not match GameCreated's sealing_commitment",
                seq=1,
            )
    game_id = header.game_id
    async with open_store(settings) as store:
        if await store.version(game_id) > 0:
            raise GameExists(
                f"game {game_id!r} exists already in this store: nothing was imported",
                game_id=game_id,
            )
        batches: list[list[int]] = []
        for index, env in enumerate(envelopes):
            if batches and envelopes[batches[-1][-1]].command_id == env.command_id:
                batches[-1].append(index)
            else:
                batches.append([index])
        with progress_bar("importing", len(envelopes), err_console) as advance:
            for batch in batches:
                first = envelopes[batch[0]]
                sealed = seal_batch(
                    game_id,
                    [
                        PendingEvent(
                            envelopes[i].type,
                            envelopes[i].version,
                            envelopes[i].payload,
                            digest=envelopes[i].digest,
                            envelope_version=envelopes[i].envelope_version,
                        )
                        for i in batch
                    ],
                    expected_version=first.seq - 1,
                    command_id=first.command_id,
                    recorded_at=first.recorded_at,
                    prev_hash=first.prev_hash,
                    secret=seed + sealing if first.seq == 1 and seed else None,
                )
                if sealed.last_hash != envelopes[batch[-1]].hash:
                    raise ExportInvalid(  # cannot happen with an audited file; say so loudly
                        f"seq {envelopes[batch[-1]].seq} seals with another hash",
                        seq=envelopes[batch[-1]].seq,
                    )
                result = await store.append(sealed)
                if advance is not None:
                    advance(result.last_seq)
    note = "" if seed else " (no seed in the file: the imported game can be read, not played)"
    console.print(
        f"imported game {shown(game_id)}: {len(envelopes)} events, last hash "
        f"{envelopes[-1].hash}{note}"
    )
    return 0
