"""The protocol of one client connection with no I/O: frames and answers in, frames,
effects and requests out.

A `Session` holds what a connection knows about its client: the credentials it presented
and the roles they grant, its admission budget and message rate, its subscriptions. Each
frame the client sent goes to `receive(frame, now)`, which decodes it, charges it and
carries it out. Where that needs the world (a game loaded, a command appended, a
credential verified, a page of the log read) it returns a request (server/requests.py)
and waits: the driver (server/driver.py) performs it and hands the answer back with
`resume(answer, now)`, or the error it raised with `fail(error, now)`, each of which
returns the next request or None once the frame is done. What the connection must do is
left in `outbox`: frames to send (bytes, in order) and effects (`Follow`, `Unfollow`,
`Close`). As in websockets' sans-I/O core (`receive_data`, `data_to_send`), nothing here
reads the clock, awaits, or touches a socket, a task or the store: the time comes in with
each frame and answer, and tests/server/test_session*.py drive a session with none of
them. The work of each message is in the module of its job: server/commands.py (create,
command, bind_seed), server/grants.py (auth, revoke, roles), server/views.py (view,
list_games) and server/subscriptions.py (subscribe, unsubscribe).

Every error a message causes is answered here, as a typed `error` frame with the request
id, and the session goes on.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

import msgspec

from umpire.engine import registry
from umpire.engine.roles import Role
from umpire.events.errors import StoreUnreachable, UmpireError
from umpire.events.wire import (
    CLOSE_RATE_LIMIT,
    PROTOCOL_VERSION,
    Auth,
    BindSeed,
    Create,
    Error,
    FileDispute,
    GetView,
    ListGames,
    Revoke,
    RuleDispute,
    SendCommand,
    Subscribe,
    Unsubscribe,
    Unsubscribed,
    Welcome,
    encoder,
)
from umpire.server import frame_refusal
from umpire.server.admission import (
    CREATE_COST,
    MESSAGE_COST,
    Admission,
    OverBudget,
    Refusal,
)
from umpire.server.client_frames import decode_client
from umpire.server.commands import Commands
from umpire.server.grants import Grants
from umpire.server.mistakes import MistakeLog
from umpire.server.nesting import too_deep
from umpire.server.repeated_keys import repeated_refusal
from umpire.server.requests import Close, Output, Request, Steps, Wait
from umpire.server.subscription import Sink, Subscription
from umpire.server.subscriptions import Subscriptions
from umpire.server.view_digests import ViewDigests
from umpire.server.views import Views

if TYPE_CHECKING:
    # Types only: the settings (pydantic) and the metrics (prometheus-client) are the
    # gateway's, and this module imports nothing that does I/O
    # (tests/server/test_session_purity.py).
    from umpire.server.config import Settings
    from umpire.server.metrics import Metrics

# The gateway's logger: a session is the protocol half of a gateway connection.
log = logging.getLogger("umpire.gateway")

# After an over_budget refusal a connection is not read for the time until it could pay,
# within these bounds (a client that retries at once must not cost a refusal each time).
MIN_PAUSE = 0.25
MAX_PAUSE = 5.0
# A paced message waits for its budget in steps of at most this (a draining gateway
# answers it at the next step).
PACE_STEP = 0.5


class Shared(Protocol):
    """What every session of one gateway shares (server/gateway.py `Gateway`)."""

    # All of it in memory: what needs I/O (games, store, feeds, replays) is asked of the
    # driver instead (server/requests.py).
    settings: Settings
    metrics: Metrics
    mistakes: MistakeLog
    admission: Admission
    ruleset_names: dict[str, str]
    holders: dict[tuple[str, str], set[Any]]
    revoked: dict[tuple[str, str], None]
    draining: bool
    view_digests: ViewDigests


class Session(Commands, Grants, Subscriptions, Views):
    """One client's protocol state: grants, admission, subscriptions, dispatch.

    `holder` is what the gateway's tables name for this client (its connection): it is
    registered as a holder of each credential granted here, so that a revocation reaches
    it, and it is the sink of this session's subscriptions."""

    # Slots: a gateway holds one session per connection, most of them idle (no instance
    # dict: python -m bench's memory per idle connection). A weak reference is how tests
    # see a session freed.
    # (Grants holds `operator`, the one slot a part of the session sets.)
    __slots__ = (
        "__weakref__", "_steps", "address", "budget", "grants", "gw", "holder", "now",
        "outbox", "paused_until", "refilled", "revoked_games", "roles", "settings", "subs",
        "tokens",
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
        # The time the driver gave with the last frame or answer (time.monotonic()).
        self.now = now
        # The work of the frame being answered, waiting for the answer to its request.
        self._steps: Steps[None] | None = None

    def welcome(self) -> bytes:
        """The first frame of every connection."""
        return encoder.encode(
            Welcome(protocol=PROTOCOL_VERSION, server="umpire", rulesets=registry.available())
        )

    # -- input -----------------------------------------------------------------------------

    def receive(self, raw: str | bytes, now: float) -> Request | None:
        """Take one frame from the client at time `now`: the first request its work makes
        of the driver, or None when it is done. What to send and do is left in `outbox`."""
        if self._steps is not None:
            raise RuntimeError("a frame came before the previous one's request was answered")
        self.now = now
        if not self._take_token():
            self.mistake("rate_limited", "too many messages per second")
            self.outbox.append(Close(CLOSE_RATE_LIMIT, "too many messages per second"))
            return None
        if isinstance(raw, bytes):
            self.mistake("binary_frame", f"{len(raw)} bytes")
            self._reply(
                Error(
                    code="binary_frame",
                    message="binary frames are not accepted: send JSON text frames",
                )
            )
            return None
        # Refused inline: a frame that is not a message makes no request.
        if too_deep(raw):  # before parsing: the parser would recurse once per level
            self._refuse(frame_refusal.too_deep_refusal(raw))
            return None
        refusal = repeated_refusal(raw)  # a field given twice means what a parser picks
        if refusal is not None:
            self.mistake("bad_message", refusal.message)
            self._reply(refusal)
            return None
        try:
            message = decode_client(raw)  # typed (server/client_frames.py)
        except msgspec.DecodeError as exc:  # ValidationError included
            self._refuse(frame_refusal.not_a_message(raw, exc))
            return None
        except RecursionError:  # cannot happen below MAX_DEPTH; never lose the connection
            self._refuse(frame_refusal.too_deep_refusal(raw))
            return None
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
            return None
        self._steps = self._answer(message, request_id)
        return self._step(None, None)

    def resume(self, answer: Any, now: float) -> Request | None:
        """The answer to the last request, at time `now`: the next request, or None."""
        self.now = now
        # `_step`'s send, inline: every request of every command is answered here.
        steps = self._steps
        if steps is None:
            raise RuntimeError("no request of this session is waiting for an answer")
        try:
            return steps.send(answer)
        except StopIteration:
            self._steps = None
            return None
        except BaseException:
            self._steps = None
            raise

    def fail(self, error: BaseException, now: float) -> Request | None:
        """The last request failed with `error` at time `now`: the next request, or None.
        The error is answered as the request's own (an `error` frame); one that is not an
        Exception (a cancellation) is raised again, here."""
        self.now = now
        return self._step(None, error)

    def _step(self, answer: Any, error: BaseException | None) -> Request | None:
        steps = self._steps
        if steps is None:
            raise RuntimeError("no request of this session is waiting for an answer")
        try:
            return steps.send(answer) if error is None else steps.throw(error)
        except StopIteration:
            self._steps = None
            return None
        except BaseException:
            self._steps = None
            raise

    def _answer(self, message: Any, request_id: str | None) -> Steps[None]:
        """Carry out `message`; every error it causes is answered, and the session goes on."""
        try:
            if type(message) is SendCommand:
                # A player's command, by its type: the most frequent message, straight to
                # its work. Every request a command makes resumes each generator between
                # the driver and its `yield` (four requests a command), so this one has
                # none in between: paid here (paced, never refused: docs/protocol.md
                # "Admission"), with a generator only when it must wait.
                if self.pace(_SEND_COMMAND, MESSAGE_COST, self.now):
                    yield from self.wait_to_pay(_SEND_COMMAND, MESSAGE_COST)
                yield from self._command(message)
                return
            yield from self._handle(message)
        except StoreUnreachable as exc:
            # A store call that did not map its connection error: the same answer.
            self.gw.metrics.error("store_unavailable")
            self._reply(
                Error(
                    code="store_unavailable",
                    message=f"the store is unavailable ({exc.name}); retry later "
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
        now = self.now
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
        self.gw.mistakes.note(self.address, code, detail, self.now)

    def _refuse(self, refusal: tuple[str, str, Error]) -> None:
        """Answer a frame that is not a message (server/frame_refusal.py says how): count
        the mistake, send the error; the connection is kept."""
        code, detail, error = refusal
        self.mistake(code, detail)
        self._reply(error)

    # -- admission -------------------------------------------------------------------------

    def admit(self, kind: str, cost: int) -> None:
        """Charge `cost` to this connection and its address, or refuse (over_budget)."""
        refusal = self.gw.admission.charge(self.budget, self.address, kind, cost, self.now)
        if refusal is not None:
            self._refused(refusal)

    def pace(self, kind: str, cost: int, now: float) -> float:
        """For work a client is owed (its catch-up), slowed rather than refused: pay `cost`
        from this connection's and its address's budgets at `now` and return 0, or return
        the seconds to wait before asking again."""
        return self.gw.admission.pay_or_wait(self.budget, self.address, kind, cost, now)

    def wait_to_pay(self, kind: str, cost: int) -> Steps[None]:
        """For a player's play (a command, a view of the head): pay `cost`, waiting for the
        budgets first if they cannot pay now, rather than refusing. Nothing is read from
        this client meanwhile (its reader is here), so it gets no more than a refused
        client that retries after `retry_after`: a command's work left in debt (or a
        catch-up's pages) slows its sender's next message, never fails it."""
        while wait := self.pace(kind, cost, self.now):
            if self.gw.draining:
                return  # answered at once: the gateway is going
            self.gw.admission.paced[kind] += 1
            yield Wait(min(wait, PACE_STEP))

    def _refused(self, refusal: Refusal) -> NoReturn:
        """Refuse with over_budget, and read nothing more from this client until it
        could pay: a client that resends at once is slowed by TCP, not answered again."""
        self.mistake("over_budget", refusal.message())
        pause = min(max(refusal.retry_after, MIN_PAUSE), MAX_PAUSE)
        self.paused_until = self.now + pause
        raise OverBudget.of(refusal)

    # -- dispatch --------------------------------------------------------------------------

    def _handle(self, message: Any) -> Steps[None]:
        # (A SendCommand is taken by its type in `_answer`; it would be paced below too.)
        if isinstance(message, Create):
            refusal = self.gw.admission.charge_create(self.address, self.now)
            if refusal is not None:
                self._refused(refusal)
            self.admit("create", CREATE_COST)
        # A replay, a listing and a dispute are charged below, once their work is known.
        elif isinstance(message, SendCommand | BindSeed | Unsubscribe) or (
            isinstance(message, GetView) and message.at_seq is None
        ):
            # A player's play is paced, never refused (docs/protocol.md, "Admission").
            yield from self.wait_to_pay(type(message).__name__.lower(), MESSAGE_COST)
        elif not isinstance(message, ListGames | FileDispute | RuleDispute) and not (
            isinstance(message, GetView) and message.at_seq is not None
        ):
            self.admit(type(message).__name__.lower(), MESSAGE_COST)
        match message:
            case Create():
                yield from self._create(message)
            case Auth():
                yield from self._auth(message.credential, message.id)
            case Subscribe():
                yield from self._subscribe(message)
            case Unsubscribe():
                yield from self._unfollow(message.game_id)
                self._reply(Unsubscribed(game_id=message.game_id, id=message.id))
            case SendCommand():
                yield from self._command(message)
            case ListGames():
                yield from self._list(message)
            case GetView():
                role = self._role(message.game_id)
                # A revocation this gateway missed (its re-check not yet run) shows no more.
                yield from self._still_valid(message.game_id)
                if message.at_seq is None:
                    self._reply((yield from self._view(message.game_id, role, message.id)))
                else:
                    at_seq = message.at_seq
                    view = yield from self._view_at(message.game_id, role, at_seq, message.id)
                    self._reply(view)
            case Revoke():
                yield from self._revoke(message)
            case BindSeed():
                yield from self._bind_seed(message)
            case FileDispute():
                yield from self._dispute(message)
            case RuleDispute():
                yield from self._rule(message)


_SEND_COMMAND = SendCommand.__name__.lower()  # its admission kind, as `_handle` names others


def _jsonable(value: Any) -> bool:
    try:
        msgspec.json.encode(value)
        return True
    except (TypeError, msgspec.EncodeError):
        return False
