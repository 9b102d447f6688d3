"""An asyncio client for umpire's websocket gateway.

- requests are answered by id; commands get generated ids and are retried safely by id;
- `subscribe()` is an async iterator of events, exactly once and in order;
- after a dropped connection the client reconnects, re-authenticates, resumes every
  subscription from its last seen seq, and re-sends requests that had no answer;
- it keeps the receipts of the games it plays (`receipts`, clients/receipts.py: every
  `created`, `accepted` and `state` receipt, and each epoch's seed commitment), which the
  verifiers take as anchors (docs/audit.md 8.1), and checks each receipt's signature
  against the game's receipt key as it arrives: one that fails is kept marked
  `client_check`, and a `created` or `accepted` one raises `ReceiptNotSigned` (a `state`
  one raises nothing: it wrote nothing; docs/audit.md 8.2).

Restoring a connection (`_restore`) asks, and reads each answer, in order: every kept
credential's `auth`, then every open subscription's `subscribe` from its last seq, then
the requests still unanswered; only then do new requests go out. Each of its requests
carries an id, so a refusal reaches it (an id-less one would be dropped, and the
subscription would wait forever). A refusal that retrying cannot change (`unauthorized`
for a revoked credential, `game_not_found`, a bad request) drops the credential from
`credentials` and ends the affected subscription's iterator with `UmpireError`. A
transient one (`RETRIED`: `over_budget`, `store_unavailable`, `shutting_down`) is asked
again after a capped, jittered pause (events/backoff.py: 0.1 s doubling to 2 s; at least
the server's `retry_after`, up to `RETRY_AFTER_CAP`), for as long as the connection
lasts, and the subscription resumes from its last seq: no gap, no repeat.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
from asyncio import FIRST_COMPLETED
from collections.abc import AsyncIterator, Callable, Collection
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from umpire.clients import gateway_owner
from umpire.clients.gateway_owner import GatewayNotYours, check_gateway_owner
from umpire.clients.receipts import (
    MemoryReceipts,
    Receipts,
    commitment,
    receipt,
    receipt_fault,
)
from umpire.events.backoff import Backoff
from umpire.events.nonce_key import derive_nonce
from umpire.events.receipt import Anchor
from umpire.events.wire import (
    Accepted,
    Authenticated,
    Created,
    Error,
    EventFrame,
    ServerMessage,
    ViewState,
)

_decoder = msgspec.json.Decoder(ServerMessage)


def _text(message: dict[str, Any]) -> str:
    """JSON text (a str, so websockets sends a text frame)."""
    return msgspec.json.encode(message).decode()


class UmpireError(Exception):
    """An error frame from the server."""

    def __init__(self, error: Error) -> None:
        super().__init__(f"{error.code}: {error.message}")
        self.code = error.code
        self.message = error.message
        self.details = error.details
        # For a refused `create`: the create_id it sent, to send again with (a create
        # refused `store_unavailable` may have been written; the same id finds that game).
        self.create_id: str | None = None


class ReceiptNotSigned(UmpireError):
    """A `created` or `accepted` reply whose receipt is not validly signed by the game's
    receipt key (docs/audit.md 8.4): missing, by another key, or not verifying. The reply's
    effect stands (the game was created, the command appended: `reply` holds it); only the
    receipt proves nothing. It is kept all the same, marked (`client_check`), as evidence
    of what the server sent."""

    def __init__(self, game_id: str, reply: Created | Accepted, seq: int, why: str) -> None:
        kind = "accepted" if isinstance(reply, Accepted) else "created"
        command_id = reply.command_id if isinstance(reply, Accepted) else ""
        what = f"command {command_id}" if command_id else "the creation"
        super().__init__(Error(
            code="receipt_not_signed",
            message=(
                f"the server's {kind} receipt for {what} of game {game_id} (seq {seq}) did "
                f"not verify: {why}; the reply stands, its receipt proves nothing"
            ),
            details={"game_id": game_id, "reply": kind, "command_id": command_id,
                     "seq": seq, "why": why},
        ))  # fmt: skip
        self.game_id = game_id
        self.reply = reply
        self.seq = seq
        self.why = why
        # For a failed `create` (or its seed binding): the game made, as `create` returns it.
        self.created: Created | None = None


def new_create_id() -> str:
    """A fresh random create_id (32 characters of A-Z a-z 0-9 _ -): a secret, since
    whoever sends it gets a player credential for its game."""
    return secrets.token_urlsafe(24)


# Unsolicited error codes that end a subscription: its iterator raises UmpireError.
SUBSCRIPTION_ENDED = frozenset({"credential_revoked", "log_rewound", "log_gap"})

# Refusals of a re-auth or resubscribe that asking again can change (docs/protocol.md,
# "error frames"): the store away, the gateway's admission, a draining gateway (which
# then closes: the next connection asks again). Every other code ends what it refused.
RETRIED = frozenset({"over_budget", "store_unavailable", "shutting_down"})
# The longest `retry_after` (over_budget's details) honoured before asking again, s.
RETRY_AFTER_CAP = 30.0
# How long reading a game's receipt key (its GameCreated) may take, s.
KEY_READ_TIMEOUT = 10.0


class _Subscription:
    def __init__(self, game_id: str, last_seq: int | None, view: bool, views: bool = False) -> None:
        self.game_id = game_id
        # Pushed state frames (subscribe `views`): the newest not yet delivered, held until
        # every event up to its seq is (a resubscribe's state of the head comes first).
        self.views = views
        self.state_seq = 0
        self.held: ViewState | None = None
        # With a view and no from_seq, events follow the view's seq.
        self.from_view = view and last_seq is None
        self.last_seq = last_seq or 0
        self.view = view
        self.view_sent = False
        self.queue: asyncio.Queue[EventFrame | ViewState | Error] = asyncio.Queue()
        self.request_id: str | None = None  # its first subscribe's (re-sent while unanswered)


class _Request:
    """A request waiting for its answer, and the connection it was last sent on (so a
    reconnect and the caller do not both send it on the same one)."""

    __slots__ = ("future", "message", "sent_on")

    def __init__(self, message: dict[str, Any], future: asyncio.Future[Any]) -> None:
        self.message = message
        self.future = future
        self.sent_on: ClientConnection | None = None


class UmpireClient:
    """A connection to one gateway that survives reconnects.

    After a drop it reconnects (every `retry_delay` s while `reconnect` is set) and
    restores what it held: the kept credentials, the open subscriptions from their last
    seq, the unanswered requests (module docstring). A credential whose re-auth is refused
    for good leaves `credentials`; a subscription whose resubscribe is refused for good
    ends: its iterator raises `UmpireError` with the server's error (for a revoked
    credential, the refused auth's `unauthorized`).
    """

    def __init__(
        self,
        url: str,
        *,
        reconnect: bool = True,
        retry_delay: float = 0.05,
        receipts: Receipts | None = None,
        trusted_uids: Collection[int] | None = None,
        trust_gateway_at: Collection[str] | None = None,
    ) -> None:
        self.url = url
        # Other local accounts whose gateway this client may talk to on loopback, besides
        # this one and root (clients/gateway_owner.py; default: UMPIRE_GATEWAY_UIDS).
        self.trusted_uids = gateway_owner.trusted_uids() if trusted_uids is None else trusted_uids
        # Gateway addresses (host:port) talked to although the kernel cannot name their
        # owner, by the user's choice (default: UMPIRE_TRUST_GATEWAY_AT); none, else.
        self.trust_gateway_at = (
            gateway_owner.trusted_addresses()
            if trust_gateway_at is None
            else frozenset(a.lower() for a in trust_gateway_at)
        )
        # The anchors of the games played (clients/receipts.py, docs/audit.md 8.1).
        self.receipts: Receipts = receipts if receipts is not None else MemoryReceipts()
        self.reconnect = reconnect
        self.retry_delay = retry_delay
        self.credentials: list[str] = []
        self.subscriptions: dict[str, _Subscription] = {}
        self._ws: ClientConnection | None = None
        self._pending: dict[str, _Request] = {}
        # The restore's own requests: answered to it, never re-sent by a reconnect.
        self._restoring: dict[str, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self._reader: asyncio.Task[None] | None = None
        self._restore_task: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self._closed = False
        self.reconnects = 0
        self.retries = 0  # re-auths and resubscribes asked again after a transient refusal
        # Keys each command's nonce (`nonce_for`); never sent, so nobody else can know a
        # nonce before its command arrives. Kept with the receipts (read on first use).
        self._nonce_key: bytes | None = None
        # Each game's receipt key (docs/audit.md 8.4), against which every `created` and
        # `accepted` receipt is checked as it arrives: from `created`, or from the game's
        # GameCreated (seen in a subscription, or read with the game's credential).
        self.receipt_keys: dict[str, str] = {}
        self._credential_of: dict[str, str] = {}

    async def __aenter__(self) -> UmpireClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        """Open the connection (and keep reopening it while `reconnect` is set)."""
        await self._open()
        self._reader = asyncio.create_task(self._read_loop())
        self._start_restore()

    async def _open(self) -> None:
        ws = await connect(self.url, max_size=2**24, open_timeout=5)
        try:  # whose gateway it is, before anything is sent there (clients/gateway_owner.py)
            transport = ws.transport
            check_gateway_owner(transport.get_extra_info("sockname"),
                                transport.get_extra_info("peername"), self.url,
                                self.trusted_uids, self.trust_gateway_at)  # fmt: skip
        except GatewayNotYours:
            ws.transport.abort()  # no closing handshake with it either
            raise
        self._ws = ws
        welcome = await self._ws.recv()
        msgspec.json.decode(welcome)  # the welcome frame; nothing to keep

    def _start_restore(self) -> None:
        """Restore this connection's state in a task of its own: its answers arrive
        through the reader, which must not wait for them."""
        assert self._ws is not None
        self._restore_task = asyncio.create_task(self._restore(self._ws))

    def _stop_restore(self) -> None:
        """The connection is gone: its restore and the answers it waited for with it."""
        if self._restore_task is not None:
            self._restore_task.cancel()
            self._restore_task = None
        for future in self._restoring.values():
            future.cancel()
        self._restoring.clear()

    async def _restore(self, ws: ClientConnection) -> None:
        """Re-auth, then resubscribe, then re-send the unanswered requests, reading each
        answer before the next step (a subscribe needs its auth); then let new requests
        out. A drop ends this early: the next connection starts again."""
        try:
            refused = await self._restore_credentials(ws)
            await self._restore_subscriptions(ws, refused)
            for pending in list(self._pending.values()):
                if pending.sent_on is not ws:
                    pending.sent_on = ws
                    await ws.send(_text(pending.message))
        except ConnectionClosed:
            return
        self._connected.set()

    async def _ask(self, ws: ClientConnection, message: dict[str, Any]) -> Any:
        """Send one of the restore's requests and return its answer (an Error included)."""
        request_id = f"r{next(self._ids)}"
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._restoring[request_id] = future
        try:
            await ws.send(_text({**message, "id": request_id}))
            return await future
        finally:
            self._restoring.pop(request_id, None)

    async def _ask_until_settled(
        self, ws: ClientConnection, message: Callable[[], dict[str, Any]]
    ) -> Any:
        """Ask until the answer is not a transient refusal (RETRIED), pausing with
        capped, jittered backoff, and at least the server's `retry_after`, in between."""
        backoff = Backoff()
        while True:
            answer = await self._ask(ws, message())
            if not (isinstance(answer, Error) and answer.code in RETRIED):
                return answer
            pause = backoff.next()
            retry_after = answer.details.get("retry_after") if answer.details else None
            if isinstance(retry_after, int | float):
                pause = max(pause, min(float(retry_after), RETRY_AFTER_CAP))
            self.retries += 1
            await asyncio.sleep(pause)

    async def _restore_credentials(self, ws: ClientConnection) -> dict[str, Error]:
        """Present every kept credential again. One refused for good is dropped from
        `credentials`; the refusals, by the game their credential names."""
        refused: dict[str, Error] = {}
        for credential in list(self.credentials):

            def message(credential: str = credential) -> dict[str, Any]:
                return {"type": "auth", "credential": credential}

            answer = await self._ask_until_settled(ws, message)
            if isinstance(answer, Error):
                self.credentials = [kept for kept in self.credentials if kept != credential]
                game_id = answer.details.get("game_id") if answer.details else None
                if not isinstance(game_id, str):
                    game_id = credential.partition(".")[0]  # credentials read <game id>.<token>
                refused[game_id] = answer
        return refused

    async def _restore_subscriptions(self, ws: ClientConnection, refused: dict[str, Error]) -> None:
        """Resubscribe every open subscription from its last seq. One refused for good
        ends with that error (with its game's refused auth, if one was: the cause)."""
        for game_id, sub in list(self.subscriptions.items()):
            if sub.request_id in self._pending:
                continue  # its first subscribe is unanswered: re-sent as it was, below

            def message(sub: _Subscription = sub) -> dict[str, Any]:
                frame: dict[str, Any] = {"type": "subscribe", "game_id": sub.game_id}
                if sub.view and not sub.view_sent:  # the drop came between answer and view
                    frame["view"] = True
                    if sub.from_view:
                        return frame  # events follow the view's seq
                frame["from_seq"] = sub.last_seq
                if sub.views:  # the state of the head, for the batches missed while away
                    frame["views"] = frame["view"] = True
                return frame

            answer = await self._ask_until_settled(ws, message)
            if isinstance(answer, Error) and self.subscriptions.get(game_id) is sub:
                if answer.code == "unauthorized" and game_id in refused:
                    answer = refused[game_id]
                del self.subscriptions[game_id]
                sub.queue.put_nowait(answer)

    async def close(self) -> None:
        """Close for good."""
        self._closed = True
        restore = self._restore_task
        self._stop_restore()
        if restore is not None:
            await asyncio.wait([restore])
        if self._reader is not None:
            self._reader.cancel()
            # asyncio.wait, not `await` in suppress(CancelledError): that would also
            # swallow a cancellation aimed at the caller of close() while it waits.
            await asyncio.wait([self._reader])
            if not self._reader.cancelled():
                self._reader.exception()  # retrieved: the reader's failure is not close()'s
        if self._ws is not None:
            await self._ws.close()

    async def _read_loop(self) -> None:
        while not self._closed:
            ws = self._ws
            assert ws is not None
            try:
                async for raw in ws:
                    self._deliver(_decoder.decode(raw))
            except ConnectionClosed:
                pass
            self._connected.clear()
            self._stop_restore()
            if self._closed or not self.reconnect:
                for pending in self._pending.values():
                    if not pending.future.done():
                        pending.future.set_exception(ConnectionError("connection closed"))
                return
            while not self._closed:
                await asyncio.sleep(self.retry_delay)
                try:
                    await self._open()
                    self.reconnects += 1
                    break
                except (OSError, ConnectionClosed, TimeoutError, GatewayNotYours):
                    continue  # another account's listener meanwhile: wait for ours
            if not self._closed:
                self._start_restore()

    def _deliver(self, message: Any) -> None:
        if isinstance(message, EventFrame):
            sub = self.subscriptions.get(message.game_id)
            # Resume may replay what was queued before a drop: keep exactly once.
            if sub is not None and message.seq == sub.last_seq + 1:
                sub.last_seq = message.seq
                self._keep_event(message)
                sub.queue.put_nowait(message)
                self._release_state(sub)
            return
        request_id = getattr(message, "id", None)
        restoring = self._restoring.pop(request_id, None) if request_id is not None else None
        if restoring is not None:
            if not restoring.done():
                restoring.set_result(message)
            return
        if isinstance(message, Error) and request_id is None:
            # Unsolicited: a subscription the server ended (credential_revoked,
            # log_rewound, log_gap) ends its iterator with that error.
            game_id = message.details.get("game_id") if message.details else None
            if message.code in SUBSCRIPTION_ENDED and isinstance(game_id, str):
                ended = self.subscriptions.pop(game_id, None)
                if ended is not None:
                    ended.queue.put_nowait(message)
            return
        if (
            isinstance(message, ViewState)
            and request_id not in self._pending
            and message.game_id in self.subscriptions
        ):
            sub = self.subscriptions[message.game_id]
            if sub.view and not sub.view_sent:
                sub.view_sent = True
                sub.queue.put_nowait(message)
                sub.last_seq = max(sub.last_seq, message.seq) if sub.from_view else sub.last_seq
                sub.state_seq = message.seq
            elif sub.views and message.seq > sub.state_seq:
                if sub.held is None or message.seq > sub.held.seq:
                    sub.held = message
                self._release_state(sub)
            return
        if request_id is None or request_id not in self._pending:
            return
        future = self._pending.pop(request_id).future
        if future.done():
            return
        if isinstance(message, Error):
            future.set_exception(UmpireError(message))
        else:
            future.set_result(message)

    @staticmethod
    def _release_state(sub: _Subscription) -> None:
        """Deliver the held pushed state once every event up to its seq is delivered."""
        held = sub.held
        if held is not None and held.seq <= sub.last_seq:
            sub.held = None
            if held.seq > sub.state_seq:
                sub.state_seq = held.seq
                sub.queue.put_nowait(held)

    async def request(self, message: dict[str, Any], timeout: float = 30.0) -> Any:
        """Send a message and wait for its answer (re-sent after a reconnect, once the
        connection's credentials and subscriptions are restored). `timeout` counts from
        now, a wait for the restore included: TimeoutError after it."""
        request_id = message.get("id") or f"r{next(self._ids)}"
        message = {**message, "id": request_id}
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        pending = _Request(message, future)
        self._pending[request_id] = pending
        try:
            return await asyncio.wait_for(self._send(pending), timeout)
        finally:
            self._pending.pop(request_id, None)

    async def _send(self, pending: _Request) -> Any:
        """Send `pending` once the connection is restored (unless the restore sent it on
        this connection already) and return its answer."""
        if not self._connected.is_set():
            # Or its answer is settled first: a connection closed for good fails it.
            restored = asyncio.ensure_future(self._connected.wait())
            try:
                await asyncio.wait([restored, pending.future], return_when=FIRST_COMPLETED)
            finally:
                restored.cancel()
            if pending.future.done():
                return pending.future.result()
        with contextlib.suppress(ConnectionClosed):
            ws = self._ws
            assert ws is not None
            if pending.sent_on is not ws:
                pending.sent_on = ws
                await ws.send(_text(pending.message))
        return await pending.future

    async def create(
        self,
        ruleset: str,
        setup: dict[str, Any] | None = None,
        client_seed: str | None = None,
        scenario: str | None = None,
        *,
        client_entropy: str = "bind",
        opponent_manual_dice: bool = False,
        create_id: str | None = None,
        referee: str = "player",
    ) -> Created:
        """Create a game and bind this client's seed to its dice (docs/audit.md (4.1)).

        The server answers with the commitment to its secret seed first; only then does
        the client send its own seed (`client_seed`, default fresh random entropy), so
        neither side can choose its seed knowing the other's. The returned `created` holds
        the bound client seed. With `client_entropy="waived"` nothing is bound: the server's
        seed alone derives the dice, and the game's log says so.

        The player credential is kept for reconnects. A create_id makes the request safe
        to re-send: it names one game. Without `create_id` a fresh one is generated; the
        client re-sends it itself after a reconnect, and a refused create's `UmpireError`
        carries it (`.create_id`), so a caller retrying after `store_unavailable` (the
        game may have been written) passes it back: `create(..., create_id=err.create_id)`
        answers with the game the first attempt made, never a second game.
        """
        create_id = create_id if create_id is not None else new_create_id()
        message: dict[str, Any] = {
            "type": "create",
            "ruleset": ruleset,
            "setup": setup or {},
            "create_id": create_id,
            "client_entropy": client_entropy,
        }
        if scenario is not None:
            message["scenario"] = scenario
        if opponent_manual_dice:
            message["opponent_manual_dice"] = True
        if referee != "player":  # who rules on the game's disputes (docs/audit.md)
            message["referee"] = referee
        try:
            created: Created = await self.request(message)
        except UmpireError as refused:
            refused.create_id = create_id
            raise
        self.credentials.append(created.player_credential)
        self._credential_of.setdefault(created.game_id, created.player_credential)
        self.receipt_keys.setdefault(created.game_id, created.receipt_key)
        # The create_id is a secret (it gets a player credential): never kept with them.
        self.receipts.keep(
            created.game_id, commitment(0, created.seed_commitment), created.receipt_key
        )
        failed: ReceiptNotSigned | None = None
        if created.head_seq:
            failed = await self._keep_signed(created, "created", "", 1, created.head_seq)
        if client_entropy == "bind" and not created.client_seed:
            seed = client_seed if client_seed is not None else secrets.token_hex(16)
            created = msgspec.structs.replace(created, client_seed=seed)
            try:
                await self.bind_seed(created.game_id, seed)
            except ReceiptNotSigned as unsigned:  # the game stands: say so with it
                unsigned.created = created
                failed = failed or unsigned
        if failed is not None:
            failed.created = created
            raise failed
        return created

    async def bind_seed(self, game_id: str, client_seed: str | None = None) -> Accepted:
        """Bind a client seed (default fresh random entropy) to the game's current seed
        epoch: after `create`, and again after each mid-game reveal, before the next roll."""
        accepted: Accepted = await self.request(
            {
                "type": "bind_seed",
                "game_id": game_id,
                "client_seed": client_seed if client_seed is not None else secrets.token_hex(16),
            }
        )
        await self._keep_accepted(accepted)
        return accepted

    async def _keep_accepted(self, accepted: Accepted) -> None:
        """Keep an `accepted` reply's receipt; ReceiptNotSigned (after keeping it) if its
        signature does not verify."""
        if accepted.head_seq:  # 0: the reply went without a receipt (the store went away)
            first = accepted.seqs[0] if accepted.seqs else accepted.head_seq
            failed = await self._keep_signed(
                accepted, "accepted", accepted.command_id, first, accepted.head_seq
            )
            if failed is not None:
                raise failed

    async def _keep_signed(
        self, reply: Created | Accepted, kind: str, command_id: str, first: int, seq: int
    ) -> ReceiptNotSigned | None:
        """Check a signed reply's receipt against the game's key as it arrives, and keep it
        either way (a failed one marked `client_check`: it is evidence); the error to raise
        if it failed."""
        game_id = reply.game_id
        anchor = receipt(
            kind, command_id, "player", seq, reply.head_hash, reply.state_hash,
            first_seq=first, key_id=reply.key_id, signature=reply.signature,
            leaf_index=reply.leaf_index, tree_size=reply.tree_size, proof=reply.proof,
            blind=reply.blind,
        )  # fmt: skip
        why = await self._check_and_keep(game_id, anchor)
        return ReceiptNotSigned(game_id, reply, seq, why) if why else None

    async def _check_and_keep(self, game_id: str, anchor: Anchor) -> str:
        """Check `anchor`'s signature against the game's key and keep it, a failed one
        marked `client_check`; what failed ("" if nothing)."""
        why = receipt_fault(game_id, anchor, await self._game_key(game_id))
        if why:
            anchor = msgspec.structs.replace(anchor, client_check=why)
        self.receipts.keep(game_id, anchor)
        return why

    async def _game_key(self, game_id: str) -> str:
        """The game's receipt key: as `created` gave it, or as its GameCreated names it
        (seen in a subscription, or read once over a connection of its own with the
        credential this client holds for the game: `_read_game_key`)."""
        key = self.receipt_keys.get(game_id)
        if key is None:
            try:
                key = await asyncio.wait_for(self._read_game_key(game_id), KEY_READ_TIMEOUT)
            except (UmpireError, ConnectionClosed, OSError, TimeoutError, GatewayNotYours):
                return ""  # unread: this receipt goes unchecked; the next one asks again
            self.receipt_keys[game_id] = key
        return key

    async def _read_game_key(self, game_id: str) -> str:
        """The receipt key GameCreated (seq 1) names, read with a subscription from seq 0
        on a short connection of its own (the main one's subscription of the game, if any,
        goes on undisturbed). "" if this client holds no credential for the game."""
        credential = self._credential_of.get(game_id)
        if credential is None:
            return ""
        async with connect(self.url, max_size=2**24, open_timeout=5) as ws:
            transport = ws.transport
            check_gateway_owner(transport.get_extra_info("sockname"),
                                transport.get_extra_info("peername"), self.url,
                                self.trusted_uids, self.trust_gateway_at)  # fmt: skip
            try:
                await ws.send(_text({"type": "auth", "credential": credential, "id": "k1"}))
                await ws.send(_text({"type": "subscribe", "game_id": game_id, "from_seq": 0,
                                     "id": "k2"}))  # fmt: skip
                async for raw in ws:
                    message = _decoder.decode(raw)
                    if isinstance(message, Error):
                        raise UmpireError(message)
                    if isinstance(message, EventFrame) and message.game_id == game_id:
                        payload = message.payload if isinstance(message.payload, dict) else {}
                        key = payload.get("receipt_key", "")
                        return key if message.event_type == "GameCreated" and isinstance(
                            key, str) else ""  # fmt: skip
            finally:
                # Dropped, not closed: the catch-up's later events, unread, fill the
                # library's queue (16 frames), which then stops reading, so a close
                # handshake waited behind them for the server's close frame until its
                # close_timeout (10 s), longer than KEY_READ_TIMEOUT: on a game of more
                # than a few dozen events every command of `umpire play` took 10 s and
                # its receipt went unchecked. Nothing is owed on this connection.
                ws.transport.abort()
        return ""

    async def _keep_state(self, state: ViewState) -> None:
        """Keep a `state` frame's receipt, its signature checked as an `accepted` one's
        (docs/audit.md 8.2): a failed one is kept marked `client_check`, and nothing is
        raised (a state writes nothing, and a subscription goes on: the mark is for the
        verifier, which checks every signature again)."""
        if not state.head_hash:
            return
        game_id = state.game_id
        anchor = receipt(
            "state", "", state.role, state.seq, state.head_hash, state.state_hash,
            first_seq=state.seq, key_id=state.key_id, signature=state.signature,
            leaf_index=state.leaf_index, tree_size=state.tree_size, proof=state.proof,
            blind=state.blind,
        )  # fmt: skip
        await self._check_and_keep(game_id, anchor)

    def _keep_event(self, frame: EventFrame) -> None:
        """A mid-game reveal announces the next epoch's commitment: keep it. GameCreated
        names the game's receipt key: learn it."""
        if frame.event_type == "GameCreated" and isinstance(frame.payload, dict):
            key = frame.payload.get("receipt_key", "")
            if isinstance(key, str):
                self.receipt_keys.setdefault(frame.game_id, key)
        if frame.event_type == "SeedRevealed" and isinstance(frame.payload, dict):
            following, epoch = frame.payload.get("next_commitment"), frame.payload.get("epoch")
            if following and isinstance(epoch, int):
                self.receipts.keep(frame.game_id, commitment(epoch + 1, following))

    async def auth(self, credential: str) -> Any:
        """Present a credential (kept for reconnects)."""
        result = await self.request({"type": "auth", "credential": credential})
        self.credentials.append(credential)
        if isinstance(result, Authenticated) and result.game_id:
            self._credential_of.setdefault(result.game_id, credential)
        return result

    async def send(
        self,
        game_id: str,
        command: dict[str, Any],
        *,
        dice: list[list[int]] | None = None,
        command_id: str | None = None,
        expected_seq: int | None = None,
        nonce: str | None = None,
    ) -> Accepted:
        """Send a player command; a generated command id makes retries safe.

        Without `dice` the command carries its nonce (default `nonce_for`): the entropy its
        server rolls also derive from (docs/security.md). A caller that keeps its own
        (a bot that derives nonces from a secret of its own) passes it."""
        command_id = command_id or "c-" + secrets.token_hex(8)
        message: dict[str, Any] = {
            "type": "command",
            "game_id": game_id,
            "command_id": command_id,
            "command": command,
        }
        if dice is not None:
            message["dice"] = dice
        else:
            message["nonce"] = nonce or self.nonce_for(game_id, command_id)
        if expected_seq is not None:
            message["expected_seq"] = expected_seq
        accepted: Accepted = await self.request(message)
        await self._keep_accepted(accepted)
        return accepted

    def nonce_for(self, game_id: str, command_id: str) -> str:
        """The nonce this client sends with command `command_id` of `game_id`: 32 hex
        digits of HMAC-SHA256 under the key kept with its receipts (events/nonce_key.py).
        Nobody else can know it before the command is sent, and a command sent again under
        the same id, by this client or by any restart of it on the same receipts, carries
        the same nonce, so a server that drops a command after seeing its roll gets the
        same roll when it comes again (docs/security.md)."""
        if self._nonce_key is None:
            self._nonce_key = self.receipts.nonce_key()
        return derive_nonce(self._nonce_key, game_id, command_id)

    async def view(self, game_id: str) -> ViewState:
        """The game's current state as this connection's role sees it."""
        state: ViewState = await self.request({"type": "view", "game_id": game_id})
        await self._keep_state(state)
        return state

    async def list_games(self) -> Any:
        """The games this connection holds credentials for."""
        return await self.request({"type": "list_games"})

    async def subscribe(
        self, game_id: str, from_seq: int | None = None, *, view: bool = False, views: bool = False
    ) -> AsyncIterator[EventFrame | ViewState]:
        """Every event after `from_seq` (default: from the start, or after the view when
        `view` is asked for), in order, across reconnects. The view, if asked, comes first.
        Raises UmpireError when the server ends the subscription (`credential_revoked`,
        `log_rewound`: subscribe again, with view, to follow the game from the log's head;
        `log_gap`: the log skips seqs, so nothing after them can come in order),
        or when a reconnect's resubscribe, or the re-auth it needs, is refused for good
        (`unauthorized` for a credential revoked while the connection was down,
        `game_not_found`, ...). A transient refusal of those (`over_budget`,
        `store_unavailable`, `shutting_down`) is asked again with backoff, and the events
        resume after the last one delivered.

        With `views`, the server also pushes this role's new state (a `ViewState`, with
        its `actions`) after each batch of events: it is yielded after the batch's events,
        so a player never needs `view` after a command (docs/protocol.md, "Pushed
        states"). After a reconnect the state of the head follows the missed events."""
        sub = _Subscription(game_id, from_seq, view, views)
        sub.request_id = f"r{next(self._ids)}"
        self.subscriptions[game_id] = sub
        message: dict[str, Any] = {"type": "subscribe", "game_id": game_id, "id": sub.request_id}
        if from_seq is not None or not view:
            message["from_seq"] = from_seq or 0
        if view:
            message["view"] = True
        if views:
            message["views"] = True
        await self.request(message)
        try:
            while True:
                item = await sub.queue.get()
                if isinstance(item, Error):
                    raise UmpireError(item)
                if isinstance(item, ViewState):
                    await self._keep_state(item)
                yield item
        finally:
            if self.subscriptions.get(game_id) is sub:
                del self.subscriptions[game_id]
