"""What a session (server/session.py) asks of its driver, and what it leaves for it to do.

A session is a protocol state machine with no I/O, in the manner of websockets' sans-I/O
core: frames and results go in (with the time), frames, effects and requests come out.

- A request (`LoadGame`, `Handle`, `VerifyCredential`, `ReadPage`, ...) is work with an
  answer: the driver (server/driver.py) performs it and feeds the result back
  (`Session.resume`), or the error it raised (`Session.fail`), before anything else
  happens on the connection. The answer each request takes is in its docstring.
- An output (`Output`: a frame to send, `Follow`, `Unfollow`, `Close`) is left in the
  session's outbox, carried out in order once the frame's requests are all answered.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from msgspec import Struct

from umpire.engine.roles import Role
from umpire.events.receipt_signature import ReceiptSigner, Statement
from umpire.server.subscription import Subscription
from umpire.server.work_meter import WorkMeter

# -- outputs: what a frame leaves to be done once it is answered ---------------------------


@dataclass(frozen=True, slots=True)
class Follow:
    """Serve `sub` (attached to its feed, owed `sub.next_seq`): catch it up, then live."""

    sub: Subscription


@dataclass(frozen=True, slots=True)
class Unfollow:
    """`sub` was detached from its feed and its catch-up cancelled: wait for that to end
    (no frame of it may follow what comes next), then release the feed."""

    sub: Subscription


@dataclass(frozen=True, slots=True)
class Close:
    """Close the connection with `code` (the reader goes on draining for the handshake)."""

    code: int
    reason: str


# What `receive` leaves in the outbox, in the order it must be carried out.
Output = bytes | Follow | Unfollow | Close

# -- requests: work with an answer, performed before the session goes on -------------------
# Frozen Structs (msgspec): a dataclass's frozen __init__ is Python, ~1.2 us for a Handle
# (object.__setattr__ per field), a Struct's is C (~0.05 us), and a command makes four.
# The four of every command (Handle, CachedGame, GameSigner, SignReceipt) are untracked by
# the garbage collector (gc=False: nothing they hold refers back to them), as command
# handling's are (server/command_handling.py).


class Wait(Struct, frozen=True):
    """Wait `seconds` (a paced message waits for its budget). Answer: None."""

    seconds: float


class LoadGame(Struct, frozen=True):
    """Answer: `(ruleset, game)` at its head (server/games.py `Games.load`)."""

    game_id: str


class CachedGame(Struct, frozen=True, gc=False):
    """Answer: `(ruleset, game)`, the cached game if there is one (no round trip), else
    loaded."""

    game_id: str


class GameSigner(Struct, frozen=True, gc=False):
    """Answer: the ReceiptSigner of the game's receipts, or None (server/receipt_keys.py);
    cached after the first, so no round trip on the command path."""

    game_id: str


class SignReceipt(Struct, frozen=True, gc=False):
    """Answer: the BatchSignature of `statement` by `signer`: the receipts of one loop turn
    are signed as one tree (server/receipt_batch.py, docs/audit.md 8.4)."""

    signer: ReceiptSigner
    statement: Statement


class HeadView(Struct, frozen=True):
    """Answer: the `state` frame (ViewState) of the game's head as `role` sees it."""

    game_id: str
    role: Role
    request_id: str | None


class Referee(Struct, frozen=True):
    """Answer: who rules the game's disputes besides the operator (GameCreated.referee)."""

    game_id: str


class Actions(Struct, frozen=True):
    """Answer: the commands `role` may send now in `game` (off the event loop)."""

    ruleset: Any
    game: Any
    role: Role


class ReplayDistance(Struct, frozen=True):
    """Answer: how many events a replay to `at_seq` must fold (server/replay_cache.py)."""

    game_id: str
    at_seq: int
    key: tuple[str, int, str, bool]


class Replay(Struct, frozen=True):
    """Answer: `(state, ended, event_hash)`, `role`'s view after event `at_seq`: from the
    replay cache if the log still holds its event, else folded (and remembered)."""

    game_id: str
    ruleset: Any
    at_seq: int
    key: tuple[str, int, str, bool]
    role: Role
    revealed: bool


class CreateGame(Struct, frozen=True):
    """Answer: the `Created` of server/games.py (`duplicate` for a re-sent create)."""

    ruleset: str
    setup: dict[str, Any]
    client_seed: str | None
    client_entropy: str
    game_id: str | None
    scenario: str | None
    opponent_manual_dice: bool
    referee: str = "player"


class IssueCredentials(Struct, frozen=True):
    """Answer: `(player, spectator)` tokens for a new game, or for a re-sent create (in
    the slot `resent`, withdrawing its previous pair)."""

    game_id: str
    resent: str | None = None


class Handle(Struct, frozen=True, gc=False):
    """Answer: the `CommandResult` of appending `command` under the player credential
    `digest` (server/games.py `Games.handle`); the rules' work is added to `meter`."""

    game_id: str
    command_id: str
    command: Any
    manual_dice: Any
    expected_seq: int | None
    role: Role
    digest: str
    meter: WorkMeter
    nonce: str | None = None  # the command's own entropy (docs/security.md)


class BindClientSeed(Struct, frozen=True):
    """Answer: the `CommandResult` of binding the player's seed (docs/audit.md (4.1))."""

    game_id: str
    client_seed: str
    role: Role
    digest: str


class Dispute(Struct, frozen=True):
    """Answer: the `Filed` dispute (server/game_disputes.py `GameDisputes.dispute`).
    `digest`: the connection's credential for the game ("" for the operator's), which the
    append itself checks, as a command's: a revocation that lands while the dispute is in
    flight refuses it."""

    game_id: str
    role: Role
    seq: int
    claim: str
    reading: str
    value: str
    digest: str = ""
    # Given the CPU seconds of the finding's re-made lines, charged after (none if refused).
    meter: WorkMeter | None = None


class Rule(Struct, frozen=True):
    """Answer: the seq of the ruling appended (`GameDisputes.rule`); `digest` as a
    `Dispute`'s."""

    game_id: str
    role: Role
    dispute: int
    ruling: str
    digest: str = ""
    meter: WorkMeter | None = None  # an amendment's re-made line, as a `Dispute`'s


class VerifyCredential(Struct, frozen=True):
    """Answer: `(game_id, role)` the credential grants (Unauthorized if none)."""

    credential: str


class CredentialHeld(Struct, frozen=True):
    """Answer: whether the credential with `digest` still grants `game_id`."""

    game_id: str
    digest: str


class CredentialsHeld(Struct, frozen=True):
    """Answer: for each (game id, digest) of `grants`, whether that credential still
    grants its game (one round trip)."""

    grants: tuple[tuple[str, str], ...]


class RevokeCredential(Struct, frozen=True):
    """Answer: whether the credential existed; it is revoked, and every holder on this
    gateway has lost the game, when the answer comes."""

    credential: str
    game_id: str
    digest: str


class DropGrant(Struct, frozen=True):
    """Answer: how many connections held the credential; each has lost the game."""

    game_id: str
    digest: str


class ReadVersion(Struct, frozen=True):
    """Answer: the seq of the game's last event in the store (0: no log)."""

    game_id: str


class GameIds(Struct, frozen=True):
    """Answer: the ids of every game in the store (the operator's listing)."""


class ReadVersions(Struct, frozen=True):
    """Answer: each game's version (None: no such game), read as heavy work."""

    game_ids: list[str]


class ReadPage(Struct, frozen=True):
    """Answer: the game's events `start` to `end` from the store."""

    game_id: str
    start: int
    end: int


class AcknowledgedHead(Struct, frozen=True):
    """Answer: the highest seq of the game this machine's head checkpoints record as ever
    acknowledged (its head, or the last of a loss named); None when they hold nothing of it,
    or there are none (a Redis of the operator's, whose heads this machine does not keep)."""

    game_id: str


class FeedHead(Struct, frozen=True):
    """Answer: the head of this gateway's feed of the game, None if it has none open."""

    game_id: str


class OpenFeed(Struct, frozen=True):
    """Answer: the game's feed (server/game_feed.py), opened on first use."""

    game_id: str


class StopCatchUp(Struct, frozen=True):
    """Cancel `sub`'s catch-up task, if it has one, at once. Answer: None."""

    sub: Subscription


Request = (
    Wait | LoadGame | CachedGame | GameSigner | SignReceipt | HeadView | Referee | Actions
    | ReplayDistance
    | Replay
    | CreateGame | IssueCredentials | Handle | BindClientSeed | Dispute | Rule | VerifyCredential
    | CredentialHeld | CredentialsHeld
    | RevokeCredential | DropGrant | ReadVersion | GameIds | ReadVersions | ReadPage
    | FeedHead | OpenFeed | StopCatchUp | AcknowledgedHead
)  # fmt: skip

T = TypeVar("T")

# A session's work: a generator that yields requests and is sent each one's answer,
# returning its result (`answer = yield LoadGame(...)`, `x = yield from self._step(...)`).
Steps = Generator[Request, Any, T]
