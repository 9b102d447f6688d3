"""The protocol of one client connection, without sockets: frames in, frames and effects out.

A `Session` holds what a connection knows about its client: the credentials it presented
and the roles they grant, its admission budget and message rate, its subscriptions. Each
frame the client sent goes to `receive`, which decodes it, charges it, carries it out
through the gateway's services (games, feeds, replays: the store is behind them) and
appends what the connection must do to `outbox`: frames to send (bytes, in order) and
effects (`Follow`, `Unfollow`, `Close`). As in websockets' own protocol core
(`data_to_send`), nothing here touches a socket, a writer task or backpressure: the
connection (server/gateway.py) reads frames, writes the outbox and carries out the
effects; tests/server/test_session.py drives a session with no socket at all.

Every error a message causes is answered here, as a typed `error` frame with the request
id, and the session goes on.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from dataclasses import dataclass
from typing import Any, NoReturn, Protocol

import msgspec

from umpire.engine import registry
from umpire.engine.game import ruleset_of
from umpire.engine.map_view import drawn
from umpire.engine.redaction import view_for
from umpire.engine.replay import SeqOutOfRange
from umpire.engine.roles import Role
from umpire.events.errors import LogRewound, UmpireError
from umpire.events.receipt import receipt_state_hash
from umpire.events.store import Credential, Store
from umpire.events.unreachable import UNREACHABLE, unavailable
from umpire.events.wire import (
    CLOSE_RATE_LIMIT,
    PROTOCOL_VERSION,
    Accepted,
    Auth,
    Authenticated,
    BindSeed,
    Create,
    Created,
    Error,
    GameList,
    GameSummary,
    GetView,
    ListGames,
    Revoke,
    Revoked,
    SendCommand,
    Subscribe,
    Subscribed,
    Unsubscribe,
    Unsubscribed,
    ViewState,
    Welcome,
    client_decoder,
    encoder,
)
from umpire.server import credentials
from umpire.server.admission import (
    CREATE_COST,
    MESSAGE_COST,
    Admission,
    OverBudget,
    Refusal,
    TooManyGrants,
    listing_cost,
    replay_cost,
    work_cost,
)
from umpire.server.config import Settings
from umpire.server.credentials import Unauthorized
from umpire.server.feed import Notifier, Sink, Subscription
from umpire.server.games import Games, game_id_for_create
from umpire.server.metrics import Metrics
from umpire.server.mistakes import MistakeLog
from umpire.server.nesting import MAX_DEPTH, too_deep
from umpire.server.replay_cache import ReplayCache
from umpire.server.rules_pool import WorkMeter

# The gateway's logger: a session is the protocol half of a gateway connection.
log = logging.getLogger("umpire.gateway")

# After an over_budget refusal a connection is not read for the time until it could pay,
# within these bounds (a client that retries at once must not cost a refusal each time).
MIN_PAUSE = 0.25
MAX_PAUSE = 5.0
# A paced message waits for its budget in steps of at most this (a draining gateway
# answers it at the next step).
PACE_STEP = 0.5
RULESET_NAMES_REMEMBERED = 100_000
LIST_PAGE = 20  # games whose versions one pipeline reads (redis-py parses ~60 µs each)
# The credentials slot of a re-sent create: each re-send withdraws the previous one's.
RESENT_CREATE_SLOT = "resent-create"
# The request id of a frame too deep to parse, found without parsing it (best effort).
_REQUEST_ID = re.compile(r'"id"\s*:\s*"([^"\\]{1,128})"')
_ALLOWED = "create, auth, subscribe, unsubscribe, command, list_games, view, revoke, bind_seed"


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


class Shared(Protocol):
    """What every session of one gateway shares (server/gateway.py `Gateway`)."""

    settings: Settings
    games: Games
    store: Store
    notifier: Notifier
    metrics: Metrics
    mistakes: MistakeLog
    admission: Admission
    heavy: asyncio.Lock
    replays: ReplayCache
    ruleset_names: dict[str, str]
    holders: dict[tuple[str, str], set[Any]]
    revoked: dict[tuple[str, str], None]
    draining: bool

    def revoked_now(self, game_id: str, digest: str) -> None:
        """Every holder of the credential loses the game at once."""
        ...

    async def drop_grant(self, game_id: str, digest: str) -> int:
        """Every holder of the credential loses the game; how many did."""
        ...


class Session:
    """One client's protocol state: grants, admission, subscriptions, dispatch.

    `holder` is what the gateway's tables name for this client (its connection): it is
    registered as a holder of each credential granted here, so that a revocation reaches
    it, and it is the sink of this session's subscriptions."""

    # Slots: a gateway holds one session per connection, most of them idle (no instance
    # dict: python -m bench's memory per idle connection). A weak reference is how tests
    # see a session freed.
    __slots__ = (
        "__weakref__", "address", "budget", "grants", "gw", "holder", "operator", "outbox",
        "paused_until", "refilled", "revoked_games", "roles", "settings", "subs", "tokens",
    )  # fmt: skip

    def __init__(self, shared: Shared, address: str, holder: Sink, now: float) -> None:
        self.gw = shared
        self.settings = shared.settings
        self.address = address
        self.holder = holder
        self.budget = shared.admission.connection_bucket(now)
        # Until when nothing is read from this client (after an over_budget refusal).
        self.paused_until = 0.0
        self.roles: dict[str, Role] = {}
        # game id -> digest of the credential that granted its role (revocation finds it)
        self.grants: dict[str, str] = {}
        # Games whose credential was revoked while this session held it (for the error).
        # A dict as a set: an empty set is 216 bytes, an empty dict 64.
        self.revoked_games: dict[str, None] = {}
        self.operator = False
        self.subs: dict[str, Subscription] = {}
        self.tokens = float(shared.settings.max_burst)
        self.refilled = now
        # Filled by `receive`, emptied by the connection once it has carried it out.
        self.outbox: list[Output] = []

    def welcome(self) -> bytes:
        """The first frame of every connection."""
        return encoder.encode(
            Welcome(protocol=PROTOCOL_VERSION, server="umpire", rulesets=registry.available())
        )

    # -- input -----------------------------------------------------------------------------

    async def receive(self, raw: str | bytes) -> None:
        """Take one frame from the client; what to send and do is left in `outbox`."""
        if not self._take_token():
            self.mistake("rate_limited", "too many messages per second")
            self.outbox.append(Close(CLOSE_RATE_LIMIT, "too many messages per second"))
            return
        if isinstance(raw, bytes):
            self.mistake("binary_frame", f"{len(raw)} bytes")
            self._reply(
                Error(
                    code="binary_frame",
                    message="binary frames are not accepted: send JSON text frames",
                )
            )
            return
        # Decoded and dispatched inline, not in a coroutine of its own: every message of
        # every client comes here, and the split must not add a coroutine per message.
        if too_deep(raw):  # before parsing: the parser would recurse once per level
            self._refuse_deep(raw)
            return
        try:
            message = client_decoder.decode(raw)  # typed, in one pass
        except msgspec.DecodeError as exc:  # ValidationError included
            self._refuse_frame(raw, exc)
            return
        except RecursionError:  # cannot happen below MAX_DEPTH; never lose the connection
            self._refuse_deep(raw)
            return
        request_id: str | None = message.id
        if self.gw.draining:
            self._reply(
                Error(
                    code="shutting_down",
                    message="the server is shutting down; reconnect and retry with the "
                    "same command id",
                    id=request_id,
                )
            )
            return
        try:
            await self._handle(message)
        except UNREACHABLE as exc:
            # A store call that did not map its connection error: the same answer.
            self.gw.metrics.error("store_unavailable")
            self._reply(
                Error(
                    code="store_unavailable",
                    message=f"the store is unavailable ({type(exc).__name__}); retry later "
                    "with the same command id",
                    id=request_id,
                )
            )
        except UmpireError as exc:
            self.gw.metrics.error(exc.code)
            details = {k: v for k, v in exc.details.items() if _jsonable(v)}
            self._reply(Error(code=exc.code, message=exc.message, details=details, id=request_id))
        except Exception as exc:  # never let one message take the connection down
            log.exception("internal error")
            self.gw.metrics.error("internal")
            self._reply(
                Error(
                    code="internal", message=f"internal error: {type(exc).__name__}", id=request_id
                )
            )

    def _take_token(self) -> bool:
        now = time.monotonic()
        rate = self.settings.max_messages_per_second
        self.tokens = min(self.settings.max_burst, self.tokens + (now - self.refilled) * rate)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def _reply(self, message: Any) -> None:
        self.outbox.append(encoder.encode(message))

    def mistake(self, code: str, detail: str) -> None:
        """Count a client's mistake, and log it in one line (rate-limited, no traceback)."""
        self.gw.metrics.error(code)
        self.gw.mistakes.note(self.address, code, detail)

    def _refuse_deep(self, raw: str) -> None:
        """Answer a frame that nests deeper than MAX_DEPTH: bad_message, connection kept."""
        found = _REQUEST_ID.search(raw)
        message = f"the frame nests deeper than {MAX_DEPTH} levels of arrays and objects"
        self.mistake("bad_message", message)
        self._reply(
            Error(
                code="bad_message",
                message=f"{message}; no message needs more",
                details={"max_depth": MAX_DEPTH},
                id=found.group(1) if found else None,
            )
        )

    def _refuse_frame(self, raw: str, failure: msgspec.DecodeError) -> None:
        """Answer a frame that is not a message: not JSON, or JSON of the wrong shape.

        The frame is decoded again, untyped: the typed decode stops at the first mismatch,
        so it may not have seen that the rest is not JSON at all, and the untyped one
        finds the request id to answer to."""
        try:
            data = msgspec.json.decode(raw)
        except msgspec.DecodeError as exc:
            self.mistake("bad_json", str(exc))
            self._reply(Error(code="bad_json", message=f"frame is not JSON: {exc}"))
            return
        request_id = None
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            request_id = data["id"][:128]
        text = str(failure)
        code = "unknown_message_type" if "`$.type`" in text else "bad_message"
        self.mistake(code, text)
        self._reply(
            Error(
                code=code,
                message=f"{text} (message types: {_ALLOWED})",
                details={"error": text},
                id=request_id,
            )
        )

    # -- admission -------------------------------------------------------------------------

    def admit(self, kind: str, cost: int) -> None:
        """Charge `cost` to this connection and its address, or refuse (over_budget)."""
        refusal = self.gw.admission.charge(self.budget, self.address, kind, cost, time.monotonic())
        if refusal is not None:
            self._refused(refusal)

    def pace(self, kind: str, cost: int) -> float:
        """For work a client is owed (its catch-up), slowed rather than refused: pay `cost`
        from this connection's and its address's budgets and return 0, or return the
        seconds to wait before asking again."""
        return self.gw.admission.pay_or_wait(
            self.budget, self.address, kind, cost, time.monotonic()
        )

    async def wait_to_pay(self, kind: str, cost: int) -> None:
        """For a player's play (a command, a view of the head): pay `cost`, waiting for the
        budgets first if they cannot pay now, rather than refusing. Nothing is read from
        this client meanwhile (its reader is here), so it gets no more than a refused
        client that retries after `retry_after`: a command's work left in debt (or a
        catch-up's pages) slows its sender's next message, never fails it."""
        while wait := self.pace(kind, cost):
            if self.gw.draining:
                return  # answered at once: the gateway is going
            self.gw.admission.paced[kind] += 1
            await asyncio.sleep(min(wait, PACE_STEP))

    def _refused(self, refusal: Refusal) -> NoReturn:
        """Refuse with over_budget, and read nothing more from this client until it
        could pay: a client that resends at once is slowed by TCP, not answered again."""
        self.mistake("over_budget", refusal.message())
        pause = min(max(refusal.retry_after, MIN_PAUSE), MAX_PAUSE)
        self.paused_until = time.monotonic() + pause
        raise OverBudget.of(refusal)

    # -- dispatch --------------------------------------------------------------------------

    async def _handle(self, message: Any) -> None:
        if isinstance(message, Create):
            refusal = self.gw.admission.charge_create(self.address, time.monotonic())
            if refusal is not None:
                self._refused(refusal)
            self.admit("create", CREATE_COST)
        # A replay and a listing are charged below, once their work is known.
        elif isinstance(message, SendCommand | BindSeed | Unsubscribe) or (
            isinstance(message, GetView) and message.at_seq is None
        ):
            # A player's play is paced, never refused (docs/protocol.md, "Admission").
            await self.wait_to_pay(type(message).__name__.lower(), MESSAGE_COST)
        elif not isinstance(message, ListGames) and not (
            isinstance(message, GetView) and message.at_seq is not None
        ):
            self.admit(type(message).__name__.lower(), MESSAGE_COST)
        match message:
            case Create():
                await self._create(message)
            case Auth():
                await self._auth(message.credential, message.id)
            case Subscribe():
                await self._subscribe(message)
            case Unsubscribe():
                self._unfollow(message.game_id)
                self._reply(Unsubscribed(game_id=message.game_id, id=message.id))
            case SendCommand():
                await self._command(message)
            case ListGames():
                await self._list(message)
            case GetView():
                role = self._role(message.game_id)
                if message.at_seq is None:
                    self._reply(await self._view(message.game_id, role, message.id))
                else:
                    view = await self._view_at(message.game_id, role, message.at_seq, message.id)
                    self._reply(view)
            case Revoke():
                await self._revoke(message)
            case BindSeed():
                await self._bind_seed(message)

    async def _create(self, msg: Create) -> None:
        # A create_id names the game, so a re-sent create finds the game it made before
        # (the log's command-id check makes the second append a duplicate). A re-sent
        # create's answer has new credentials (the server keeps only digests, so it cannot
        # send the first ones again) in place of the previous re-send's: the first answer's
        # may be in use and stay, and a game holds at most two pairs from its creates.
        game_id = game_id_for_create(msg.create_id) if msg.create_id else None
        self._check_grant_room(game_id)
        scenario = msg.scenario
        if not msg.setup and scenario is None:
            # No setup at all: the ruleset's default scenario, as `umpire new RULESET` starts.
            scenario = registry.get(msg.ruleset).default_scenario or None
        created = await self.gw.games.create(
            msg.ruleset,
            msg.setup,
            client_seed=msg.client_seed,  # refused: it must follow the commitment
            client_entropy=msg.client_entropy,
            game_id=game_id,
            scenario=scenario,
            opponent_manual_dice=msg.opponent_manual_dice,
        )
        if created.duplicate:
            player, spectator = await credentials.reissue(
                self.gw.store, created.game_id, RESENT_CREATE_SLOT
            )
        else:
            player = await credentials.issue(self.gw.store, created.game_id, Role.PLAYER)
            spectator = await credentials.issue(self.gw.store, created.game_id, Role.SPECTATOR)
        self._grant(created.game_id, Role.PLAYER, credentials.fingerprint(player)[1])
        self.gw.metrics.games_created += not created.duplicate
        self._reply(
            Created(
                game_id=created.game_id,
                ruleset=created.ruleset,
                player_credential=player,
                spectator_credential=spectator,
                seed_commitment=created.seed_commitment,
                client_seed=created.client_seed,
                id=msg.id,
                client_entropy=created.client_entropy.value,
            )
        )

    async def _command(self, msg: SendCommand) -> None:
        # A credential revoked since it was presented is refused by the append itself.
        digest = await self._player_grant(msg.game_id, msg.credential, msg.id, "send commands to")
        role = Role.PLAYER
        started = time.perf_counter()
        meter = WorkMeter()
        try:
            result = await self.gw.games.handle(
                msg.game_id,
                msg.command_id,
                msg.command,
                manual_dice=msg.dice,
                expected_seq=msg.expected_seq,
                nonce=msg.nonce,
                role=role,
                credential=Credential(digest, role.value),
                meter=meter,
            )
        except Unauthorized:
            await self.gw.drop_grant(msg.game_id, digest)
            raise
        finally:
            # The rules' work, accepted or refused, is the sender's (server/admission.py).
            self.gw.admission.charge_work(
                self.budget, self.address, "command_work", work_cost(meter.seconds),
                time.monotonic(),
            )  # fmt: skip
        self.gw.metrics.observe_command(
            time.perf_counter() - started, appended=not result.duplicate
        )
        head_seq, head_hash, state_hash = await self._receipt(msg.game_id, role)
        self._reply(
            Accepted(
                game_id=msg.game_id,
                command_id=msg.command_id,
                seqs=result.seqs,
                duplicate=result.duplicate,
                id=msg.id,
                head_seq=head_seq,
                head_hash=head_hash,
                state_hash=state_hash,
            )
        )

    async def _receipt(self, game_id: str, role: Role) -> tuple[int, str, str]:
        """The receipt of a reply: the game's head and the state hash of `role`'s view
        there. Taken from the cached game (no round trip on the command path); only a game
        the cache let go of is loaded, and without a store there is no receipt (0, "")."""
        cached = self.gw.games.cached(game_id)
        if cached is None:
            try:
                cached = await self.gw.games.load(game_id)
            except UmpireError:
                # The command is written: a store that went away since must not turn its
                # success into an error. The reply goes without a receipt (`view` has one).
                return 0, "", ""
        ruleset, game = cached
        revealed = game.meta.revealed_seed is not None
        state = msgspec.to_builtins(view_for(ruleset, game.state, role, revealed=revealed))
        return (
            game.meta.seq,
            game.meta.last_hash,
            receipt_state_hash(game.meta.seq, game.meta.last_hash, state),
        )

    async def _bind_seed(self, msg: BindSeed) -> None:
        """The player's seed for the current seed epoch (docs/audit.md (4.1))."""
        digest = await self._player_grant(
            msg.game_id, msg.credential, msg.id, "bind a client seed for"
        )
        role = Role.PLAYER
        try:
            result = await self.gw.games.bind_client_seed(
                msg.game_id, msg.client_seed, credential=Credential(digest, role.value)
            )
        except Unauthorized:
            await self.gw.drop_grant(msg.game_id, digest)
            raise
        # The receipt of a command's reply (docs/audit.md "Receipts"): a client that keeps
        # receipts can check the binding later, as it checks its commands.
        head_seq, head_hash, state_hash = await self._receipt(msg.game_id, role)
        self._reply(
            Accepted(
                game_id=msg.game_id,
                command_id=result.command_id,
                seqs=result.seqs,
                duplicate=result.duplicate,
                id=msg.id,
                head_seq=head_seq,
                head_hash=head_hash,
                state_hash=state_hash,
            )
        )

    # -- credentials and grants ------------------------------------------------------------

    async def _auth(self, credential: str, request_id: str | None, reply: bool = True) -> None:
        if credentials.is_operator(credential, self.settings.operator_token):
            self.operator = True
            if reply:
                self._reply(Authenticated(game_id="", role="operator", id=request_id))
            return
        game_id, role = await credentials.verify(self.gw.store, credential)  # one lookup
        self._grant(game_id, role, credentials.fingerprint(credential)[1])
        if reply:
            self._reply(Authenticated(game_id=game_id, role=role.value, id=request_id))

    async def _player_grant(
        self, game_id: str, credential: str | None, request_id: str | None, what: str
    ) -> str:
        """The digest of this connection's player credential for `game_id` (presenting
        `credential` first if given); Unauthorized for any other role, naming `what`."""
        if credential:
            await self._auth(credential, request_id, reply=False)
        role = self._role(game_id)
        if role is not Role.PLAYER:
            raise Unauthorized(
                f"a {role.value} may not {what} game {game_id!r}; only the player credential may",
                game_id=game_id,
                role=role.value,
            )
        return self.grants[game_id]

    def _check_grant_room(self, game_id: str | None) -> None:
        """Refuse a new grant past `max_grants_per_connection` (a held game is no new one)."""
        limit = self.settings.max_grants_per_connection
        if game_id not in self.grants and len(self.grants) >= limit:
            self.mistake("too_many_grants", f"{len(self.grants)} grants")
            raise TooManyGrants(
                f"this connection holds credentials for {limit} games already, the most "
                "it may: use another connection (UMPIRE_MAX_GRANTS_PER_CONNECTION)",
                limit=limit,
            )

    def _grant(self, game_id: str, role: Role, digest: str) -> None:
        if (game_id, digest) in self.gw.revoked:  # revoked while it was being verified
            raise Unauthorized(f"the credential for game {game_id!r} was revoked", game_id=game_id)
        self._check_grant_room(game_id)
        self._forget_grant(game_id)
        self.revoked_games.pop(game_id, None)
        self.roles[game_id] = role
        self.grants[game_id] = digest
        self.gw.holders.setdefault((game_id, digest), set()).add(self.holder)

    def _forget_grant(self, game_id: str) -> None:
        self.roles.pop(game_id, None)
        digest = self.grants.pop(game_id, None)
        if digest is None:
            return
        holders = self.gw.holders.get((game_id, digest))
        if holders is not None:
            holders.discard(self.holder)
            if not holders:
                del self.gw.holders[(game_id, digest)]

    def forget_grants(self) -> None:
        """Leave the gateway's table of credential holders (the connection closed)."""
        for game_id in list(self.grants):
            self._forget_grant(game_id)

    def detach(self) -> None:
        """The connection has ended: let go of it. It holds this session and the session
        names it as the holder, so each keeps the other alive; broken here, both are freed
        when the handler returns instead of at the next full collection, which the
        gateway's collector makes rare (server/collector.py). Call it after `forget_grants`
        (the holder leaves the gateway's tables first); nothing is received after."""
        del self.holder

    def lose_game_now(self, game_id: str) -> Subscription | None:
        """The credential for `game_id` was revoked: drop its role and its subscription at
        once (no await), so the next message is refused and no further event is queued;
        the subscription dropped, for the connection to finish (`Unfollow`)."""
        self._forget_grant(game_id)
        self.revoked_games[game_id] = None
        return self.unsubscribe(game_id)

    def revoked_notice(self, game_id: str, dropped: bool) -> bytes:
        """The unsolicited `credential_revoked` frame (`dropped`: a subscription was)."""
        return encoder.encode(
            Error(
                code="credential_revoked",
                message=f"the credential for game {game_id!r} was revoked"
                + ("; the subscription was dropped" if dropped else ""),
                details={"game_id": game_id, "subscription_dropped": dropped},
            )
        )

    async def _still_valid(self, game_id: str) -> None:
        """Refuse a command whose credential was revoked since it was presented."""
        digest = self.grants.get(game_id)
        if digest is None:
            return  # operator (referee) access holds no game credential
        (valid,) = await credentials.held(self.gw.store, [(game_id, digest)])
        if not valid:
            await self.gw.drop_grant(game_id, digest)
            raise Unauthorized(f"the credential for game {game_id!r} was revoked", game_id=game_id)

    async def _revoke(self, msg: Revoke) -> None:
        if not self.operator:
            raise Unauthorized("only the operator may revoke credentials: auth with its token")
        game_id, digest = credentials.fingerprint(msg.credential)
        holding = len(self.gw.holders.get((game_id, digest), ()))
        existed = await credentials.revoke(self.gw.store, msg.credential)
        # At once here, whether or not this gateway's announcement has come back yet.
        self.gw.revoked_now(game_id, digest)
        self._reply(Revoked(game_id=game_id, existed=existed, dropped=holding, id=msg.id))

    def _role(self, game_id: str) -> Role:
        role = self.roles.get(game_id)
        if role is not None:
            return role
        if self.operator:
            return Role.REFEREE
        if game_id in self.revoked_games:
            raise Unauthorized(f"the credential for game {game_id!r} was revoked", game_id=game_id)
        raise Unauthorized(
            f"no credential for game {game_id!r} on this connection: send 'auth' first",
            game_id=game_id,
        )

    # -- views -----------------------------------------------------------------------------

    async def _view_at(
        self, game_id: str, role: Role, at_seq: int, request_id: str | None
    ) -> ViewState:
        """The state after event `at_seq` as `role` sees it now (all of it once revealed).

        Charged by the events it must read and fold (server/admission.py); folded from
        the nearest checkpoint, or answered from the cache (server/replay_cache.py)."""
        ruleset, game = await self.gw.games.load(game_id)
        if not 1 <= at_seq <= game.meta.seq:
            self.admit("view_at", MESSAGE_COST)
            raise SeqOutOfRange(
                f"seq {at_seq} is out of range: game {game_id!r} has events 1 to {game.meta.seq}",
                game_id=game_id,
                at_seq=at_seq,
                head=game.meta.seq,
            )
        revealed = game.meta.revealed_seed is not None
        # Actions only at the head: a past state's commands can no longer be sent.
        actions = (
            await self.gw.games.rules.actions(ruleset, game, role)
            if at_seq == game.meta.seq
            else []
        )

        def answer(state: Any, ended: bool, event_hash: str) -> ViewState:
            return ViewState(
                game_id=game_id,
                seq=at_seq,
                role=role.value,
                ruleset=ruleset.name,
                state=state,
                ended=ended,
                id=request_id,
                actions=actions,
                head_hash=event_hash,
                state_hash=receipt_state_hash(at_seq, event_hash, state),
                map=drawn(ruleset.board, state),
            )

        replays = self.gw.replays
        key = (game_id, at_seq, role.value, revealed)
        self.admit("view_at", replay_cost(replays.distance(game_id, at_seq, key)))
        cached = replays.answer(key)
        if cached is not None:
            event_hash, (state, ended) = cached
            here = await self.gw.store.read(game_id, at_seq, at_seq)
            if here and here[0].hash == event_hash:
                return answer(state, ended, event_hash)
            replays.forget(game_id)  # the log changed under the answer
        past = await replays.game_at(game_id, ruleset, at_seq)
        state = msgspec.to_builtins(view_for(ruleset, past.state, role, revealed=revealed))
        replays.remember(key, past.meta.last_hash, (state, past.meta.ended))
        return answer(state, past.meta.ended, past.meta.last_hash)

    async def _view(self, game_id: str, role: Role, request_id: str | None) -> ViewState:
        return await head_view(self.gw.games, game_id, role, request_id)

    # -- subscriptions ---------------------------------------------------------------------

    async def _subscribe(self, msg: Subscribe) -> None:
        if msg.credential:
            await self._auth(msg.credential, msg.id, reply=False)
        role = self._role(msg.game_id)
        if not msg.credential:
            await self._still_valid(msg.game_id)
        if msg.game_id not in self.subs and len(self.subs) >= self.settings.max_subscriptions:
            raise UmpireError(
                f"at most {self.settings.max_subscriptions} subscriptions per connection",
                limit=self.settings.max_subscriptions,
            )
        # The old subscription's feed is released after the new one holds it (Unfollow
        # runs after this returns), so a resubscribe keeps the game's feed open.
        start = msg.from_seq or 0
        known = self.gw.notifier.feeds.get(msg.game_id)
        if start > (0 if known is None else known.head):
            await self._log_reaches(msg.game_id, start)
        self._unfollow(msg.game_id)
        feed = await self.gw.notifier.feed(msg.game_id)
        self._reply(
            Subscribed(
                game_id=msg.game_id, from_seq=start, head=feed.head, role=role.value, id=msg.id
            )
        )
        sub = Subscription(feed, self.holder, role, start + 1, views=msg.views)
        # Counted on the feed before the next await: a feed nobody is counted on is
        # released when its last subscriber leaves, and a subscription attached to a
        # released feed would never hear of another event. Counted is not live: delivery
        # starts with the Follow below.
        feed.attach(sub)
        if msg.view:
            # A failed view leaves no subscription, and the feed is released with it (the
            # Unfollow of a never-served sub).
            try:
                view = await self._view(msg.game_id, role, msg.id)
            except BaseException:
                feed.detach(sub)
                self.outbox.append(Unfollow(sub))
                raise
            self._reply(view)
            sub.state_seq = view.seq  # a pushed state frame follows only a later batch
            if msg.from_seq is None:
                sub.next_seq = view.seq + 1
        self.subs[msg.game_id] = sub
        self.outbox.append(Follow(sub))

    async def _log_reaches(self, game_id: str, start: int) -> None:
        """Refuse a subscribe `from_seq` past the end of the log: its client holds events
        the store has lost (a `log_rewound` it missed while away). Resumed there, it would
        take the new events that reuse those seqs for the ones after what it holds. Asked
        of the store only when this gateway's feed is behind `start` (or not open): a feed
        may lag the log, never lead it."""
        try:
            head = await self.gw.store.version(game_id)
        except UNREACHABLE as exc:
            raise unavailable(exc, game_id, "retry later") from exc
        if 0 < head < start:  # no log at all: the feed says game_not_found
            raise LogRewound(
                f"the log of game {game_id!r} ends at seq {head}, before from_seq {start}: "
                "the store lost events you were sent; drop what you hold after that seq "
                "and subscribe again (with view)",
                game_id=game_id,
                head=head,
                from_seq=start,
            )

    def unsubscribe(self, game_id: str) -> Subscription | None:
        """End the subscription to `game_id` at once: detached from its feed, its catch-up
        cancelled. The subscription, for the connection to finish (`Unfollow`)."""
        sub = self.subs.pop(game_id, None)
        if sub is None:
            return None
        sub.feed.detach(sub)
        if sub.task is not None:
            sub.task.cancel()
        return sub

    def _unfollow(self, game_id: str) -> None:
        sub = self.unsubscribe(game_id)
        if sub is not None:
            self.outbox.append(Unfollow(sub))

    def rewound_notice(self, game_id: str, head: int) -> bytes:
        """The unsolicited `log_rewound` frame: the log of `game_id` now ends at `head`."""
        return encoder.encode(
            Error(
                code=LogRewound.code,
                message=f"the log of game {game_id!r} now ends at seq {head}: the store lost "
                "events written after it, which you may have received; the subscription was "
                "dropped: drop what you hold after that seq and subscribe again (with view)",
                details={"game_id": game_id, "head": head},
            )
        )

    # -- listings --------------------------------------------------------------------------

    async def _list(self, msg: ListGames) -> None:
        ids = await self.gw.store.games() if self.operator else sorted(self.roles)
        self.admit("list_games", listing_cost(len(ids)))
        store = self.gw.store
        try:
            versions = []
            for start in range(0, len(ids), LIST_PAGE):
                async with self.gw.heavy:
                    versions += await store.versions(ids[start : start + LIST_PAGE])
        except UNREACHABLE as exc:
            raise unavailable(exc, consequence="retry later") from exc
        summaries = []
        names = self.gw.ruleset_names
        for game_id, raw in zip(ids, versions, strict=True):
            if raw is None:
                continue  # no such game (any more)
            name = names.get(game_id)
            if name is None:  # read once per game and gateway: a ruleset never changes
                first = await store.read(game_id, 1, 1)
                if not first:
                    continue
                if len(names) >= RULESET_NAMES_REMEMBERED:
                    names.clear()
                name = names[game_id] = ruleset_of(first[0]).name
            role = self.roles.get(game_id, Role.REFEREE)
            summaries.append(
                GameSummary(game_id=game_id, ruleset=name, role=role.value, seq=int(raw))
            )
        self._reply(GameList(games=summaries, id=msg.id))


async def head_view(
    games: Games, game_id: str, role: Role, request_id: str | None = None
) -> ViewState:
    """The `state` frame of `game_id` at its head as `role` sees it (the answer to a
    `view`, and the frame pushed to a subscriber with `views`): built from `role`'s view
    alone, with the commands `role` may send now."""
    ruleset, game = await games.load(game_id)
    revealed = game.meta.revealed_seed is not None
    # Off the event loop (server/rules_pool.py): on a large map it costs like an AI turn.
    actions = await games.rules.actions(ruleset, game, role)
    state = msgspec.to_builtins(view_for(ruleset, game.state, role, revealed=revealed))
    return ViewState(
        game_id=game_id,
        seq=game.meta.seq,
        role=role.value,
        ruleset=ruleset.name,
        state=state,
        ended=game.meta.ended,
        id=request_id,
        actions=actions,
        head_hash=game.meta.last_hash,
        state_hash=receipt_state_hash(game.meta.seq, game.meta.last_hash, state),
        map=drawn(ruleset.board, state),
    )


async def pushed_state(games: Games, game_id: str, role: Role) -> tuple[int, bytes]:
    """A pushed `state` frame (no request id) and its seq: server/feed.py builds one per
    role and batch for the subscribers that asked for `views`."""
    view = await head_view(games, game_id, role)
    return view.seq, encoder.encode(view)


def _jsonable(value: Any) -> bool:
    try:
        msgspec.json.encode(value)
        return True
    except (TypeError, msgspec.EncodeError):
        return False
