"""`umpire audit GAME` and `umpire audit --file EXPORT.jsonl`.

Runs `umpire.engine.audit.audit` over a game in the store (with the store's snapshot hash) or an
export file, and prints OK with the counts or the first divergence. The log is checked
against the receipts given (`--receipts FILE`), else against those this machine kept of the
game (`umpire new`, `send`, ... keep them: server/receipts_file.py), saying which file and
how many, unless `--no-receipts`. Exit codes: 0 OK (some checks may be pending until the
seed is revealed), 1 a check failed, 2 bad input.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from umpire.engine.audit import AuditReport, audit
from umpire.engine.game import codec_for, ruleset_of
from umpire.engine.redaction import secrecy_classes
from umpire.events.envelope import Envelope
from umpire.events.errors import ChainBroken, GameNotFound
from umpire.events.plurals import counted
from umpire.events.receipt import (
    NOT_ANCHORED,
    Anchor,
    ReceiptsInvalid,
    check_anchors,
    headline,
)
from umpire.events.terminal_text import shown, terminal
from umpire.server.config import Settings
from umpire.server.data_dir import resolve_data_dir
from umpire.server.game_log import (
    ExportInvalid,
    check_header,
    check_totals,
    load_log,
    ruleset_from_module,
)
from umpire.server.head_checkpoints import Heads, read_heads
from umpire.server.progress import progress_bar
from umpire.server.receipts_file import (
    check_state_hashes,
    kept,
    read_file,
    receipts_path,
    views_unchecked,
)
from umpire.server.store_check import acknowledged_losses

AUDIT_FAILED = 1

console = terminal(highlight=False, soft_wrap=True)
err_console = terminal(stderr=True)


def print_report(report: AuditReport, source: str, anchored: str = NOT_ANCHORED) -> int:
    """Print an audit report (and how far anchors reach: `anchored`); the exit code."""
    if report.failure is not None:
        f = report.failure
        console.print(f"FAILED: {shown(source)}: first divergence at seq {f.seq} ({f.check})")
        console.print(f"  {shown(f.message)}")
        if f.rule:
            console.print(f"  rule:     {shown(f.rule)}")
        if f.expected or f.found:
            console.print(f"  expected: {shown(f.expected)}")
            console.print(f"  found:    {shown(f.found)}")
        for line in report.pending:
            console.print(f"  note: {shown(line)}")
        return AUDIT_FAILED
    # The headline (docs/audit.md 8.4): "verified" only when a receipt the game's key
    # signed agrees with the log; a log that merely holds together could be rewritten whole.
    lead = headline(anchored)
    console.print(
        f"{lead}: the log agrees with receipts signed by the game's key"
        if lead == "verified"
        else f"{lead}: the log holds together, but no receipt signed by the game's key anchors it"
    )
    # A prefix (not ended and finally revealed) is never "OK" (docs/audit.md section 7).
    verdict = "OK" if report.complete else "PREFIX"
    prefix = (
        ""
        if report.complete
        else f"prefix of {counted(report.events, 'event')}, not a finished game; "
    )
    console.print(
        f"{verdict}: {shown(source)} ({report.ruleset}): {prefix}"
        f"{counted(report.events, 'event')}, {counted(report.commands, 'command')}, "
        f"{counted(report.decisions_checked, 'decision')} re-made, "
        f"{counted(report.server_rolls, 'server roll')} ({report.rolls_verified} verified), "
        f"{counted(report.player_rolls, 'player roll')}"
    )
    console.print(f"  state hash {report.state_hash}")
    entropy = (
        "client entropy waived at creation (the server's seed alone derives the dice)"
        if report.client_entropy == "waived"
        else "client seeds bound after each commitment"
    )
    console.print(f"  dice: {counted(report.epochs, 'seed epoch')}, {entropy}")
    console.print(f"  {shown(anchored)}")
    if report.server_rolls == 1:  # "0 of 1 server roll also derive" reads as a slip
        how = (
            "also derives from its command's nonce (unknown to anyone before the command arrived)"
            if report.nonce_rolls
            else "derives from no command's nonce"
        )
        console.print(f"  dice: the one server roll {how}")
    elif report.server_rolls:
        console.print(
            f"  dice: {report.nonce_rolls} of {report.server_rolls} server rolls "
            f"also {'derives' if report.nonce_rolls == 1 else 'derive'} from their command's "
            "nonce (unknown to anyone before the command arrived)"
        )
    pending = list(report.pending)
    if not report.seed_revealed:
        pending.insert(0, "the seed commitment: the seed is not revealed yet (umpire reveal)")
    for line in pending:
        console.print(f"  pending: {shown(line)}")
    if report.player_rolls:
        console.print(
            f"  note: {counted(report.player_rolls, 'roll')} "
            + (
                "was entered by the player (physical dice); it is"
                if report.player_rolls == 1
                else "were entered by the player (physical dice); they are"
            )
            + " checked for shape and use, not derived from the seed"
        )
    if report.opponent_manual_dice:
        console.print(
            "  note: the game was created to let the player enter the opponent's dice; "
            f"{report.opponent_rolls_by_player} of the opponent's rolls were entered so"
        )
    return 0


async def cmd_audit(settings: Settings, args: argparse.Namespace) -> int:
    """Audit a game or an export file."""
    ruleset = ruleset_from_module(args.ruleset_module) if args.ruleset_module else None
    # What this machine acknowledged of a stored game, read before its log: a command
    # answered while the audit runs records its head and keeps its receipt after its
    # append, so what was read first names only seqs the log read next holds. Read after
    # the log, they could name a seq it missed and look like a loss.
    heads = _heads(settings, args)
    early = _anchors(settings, args, args.game) if args.game is not None else None
    try:
        log = await load_log(settings, args.game, args.file)
    except GameNotFound:
        # A game the store lost whole (a restore from before it): its checkpoint names it.
        lost = _acknowledged(args, (), heads)
        for line in lost:
            console.print(f"FAILED: {shown(line)}")
        if not lost:
            raise
        return AUDIT_FAILED
    except ChainBroken as exc:
        # The store found an entry holding another seq than its id: events were moved.
        console.print(f"FAILED: game {shown(args.game)}: first divergence at seq {exc.seq} "
                      f"(hash_chain)\n  {shown(exc.message)}")  # fmt: skip
        return AUDIT_FAILED
    # What this machine acknowledged and the store no longer holds (a repair's cut, a
    # restore from an older backup): a shorter, consistent log does not pass for whole.
    lost = _acknowledged(args, log.envelopes, heads)
    for line in lost:
        console.print(f"FAILED: {shown(line)}")
    with progress_bar("auditing", log.envelopes[-1].seq, err_console) as advance:
        report = audit(
            log.envelopes, ruleset=ruleset, snapshots=log.snapshots, progress=advance,
            commitment=args.commitment,
        )  # fmt: skip
    # A file whose chain holds but which lacks events its header announces was cut short:
    # that is the finding, not the half batch the cut left at its end.
    chain_broken = report.failure is not None and report.failure.check == "hash_chain"
    # The anchors (docs/audit.md 8.1): the receipts given, else those this machine kept of
    # the game (a newcomer need not know the flag). The lowest seq that disagrees
    # with one, if the log's own checks find nothing before it.
    anchors = early if args.game is not None else _anchors(settings, args, log.envelopes[0].game_id)
    anchored = NOT_ANCHORED
    if anchors is not None and not chain_broken:
        anchor_failure, anchored = check_anchors(anchors, log.envelopes)
        unchecked = views_unchecked(log.envelopes, ruleset_of(log.envelopes[0]))
        if anchor_failure is None and report.failure is None and ruleset is None and unchecked:
            anchored += f"; state hashes not checked ({unchecked})"
        elif anchor_failure is None and report.failure is None and ruleset is None:
            # The head hashes agree: the views the server sent must be the log's.
            anchor_failure = check_state_hashes(
                anchors, log.envelopes, ruleset_of(log.envelopes[0])
            )
            anchored += "; every receipt's state hash is the view the log gives"
        elif ruleset is not None:
            anchored += "; state hashes not checked (other rules than the game's)"
        if anchor_failure is not None and anchor_failure.equivocation is not None:
            # Two receipts the game's key signed contradict each other: whatever the log
            # says, the server gave out two histories (docs/audit.md 8.5).
            console.print(f"FAILED: {shown(log.source)}: {shown(anchor_failure.message)}")
            console.print("  umpire proof --receipts FILE ... -o PROOF.json writes it for anyone "
                          "to check (verify_export.py --proof, the /verify page)")  # fmt: skip
            return AUDIT_FAILED
        if anchor_failure is not None and (
            report.failure is None or anchor_failure.seq < report.failure.seq
        ):
            where = f"first divergence at seq {anchor_failure.seq} (receipt)"
            console.print(f"FAILED: {shown(log.source)}: {where}")
            console.print(f"  {shown(anchor_failure.message)}")
            return AUDIT_FAILED
    if log.export is not None and not chain_broken:
        try:
            check_totals(log.export)
        except ExportInvalid as exc:
            seq = int(exc.details.get("seq", 0))
            console.print(f"FAILED: {shown(log.source)}: first divergence at seq {seq} "
                          f"(export_totals)\n  {shown(exc.message)}")  # fmt: skip
            return AUDIT_FAILED
    if log.export is not None and report.failure is None:
        try:  # the header's game id and seed, as `umpire import` checks them
            check_header(log.export)
        except ExportInvalid as exc:
            seq = int(exc.details.get("seq", 1))
            console.print(
                f"FAILED: {shown(log.source)}: the export header does not match its events "
                f"at seq {seq} (export_header)\n  {shown(exc.message)}"
            )
            return AUDIT_FAILED
    if report.ok and log.export is not None and log.export.header.secrecy is not None:
        audited = ruleset or ruleset_of(log.envelopes[0])
        if log.export.header.secrecy != secrecy_classes(audited, codec_for(audited).types()):
            console.print(f"FAILED: {shown(log.source)}: first divergence at seq 0 "
                          "(export_totals)\n  the header's secrecy classes are not those "
                          f"the declarations of {audited.name} give")  # fmt: skip
            return AUDIT_FAILED
    if report.ok and log.export is not None and log.export.header.complete and not report.complete:
        console.print(f"FAILED: {shown(log.source)}: first divergence at seq {report.events} "
                      "(export_totals)\n  the header says the game is complete, but the log "
                      "does not end with GameEnded and its final reveal: it was cut")  # fmt: skip
        return AUDIT_FAILED
    if lost and report.ok:
        console.print(
            f"FAILED: {shown(log.source)}: its {report.events} events hold together, but "
            "acknowledged events are lost (named above)"
        )
        return AUDIT_FAILED
    return print_report(report, log.source, anchored)


def _heads(settings: Settings, args: argparse.Namespace) -> Heads | None:
    """The embedded store's head checkpoints, for a stored game (None: an export file, or
    a Redis of the operator's, whose checkpoints this machine does not keep)."""
    if args.game is None or settings.redis_url:
        return None
    return read_heads(resolve_data_dir(settings.data_dir))


def _acknowledged(
    args: argparse.Namespace, envelopes: Sequence[Envelope], heads: Heads | None
) -> list[str]:
    """What the head checkpoints say this game lost (lines naming it)."""
    if heads is None:
        return []
    return acknowledged_losses(args.game, envelopes, heads)


def _anchors(settings: Settings, args: argparse.Namespace, game_id: str) -> list[Anchor] | None:
    """The receipts to check game `game_id`'s log against (`--receipts FILE`, as often as
    given: the player's and a spectator's, say), else those this machine kept of the game
    (docs/audit.md 8.1; not with `--no-receipts`), or None."""
    if args.receipts:
        return [a for path in args.receipts for a in read_file(path, game_id)]
    if args.no_receipts:
        return None
    path = receipts_path(settings.data_dir, game_id)
    try:
        anchors = kept(settings.data_dir, game_id)
    except ReceiptsInvalid as exc:
        # Not asked for by name: say which file, and how to audit without it.
        raise ReceiptsInvalid(
            f"the receipts this machine kept of game {game_id} ({path}): {exc.message}; "
            "--no-receipts audits the log without them",
            **exc.details,
        ) from None
    if anchors is not None:
        # Said on stderr, before the verdict: stdout leads with the headline.
        receipts = sum(a.kind == "receipt" for a in anchors)
        err_console.print(
            f"umpire audit: checking against the {counted(receipts, 'receipt')} and "
            f"{counted(len(anchors) - receipts, 'commitment')} this machine kept of game "
            f"{shown(game_id)} ({shown(str(path))}); "
            "--no-receipts leaves them out",
            soft_wrap=True,  # a path is not broken across lines
        )
    return anchors
