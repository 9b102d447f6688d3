"""The whole-store check: every game's chain over every stored event, its dedupe entries,
its head, and what this machine was told was acknowledged (head checkpoints, receipts).

`umpire store check` runs it after Valkey's own structural check of the AOF (which only
sees RESP framing: a changed byte inside a stored value loads silently). A finding names
its game and seqs: "game g1 seq 41: does not match its hash", "game g1 seqs 41 to 57:
acknowledged (head checkpoint), not in the store". `store repair`, `store restore` and
`umpire audit` use the same findings to name what was lost.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from umpire.engine.audit_grammar import SYSTEM_PREFIX
from umpire.engine.game import codec_for, ruleset_of
from umpire.engine.replay import log_finally_revealed
from umpire.events.chain import Damage, chain_damages, merged
from umpire.events.envelope import Envelope
from umpire.events.epochs import epochs_of
from umpire.events.errors import GameNotFound, UmpireError
from umpire.events.receipt import ReceiptsInvalid, read_receipts
from umpire.events.store import InspectableStore, Store, parse_command_entry
from umpire.events.types import GameCreated
from umpire.server.head_checkpoints import (
    Heads,
    Loss,
    append_records,
    counted_line,
    credentials_loss_line,
    loss_line,
    read_heads,
)
from umpire.server.receipts_file import receipts_path

# Reasons that mean acknowledged events are gone (not merely damaged in place).
LOST = frozenset({"missing", "lost", "replaced"})
# What a game's credentials without a count in the head checkpoints leave unknown.
UNCOUNTED = (
    "its credentials have no count in the head checkpoints (a game made before umpire "
    "counted them, or their lines lost from store-heads.log): whether a credential given "
    "out was lost, or a revoked one works again, cannot be told"
)
# Reasons that mean a game's credentials are not those its last recorded change left.
CREDENTIALS_REASONS = frozenset({"credentials_lost", "credentials_changed"})
log = logging.getLogger("umpire.heads")


@dataclass
class GameFindings:
    """What the check found in one game: damages (seq ranges), its stored head, and the
    losses named before (by a repair or a restore)."""

    game_id: str
    head: int = 0
    damages: list[Damage] = field(default_factory=list)
    named: list[Loss] = field(default_factory=list)
    # Whether the head checkpoints hold the game's acknowledged head: without one (the
    # file deleted, or left behind when the store was copied) a cut of its acknowledged
    # tail leaves a shorter chain that nothing here can tell from the whole game.
    checkpointed: bool = True
    # The game's seed commitment (GameCreated's), and whether it is not finally revealed
    # and its store holds no seed: a re-adjudication copy (another game holds its
    # original's seed), or a game whose seed and sealing key are lost (`check_store`).
    commitment: str = ""
    seedless: bool = False
    receipt_key_id: str = ""  # GameCreated's: the key its receipts are signed with
    # Whether the head checkpoints never counted the game's credentials (made before
    # the count began, or their lines lost from store-heads.log, and no `umpire serve`
    # started since): a change of them lost from the store, a grant dropped or a
    # revocation cut, goes unseen. And since when they are counted where a baseline
    # (`B`) began it: a change lost before then cannot be told.
    uncounted: bool = False
    counted_since: str = ""

    def lines(self) -> list[str]:
        """One line a finding, each naming the game and its seqs: `damaged: ...`, or
        `lost: game X lost seqs 41 to 57 ...` for acknowledged events gone."""
        out = []
        for damage in self.damages:
            if damage.reason in LOST:
                seqs = _seqs(damage.first, damage.last)
                out.append(f"lost: game {self.game_id} lost {seqs}: {damage.message}")
            else:
                out.append(f"damaged: {damage.describe(self.game_id)}")
        out += [f"lost: {loss.describe()}" for loss in self.named]
        return out

    def lost(self) -> list[tuple[int, int]]:
        """The seq ranges of acknowledged events no longer in the store."""
        return [(d.first, d.last) for d in self.damages if d.reason in LOST]


@dataclass
class StoreFindings:
    games: list[GameFindings] = field(default_factory=list)
    damaged_checkpoint_lines: int = 0

    @property
    def whole(self) -> bool:
        return all(not g.damages and not g.named for g in self.games)

    def lines(self) -> list[str]:
        return [line for game in self.games for line in game.lines()]

    def unchecked(self) -> list[str]:
        """The games no head checkpoint vouches for (a lost tail would go unseen)."""
        return [g.game_id for g in self.games if not g.checkpointed]

    def uncounted(self) -> list[str]:
        """The games whose credentials no record counts (a change lost goes unseen)."""
        return [g.game_id for g in self.games if g.uncounted]

    def of(self, game_id: str) -> GameFindings | None:
        return next((g for g in self.games if g.game_id == game_id), None)


async def check_store(
    store: InspectableStore, heads: Heads, data_dir: Path | None = None
) -> StoreFindings:
    """Check every game the store lists or the checkpoints name."""
    listed = await store.games()
    names = listed + sorted(set(heads.heads) - set(listed))
    found = StoreFindings(damaged_checkpoint_lines=heads.damaged_lines)
    for game_id in names:
        found.games.append(await check_game(store, game_id, heads, data_dir))
    seeded = {g.commitment for g in found.games if not g.seedless}
    kept = await store.receipt_keys()
    for game in found.games:
        if (
            game.receipt_key_id
            and game.receipt_key_id not in kept
            and await _made_here(store, heads, game.game_id)
        ):
            why = (
                f"its receipt key {game.receipt_key_id} is not in the store: its replies go "
                "unsigned from now on (receipts signed before stay valid); restore a backup "
                "for the key"
            )
            game.damages.append(Damage(1, game.head, "receipt_key_missing", why))
        if game.game_id not in listed and game.head:
            why = "not in the store's list of games: `umpire games` and the operator's list miss it"
            game.damages.append(Damage(1, game.head, "unlisted", why))
    for game in found.games:
        recorded = heads.credentials.get(game.game_id)
        named = heads.credential_losses.get(game.game_id)
        if named is not None and game.head:  # named lost before: named until a rebase
            game.damages.append(Damage(1, game.head, "credentials_lost", named))
        elif recorded is not None and game.head:  # a game lost whole is named as such
            damage = _credentials_damage(recorded, await store.credentials.tally(game.game_id))
            if damage is not None:
                game.damages.append(Damage(1, game.head, *damage))
        elif game.head:
            # A game with no credentials at all (an import, a re-adjudication copy) has
            # none to lose; one that holds some the checkpoints never counted is named.
            game.uncounted = (await store.credentials.tally(game.game_id))[1] > 0
        game.counted_since = heads.counted_since.get(game.game_id, "")
    lost_seed = (
        "its dice seed and sealing key are not in the store (a re-adjudication copy's "
        "original holds none either): its rolls and secrets since the last reveal can never "
        "be opened, and it can roll no more; restore a backup (umpire store restore PATH)"
    )
    for game in found.games:
        if game.seedless and game.commitment not in seeded:
            game.damages.append(Damage(1, game.head, "seed_missing", lost_seed))
    return found


async def _made_here(store: InspectableStore, heads: Heads, game_id: str) -> bool:
    """Whether this store gave the game out (its credentials are in the store, or the
    head checkpoints counted them): an imported game (`umpire import`) has none, and names
    the receipt key of the server it came from, which this one never held (red team 10:
    `store check` called such a store damaged after a routine import)."""
    if game_id in heads.credentials or game_id in heads.credential_losses:
        return True
    return (await store.credentials.tally(game_id))[1] > 0


def _credentials_damage(recorded: tuple[int, int], held: tuple[int, int]) -> tuple[str, str] | None:
    """(reason, why) when a game's credentials in the store are not those its last
    recorded change left (head checkpoints' `C` lines: (changes, entries)); None when
    they are, or the store holds later changes (made where none was recorded)."""
    (changes, fields), (now, entries) = recorded, held
    effect = (
        "a credential given out may no longer work, or a revoked one work again; restore "
        "a backup, or revoke the game's credentials and give out new ones"
    )
    if now < changes:
        return "credentials_lost", (
            f"its credentials lost changes: the head checkpoints record change {changes} "
            f"of them, the store holds {now}: {effect}"
        )
    if now == changes and entries != fields:
        return "credentials_changed", (
            f"its credentials were changed outside umpire: change {changes} left "
            f"{fields} entries, the store holds {entries}: {effect}"
        )
    return None


def _created(first: Envelope | None) -> GameCreated | None:
    """A game's GameCreated (None when it does not decode)."""
    if first is None:
        return None
    try:
        created = codec_for(ruleset_of(first)).decode(
            first.type, first.version, first.payload, seq=1
        )
    except UmpireError:
        return None
    return created if isinstance(created, GameCreated) else None


async def check_game(
    store: InspectableStore, game_id: str, heads: Heads, data_dir: Path | None = None
) -> GameFindings:
    """One game's findings (see the module's docstring)."""
    entries = await store.entries(game_id)
    found = GameFindings(game_id, named=heads.losses_of(game_id))
    stored = {seq: item for seq, item in entries if isinstance(item, Envelope)}
    found.head = entries[-1][0] if entries else 0
    epochs = epochs_of(stored.values())
    try:
        epochs = epochs.with_held_keys(
            await store.secret(game_id), await store.sealing_key(game_id)
        )
    except (GameNotFound, ValueError):
        epochs = epochs_of(stored.values())  # no readable seed: commitments stay unopened
        found.seedless = bool(stored) and not log_finally_revealed(list(stored.values()))
    created = _created(stored.get(1))
    if created is not None:
        found.commitment = created.seed_commitment
        found.receipt_key_id = created.receipt_key_id
    damages = chain_damages(entries, game_id=game_id, epochs=epochs)
    version = await store.version(game_id)
    if version > found.head:
        damages.append(
            Damage(
                found.head + 1,
                version,
                "missing",
                f"missing from the store (its head says seq {version})",
            )
        )
    elif (
        entries
        and version == found.head
        and found.head in stored
        and await store.last_hash(game_id) != stored[found.head].hash
    ):
        damages.append(
            Damage(
                found.head,
                found.head,
                "head_mismatch",
                "the store's head hash is not this event's",
            )
        )
    results = await store.command_results(game_id)
    damages += _dedupe_damages(results, stored, found.head)
    damages += _batch_damages(results, stored)
    acknowledged = []
    if game_id in heads.heads:
        acknowledged.append(("the head checkpoint", *heads.heads[game_id]))
    else:
        found.checkpointed = bool(found.named)
    if data_dir is not None:
        acknowledged += _receipt_heads(data_dir, game_id)
    top = max(version, found.head)
    for source, seq, hash_ in acknowledged:
        if seq > top:
            damages.append(
                Damage(
                    top + 1,
                    seq,
                    "lost",
                    f"acknowledged ({source} holds seq {seq}), not in the store",
                )
            )
            top = seq
        elif seq in stored and stored[seq].hash != hash_:
            damages.append(
                Damage(
                    seq,
                    seq,
                    "replaced",
                    f"is not the event acknowledged ({source} holds another hash)",
                )
            )
    # A loss named by a repair or restore is not found again in the receipts and the
    # checkpoints of before it.
    damages = [d for d in damages if not (d.reason in LOST and _covered(d, found.named))]
    found.damages = merged(sorted(_unique(damages), key=lambda d: (d.first, d.last, d.reason)))
    return found


def _seqs(first: int, last: int) -> str:
    return f"seq {first}" if first == last else f"seqs {first} to {last}"


def _covered(damage: Damage, named: list[Loss]) -> bool:
    return any(loss.first <= damage.first and damage.last <= loss.last for loss in named)


def _unique(damages: list[Damage]) -> list[Damage]:
    """Each range once: a loss found by the checkpoint and by a receipt is one finding."""
    seen: set[tuple[int, int, str]] = set()
    out = []
    for damage in damages:
        key = (damage.first, damage.last, "lost" if damage.reason in LOST else damage.reason)
        if key not in seen:
            seen.add(key)
            out.append(damage)
    return out


def _dedupe_damages(
    results: dict[str, str], stored: dict[int, Envelope], head: int
) -> list[Damage]:
    """A dedupe entry (command id -> first:last:hash[:body_hash]) must name events of that
    command whose last has that hash: a retried command is answered from it."""
    out = []
    for command_id, value in sorted(results.items()):
        try:
            entry = parse_command_entry(value)
            first, last, hash_ = entry.first_seq, entry.last_seq, entry.last_hash
        except ValueError:
            out.append(
                Damage(
                    0,
                    0,
                    "dedupe_mismatch",
                    f"the dedupe entry of command {command_id!r} is not readable",
                )
            )
            continue
        if last > head:
            continue  # events missing: named as missing or lost already
        events = [stored.get(seq) for seq in range(first, last + 1)]
        if any(e is not None and e.command_id != command_id for e in events) or (
            events and events[-1] is not None and events[-1].hash != hash_
        ):
            out.append(
                Damage(
                    first,
                    last,
                    "dedupe_mismatch",
                    f"the dedupe entry of command {command_id!r} does not match the log",
                )
            )
    return out


def _batch_damages(results: dict[str, str], stored: dict[int, Envelope]) -> list[Damage]:
    """Each command's events are one run of seqs with a dedupe entry: a command id with
    none (its entry lost from the AOF, the chain whole) is applied a second time when it
    is sent again, and one whose events come in two runs was (the audit fails the game
    there). Either is named with its seqs."""
    runs: dict[str, list[list[int]]] = {}
    last_id = None
    for seq in sorted(stored):
        env = stored[seq]
        command_id = env.command_id
        # A client command's batch begins with its CommandRecorded: a second batch of
        # the same id right after the first is a run of its own. (An amendment's one
        # system batch holds the re-made line's CommandRecorded events.)
        new_run = env.type == "CommandRecorded" and not command_id.startswith(SYSTEM_PREFIX)
        if command_id == last_id and not new_run:
            runs[command_id][-1].append(seq)
        else:
            runs.setdefault(command_id, []).append([seq])
        last_id = command_id
    out = []
    for command_id, seen in runs.items():
        first = seen[0]
        if command_id not in results:
            why = f"command {command_id!r} has no dedupe entry: sent again, it would be applied"
            out.append(Damage(first[0], first[-1], "dedupe_missing", why + " a second time"))
        for again in seen[1:]:
            why = f"command {command_id!r} was applied again (first at seq {first[0]})"
            out.append(Damage(again[0], again[-1], "command_reused", why))
    return out


def _receipt_heads(data_dir: Path, game_id: str) -> list[tuple[str, int, str]]:
    """The heads this machine's receipts file of the game holds (docs/audit.md 8.1)."""
    try:
        text = receipts_path(data_dir, game_id).read_text(encoding="utf-8")
        _, anchors = read_receipts(text)
    except (OSError, UnicodeDecodeError, ReceiptsInvalid, UmpireError):
        return []
    best = max(
        (a for a in anchors if a.kind == "receipt" and a.head_seq),
        default=None,
        key=lambda a: a.head_seq,
    )
    return (
        []
        if best is None
        else [(f"the receipt on line {best.line}", best.head_seq, best.head_hash)]
    )


def acknowledged_losses(game_id: str, envelopes: Sequence[Envelope], heads: Heads) -> list[str]:
    """For `umpire audit GAME`: each loss of the game named so far, and any acknowledged
    seq (by the head checkpoint) its log no longer holds, as lines naming game and seqs."""
    named = heads.losses_of(game_id)
    out = [loss.describe() for loss in named]
    held = heads.heads.get(game_id)
    head = envelopes[-1].seq if envelopes else 0
    if held is None:
        return out
    seq, hash_ = held
    gone = Damage(head + 1, seq, "lost", "")
    if seq > head and not _covered(gone, named):
        out.append(
            f"game {game_id} lost {_seqs(head + 1, seq)} (acknowledged: the head checkpoint "
            f"holds seq {seq}; the log ends at seq {head})"
        )
    elif (
        0 < seq <= head
        and any(env.seq == seq and env.hash != hash_ for env in envelopes)
        and not _covered(Damage(seq, seq, "replaced", ""), named)
    ):
        out.append(
            f"game {game_id} seq {seq} is not the event acknowledged (the head checkpoint "
            "holds another hash): the log was changed at or before it"
        )
    return out


async def name_losses_at_start(store: Store, data_dir: Path) -> tuple[list[Loss], int]:
    """At `umpire serve`'s start: each game whose head checkpoint is past the store's
    head lost acknowledged events before this start (an AOF cut, an older backup put in
    place by hand). Each such loss not named before is logged and recorded in the head
    checkpoints now, so it is named from the first moment (`store check`, `audit`,
    `export`, the log and /metrics) rather than at the game's next move, or never for a
    game no one moves again (red team 9: a serve on a store with a lost tail said nothing).
    A game whose credentials lost a change is logged too. The losses named now, and how
    many games have a loss named in all."""
    heads = read_heads(data_dir)
    games = sorted(heads.heads)
    found = []
    versions = dict(zip(games, await store.versions(games), strict=True))
    for game_id, version in versions.items():
        seq, _ = heads.heads[game_id]
        held = version or 0
        named = heads.losses_of(game_id)
        if seq > held and not _covered(Damage(held + 1, seq, "lost", ""), named):
            why = (
                f"acknowledged up to seq {seq} by the head checkpoint, missing from the "
                f"store when umpire serve started (it held the game to seq {held})"
            )
            found.append(Loss(game_id, held + 1, seq, why))
    for loss in found:
        log.error("the store lost acknowledged events: %s", loss.describe())
    if found:
        append_records(data_dir, [loss_line(loss) for loss in found])
    # A game's credentials that are not those its last recorded change left: named in
    # the log at start too (`store check` names them the same way).
    # Each is recorded (`K`) too, so that later changes, which bring the store's count
    # level with the record again, do not hide it (red team 9b).
    recorded = sorted(heads.credentials)
    records: list[bytes] = []
    for game_id, tally in zip(recorded, await store.credentials.tallies(recorded), strict=True):
        damage = heads.credential_losses.get(game_id)
        if damage is None:
            found_now = _credentials_damage(heads.credentials[game_id], tally)
            if found_now is not None:
                damage = found_now[1]
                records.append(credentials_loss_line(game_id, tally[0], damage))
        if damage is not None:
            log.error("game %s: %s", game_id, damage)
    # A game whose credentials were never counted (made before the store counted their
    # changes, or its count lost from store-heads.log): counted from now, said by name,
    # so that a change lost from now on is named; what was lost before cannot be told,
    # and `store check` says since when. Not a game named lost already, nor one the store
    # lost whole, nor one with no credentials to lose (an import, a re-adjudication copy).
    listed = await store.games()
    uncounted = [
        g
        for g in listed
        if g not in heads.credentials
        and g not in heads.credential_losses
        and (g not in versions or versions[g])
    ]
    since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for game_id, (changes, fields) in zip(
        uncounted, await store.credentials.tallies(uncounted), strict=True
    ):
        if not fields:
            continue
        log.warning("game %s: %s; counted from now, %s", game_id, UNCOUNTED, since)
        records.append(counted_line(game_id, changes, fields, since))
    if records:
        append_records(data_dir, records)
    lost_games = {loss.game_id for loss in heads.losses} | {loss.game_id for loss in found}
    return found, len(lost_games)


def missing_seqs(game_id: str, envelopes: Sequence[Envelope], head: int = 0) -> list[str]:
    """Each run of seqs the log read skips (a step dropped or reordered in the AOF: the
    chain has a gap there), and any seq past its last up to `head` (the store's own
    head), as lines naming game and seqs: what `store check` names "missing"."""
    out = []
    before = 0
    for env in envelopes:
        if env.seq > before + 1:
            out.append(
                f"game {game_id} lost {_seqs(before + 1, env.seq - 1)} (missing from the "
                f"store: its log holds seq {before}, then seq {env.seq})"
            )
        before = max(before, env.seq)
    if head > before:
        out.append(
            f"game {game_id} lost {_seqs(before + 1, head)} (missing from the store: its "
            f"head says seq {head}, its log ends at seq {before})"
        )
    return out
