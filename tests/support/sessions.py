"""A session (server/session.py) with no I/O at all, for tests/server/test_session*.py.

`shared()` is what the sessions of one gateway share, all of it in memory (settings,
admission, metrics, tables); `Exchange` sends a session one frame at a time and answers
each request it makes from a table of answers the test gives (a value, an exception to
fail the request with, or a function of the request), as a driver would from the world
(a store that cannot be reached handed over as the driver does, events/unreachable.py
`for_session`).
No store, no event loop, no clock: the time is whatever the test passes.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from umpire.engine import registry
from umpire.engine.game import Game, start
from umpire.events.receipt_signature import BLIND_BYTES, ReceiptSigner, sign_batch
from umpire.events.types import GameCreated
from umpire.events.unreachable import for_session
from umpire.server.admission import Admission, Budgets
from umpire.server.config import Settings
from umpire.server.framing import Batch
from umpire.server.game_feed import GameFeed
from umpire.server.metrics import Metrics
from umpire.server.mistakes import MistakeLog
from umpire.server.requests import GameSigner, Output, Request, SignReceipt
from umpire.server.session import Session
from umpire.server.subscription import Subscription
from umpire.server.view_digests import ViewDigests
from umpire.testing.support.gateways import gateway_settings

OPERATOR = "o" * 32
COMMITMENT = "c" * 64


@dataclass
class Shared:
    """What every session of one gateway shares (server/session.py `Shared`)."""

    settings: Settings
    metrics: Metrics = field(default_factory=Metrics)
    mistakes: MistakeLog = field(default_factory=lambda: MistakeLog(logging.getLogger("t")))
    admission: Admission = field(init=False)
    ruleset_names: dict[str, str] = field(default_factory=dict)
    holders: dict[tuple[str, str], set[Any]] = field(default_factory=dict)
    revoked: dict[tuple[str, str], None] = field(default_factory=dict)
    draining: bool = False
    view_digests: ViewDigests = field(default_factory=ViewDigests)

    def __post_init__(self) -> None:
        s = self.settings
        self.admission = Admission(
            Budgets(
                connection_rate=s.cost_per_second,
                connection_burst=s.cost_burst,
                address_rate=s.address_cost_per_second,
                address_burst=s.address_cost_burst,
                creates_per_minute=s.creates_per_minute,
                create_burst=s.create_burst,
            )
        )


def shared(**settings: object) -> Shared:
    return Shared(gateway_settings("unused", operator_token=OPERATOR, **settings))


class Holder:
    """The connection a session names in the gateway's tables (no socket behind)."""

    def offer(self, batch: Batch) -> bool:
        return True

    def lagging(self, sub: Subscription) -> None:
        pass


def counter_game(game_id: str, seq: int = 1) -> tuple[Any, Game]:
    """The counter ruleset and a real game of it at `seq` (its state as created)."""
    ruleset = registry.get("counter")
    created = GameCreated(
        game_id=game_id, ruleset="counter", ruleset_version=ruleset.version,
        setup={"target": 1000}, seed_commitment=COMMITMENT,
    )  # fmt: skip
    game = start(ruleset, created)
    meta = msgspec.structs.replace(game.meta, seq=seq, last_hash="h" * 64)
    return ruleset, msgspec.structs.replace(game, meta=meta)


def feed_of(game_id: str, head: int = 1) -> GameFeed:
    """A game's feed as the driver opens it (its store is never read here)."""
    feed = GameFeed(None, game_id, registry.get("counter"))  # type: ignore[arg-type]
    feed.head = head
    return feed


Answers = dict[type, Any]


# The receipt key every scripted game signs with (docs/audit.md 8.4): the command path
# asks for it after every write, so an exchange answers it unless a test says otherwise.
SIGNER = ReceiptSigner(b"\x07" * 32)


class Exchange:
    """One session and the answers its requests get (GameSigner: SIGNER, unless given;
    SignReceipt: a tree of one, as the driver's batcher signs a lone reply)."""

    def __init__(self, gw: Shared | None = None, address: str = "192.0.2.1") -> None:
        self.gw = gw or shared()
        self.session = Session(self.gw, address, Holder(), now=0.0)  # type: ignore[arg-type]
        self.now = 0.0
        self.requests: list[Request] = []

    def send(self, message: dict[str, Any] | str | bytes, answers: Answers | None = None,
             step: float = 0.0) -> list[Output]:  # fmt: skip
        """Send one frame; answer each request from `answers` by its type (the time goes
        on by `step` at each answer). What the frame left in the outbox, in order."""
        raw = message if isinstance(message, str | bytes) else msgspec.json.encode(message)
        if isinstance(raw, bytes) and not isinstance(message, bytes):
            raw = raw.decode()
        self.requests = []
        request = self.session.receive(raw, self.now)
        while request is not None:
            self.requests.append(request)
            self.now += step
            answer = (_SIGNING | (answers or {})).get(type(request), _UNANSWERED)
            if answer is _UNANSWERED:
                raise AssertionError(f"unexpected request {request!r}")
            if isinstance(answer, Callable) and not isinstance(answer, type):  # type: ignore[arg-type]
                try:
                    answer = answer(request)
                except Exception as exc:
                    answer = exc
            if isinstance(answer, BaseException):
                request = self.session.fail(for_session(answer), self.now)
            else:
                request = self.session.resume(answer, self.now)
        out = list(self.session.outbox)
        self.session.outbox.clear()
        return out

    def reply(self, message: dict[str, Any] | str | bytes, answers: Answers | None = None,
              step: float = 0.0) -> dict[str, Any]:  # fmt: skip
        """The one frame a message is answered with (and no effect)."""
        out = self.send(message, answers, step)
        assert len(out) == 1 and isinstance(out[0], bytes), out
        frame: dict[str, Any] = msgspec.json.decode(out[0])
        return frame

    def kinds(self) -> list[str]:
        """The names of the requests the last frame made, in order."""
        return [type(r).__name__ for r in self.requests]


_UNANSWERED = object()
_SIGNING: dict[type, Any] = {
    GameSigner: SIGNER,
    SignReceipt: lambda r: sign_batch(r.signer, [r.statement], blinds=os.urandom(BLIND_BYTES))[0],
}


def frames(outputs: list[Output]) -> list[dict[str, Any]]:
    return [msgspec.json.decode(o) for o in outputs if isinstance(o, bytes)]
