"""The receipts this machine keeps of the games the CLI plays (docs/audit.md 8.1).

Every `umpire new`, `bind`, `send`, `takeback` and `reveal` appends its anchors to
`<data dir>/receipts/<game>.jsonl` (the data directory that also holds the store's secret,
0700; the file 0600): the seed commitment of each epoch as it is announced, and the
receipt of the head after each write, for the player's view. `umpire receipts GAME` prints
the file; `umpire audit` and `umpire import` check a log against it, so a store or an
export changed later disagrees with what this machine was told at the time.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from umpire.engine.game import Game, NeedsWholeLog, created_of, fold
from umpire.engine.redaction import view_for
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.envelope import Envelope, check_game_id
from umpire.events.errors import UmpireError
from umpire.events.private_folder import UnsafeComponent, open_private, private_folder
from umpire.events.receipt import (
    Anchor,
    AnchorFailure,
    ReceiptsInvalid,
    read_receipts,
    receipt_state_hash,
    receipts_header,
    split_signed,
)
from umpire.events.receipt_signature import (
    BLIND_BYTES,
    ReceiptSigner,
    receipt_statement,
    sign_batch,
)

FOLDER = "receipts"


class NoReceipts(UmpireError):
    """No receipts are kept for a game on this machine."""

    code = "no_receipts"


def receipts_path(data_dir: Path, game_id: str) -> Path:
    """Where this machine keeps a game's receipts (a game id names no other file)."""
    return Path(data_dir) / FOLDER / f"{check_game_id(game_id)}.jsonl"


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def keep(data_dir: Path, game_id: str, anchors: list[Anchor], public_key: str = "") -> None:
    """Append anchors to the game's receipts file (made, with its header, if absent). The
    command is written already: a file that cannot be written is a warning, not a failure."""
    path = receipts_path(data_dir, game_id)
    try:
        # The folder and the file as a client's receipts folder keeps them
        # (events/private_folder.py): a symlink planted in place of the file is refused,
        # never written through.
        private_folder(path.parent)
        fd = open_private(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            fresh = os.fstat(f.fileno()).st_size == 0
            head = [receipts_header(game_id, public_key)] if fresh else []
            f.write("".join(line + "\n" for line in head + [a.line_json() for a in anchors]))
    except UnsafeComponent as exc:
        print(f"umpire: warning: the receipt was not kept: {exc}", file=sys.stderr)
    except OSError as exc:
        print(f"umpire: warning: the receipt was not kept in {path}: {exc.strerror or exc}",
              file=sys.stderr)  # fmt: skip


def _read_kept(path: Path) -> str | None:
    """The text of a kept receipts file, None if there is none; UnsafeComponent if it is
    a symlink or not this user's (`open_private`)."""
    try:
        fd = open_private(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, encoding="utf-8") as f:
        return f.read()


def head_receipt(
    ruleset: Ruleset[Any],
    game: Game,
    reply: str,
    command_id: str,
    role: Role = Role.PLAYER,
    *,
    signer: ReceiptSigner | None = None,
    first_seq: int = 0,
) -> Anchor:
    """The receipt of the game's head for `role`, as the gateway's reply would carry it:
    signed by `signer` (the game's receipt key) over seqs `first_seq` (default: the head;
    1 for a creation) to the head."""
    revealed = game.meta.revealed_seed is not None
    view = view_for(ruleset, game.state, role, revealed=revealed)
    seq, head = game.meta.seq, game.meta.last_hash
    state = receipt_state_hash(seq, head, view)
    first = 1 if reply == "created" else first_seq or seq
    statement = receipt_statement(signer, game.meta.game_id, reply, role.value, [first], seq,
                                  head, state)  # fmt: skip
    anchor = Anchor(
        kind="receipt", reply=reply, command_id=command_id, role=role.value,
        head_seq=seq, head_hash=head, state_hash=state, received_at=_now(),
    )  # fmt: skip
    if signer is None or statement is None:
        return anchor
    # One command at a time here: a tree of one (its root the leaf's hash, no proof),
    # blinded as the gateway's are (docs/audit.md 8.4: every new tree is).
    (signed,) = sign_batch(signer, [statement], blinds=os.urandom(BLIND_BYTES))
    return msgspec.structs.replace(
        anchor, first_seq=first, key_id=signer.key_id, signature=signed.signature,
        leaf_index=signed.leaf_index, tree_size=signed.tree_size, proof=tuple(signed.proof),
        blind=signed.blind,
    )  # fmt: skip


def commitment_anchor(epoch: int, commitment: str) -> Anchor:
    """The seed commitment of `epoch` as it was announced."""
    return Anchor(kind="commitment", epoch=epoch, commitment=commitment, received_at=_now())


def kept(data_dir: Path, game_id: str) -> list[Anchor] | None:
    """The anchors this machine keeps for a game, or None if it keeps none."""
    path = receipts_path(data_dir, game_id)
    text = _read_kept(path)
    if text is None:
        return None
    game, anchors = read_receipts(text, str(path))
    if game != game_id:
        raise ReceiptsInvalid(f"{path} holds the receipts of game {game!r}, not {game_id!r}")
    return anchors


def read_file(path: Path, game_id: str) -> list[Anchor]:
    """The anchors of a receipts file given on the command line, for game `game_id`."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReceiptsInvalid(f"the receipts file {path} cannot be read ({exc})") from None
    game, anchors = read_receipts(text, str(path))
    if game != game_id:
        raise ReceiptsInvalid(
            f"the receipts file {path} is of game {game!r}, the log of game {game_id!r}"
        )
    return anchors


def cmd_receipts(settings: Any, args: Any) -> int:
    """`umpire receipts GAME`: print the receipts file this machine keeps for the game."""
    path = receipts_path(settings.data_dir, args.game)
    text = _read_kept(path)
    if text is None:
        raise NoReceipts(
            f"no receipts are kept for game {args.game!r} on this machine (looked for {path}): "
            "they are written by umpire new, bind, send, takeback and reveal, and by umpire play",
            game_id=args.game,
        )
    read_receipts(text, str(path))  # a damaged file is said so, not printed as if whole
    print(text, end="")
    return 0


def views_unchecked(envelopes: Sequence[Envelope], ruleset: Ruleset[Any]) -> str:
    """Why the receipts' state hashes cannot be checked under `ruleset`, or "". A game
    made under an older version of its rules was shown the views of that version, and a
    view the rules changed since (a field left out, a word corrected) hashes differently
    under the installed ones: a mismatch there proves nothing against the server, and
    calling it a forgery would accuse an honest log. Its head hashes are still checked,
    and they anchor every event."""
    made = created_of(envelopes[0]).ruleset_version
    if made == ruleset.version:
        return ""
    return (
        f"the game was made under {ruleset.name} v{made}, whose views the installed "
        f"v{ruleset.version} may not make again"
    )


def check_state_hashes(
    anchors: list[Anchor], envelopes: Sequence[Envelope], ruleset: Ruleset[Any]
) -> AnchorFailure | None:
    """The receipts' state hashes against the views the log gives (docs/audit.md 8.1):
    each receipt's role's view at its seq, rebuilt by folding the log, hashes to its
    `state_hash`. A view asked after the final reveal shows everything, so either the view
    before it or the revealed one may stand. The first receipt (by seq) that matches
    neither, or None. Call it only once the head hashes agree."""
    anchors, _ = split_signed(anchors, envelopes)  # an unsigned receipt counts for nothing
    kept = sorted((a for a in anchors if a.kind == "receipt" and a.state_hash),
                  key=lambda a: a.head_seq)  # fmt: skip
    game: Game | None = None
    folded = 0
    for a in kept:
        try:
            game = fold(envelopes[folded : a.head_seq], game, ruleset)
        except NeedsWholeLog:  # an amendment returns behind the last receipt's state
            game = fold(envelopes[: a.head_seq], None, ruleset)
        folded = a.head_seq
        assert game is not None
        views = [view_for(ruleset, game.state, Role(a.role), revealed=r) for r in (False, True)]
        seen = [receipt_state_hash(a.head_seq, a.head_hash, view) for view in views]
        if a.state_hash not in seen:
            return AnchorFailure(seq=a.head_seq, message=(
                f"{a.named()} states the {a.role}'s view at seq {a.head_seq} hashes to "
                f"{a.state_hash}; the view the log gives there hashes to {seen[0]}: the "
                "server showed a state the log does not make"
            ))  # fmt: skip
    return None
