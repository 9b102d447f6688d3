"""A session (server/session.py) driven by its driver (server/driver.py) with no socket:
frames go in through `serve_frame`, which performs the session's requests on the
gateway's own services over the suite's real Valkey; frames and effects come out of the
session's outbox. tests/server/test_session.py drives a session with no store at all."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest
import redis.exceptions

from umpire.events.redis_store import RedisEventStore
from umpire.events.wire import CLOSE_RATE_LIMIT
from umpire.server.driver import serve_frame, stop_catch_up
from umpire.server.embedded import EmbeddedRedis
from umpire.server.framing import Batch
from umpire.server.games import Games
from umpire.server.gateway import Gateway
from umpire.server.notifier import Notifier
from umpire.server.requests import Close, Follow, Output, Unfollow
from umpire.server.session import Session
from umpire.server.subscription import Subscription
from umpire.testing.support.gateways import gateway_settings

OPERATOR = "o" * 32


class Holder:
    """What the gateway's tables and feeds call on a connection, with no socket behind:
    a revocation drops the game from the session, as the connection does."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.lost: list[str] = []

    def offer(self, batch: Batch) -> bool:
        return True

    def lagging(self, sub: Subscription) -> None:
        pass

    async def rewound(self, sub: Subscription, head: int) -> None:
        pass

    def lose_game_now(self, game_id: str) -> None:
        assert self.session is not None
        sub = self.session.lose_game_now(game_id)
        if sub is not None:
            stop_catch_up(sub.task)

    async def lose_game(self, game_id: str) -> None:
        self.lose_game_now(game_id)
        self.lost.append(game_id)


@pytest.fixture
async def gateway(
    redis_server: EmbeddedRedis, store: RedisEventStore, games: Games, prefix: str
) -> AsyncIterator[Gateway]:
    """A gateway's shared state over the real store, never started: no socket, no task."""
    notifier = Notifier(store)
    await notifier.start()
    try:
        yield Gateway(gateway_settings(prefix, operator_token=OPERATOR), games, notifier)
    finally:
        await notifier.stop()


def open_session(gateway: Gateway, address: str = "192.0.2.1") -> Session:
    holder = Holder()
    session = Session(gateway, address, holder, now=time.monotonic())
    holder.session = session
    return session


async def exchange(session: Session, message: dict[str, Any]) -> list[Output]:
    """Send one message; what the session left to send and do, in order."""
    await serve_frame(session.gw, session, msgspec.json.encode(message).decode())  # type: ignore[arg-type]
    out = list(session.outbox)
    session.outbox.clear()
    return out


def frames(outputs: list[Output]) -> list[dict[str, Any]]:
    return [msgspec.json.decode(o) for o in outputs if isinstance(o, bytes)]


async def answer(session: Session, message: dict[str, Any]) -> dict[str, Any]:
    """The single frame a message is answered with (no effect)."""
    outputs = await exchange(session, message)
    assert len(outputs) == 1 and isinstance(outputs[0], bytes), outputs
    reply: dict[str, Any] = msgspec.json.decode(outputs[0])
    return reply


async def created(session: Session) -> dict[str, Any]:
    reply = await answer(
        session, {"type": "create", "ruleset": "counter", "setup": {"target": 1000}, "id": "c"}
    )
    assert reply["type"] == "created", reply
    return reply


def command(game_id: str, body: dict[str, Any], command_id: str) -> dict[str, Any]:
    return {
        "type": "command",
        "game_id": game_id,
        "command_id": command_id,
        "command": body,
        "id": command_id,
    }


async def test_welcome_names_the_protocol_and_rulesets(gateway: Gateway) -> None:
    welcome = msgspec.json.decode(open_session(gateway).welcome())
    assert welcome["type"] == "welcome" and "counter" in welcome["rulesets"]


async def test_auth_with_a_good_credential_grants_its_role(gateway: Gateway) -> None:
    game = await created(open_session(gateway))
    session = open_session(gateway)
    reply = await answer(
        session, {"type": "auth", "credential": game["spectator_credential"], "id": "a"}
    )
    assert reply == {
        "type": "authenticated",
        "game_id": game["game_id"],
        "role": "spectator",
        "id": "a",
    }
    # The grant: a spectator may view but not command, and names why.
    view = await answer(session, {"type": "view", "game_id": game["game_id"], "id": "v"})
    assert view["type"] == "state" and view["role"] == "spectator"
    refused = await answer(session, command(game["game_id"], {"type": "Push"}, "x"))
    assert refused["code"] == "unauthorized" and "only the player" in refused["message"]
    assert await gateway.store.version(game["game_id"]) == 1  # nothing written


async def test_auth_with_a_bad_credential_is_refused_and_grants_nothing(
    gateway: Gateway,
) -> None:
    game = await created(open_session(gateway))
    session = open_session(gateway)
    forged = game["game_id"] + "." + "A" * 43
    reply = await answer(session, {"type": "auth", "credential": forged, "id": "a"})
    assert reply["type"] == "error" and reply["code"] == "unauthorized" and reply["id"] == "a"
    assert forged not in reply["message"]  # the refusal does not echo the secret
    view = await answer(session, {"type": "view", "game_id": game["game_id"], "id": "v"})
    assert view["code"] == "unauthorized" and "send 'auth' first" in view["message"]
    assert gateway.holders.get((game["game_id"], "")) is None and session.grants == {}


async def test_a_revoked_credential_is_refused_and_its_holder_loses_the_game(
    gateway: Gateway,
) -> None:
    game = await created(open_session(gateway))
    player = open_session(gateway)
    await answer(player, {"type": "auth", "credential": game["player_credential"], "id": "a"})
    operator = open_session(gateway)
    await answer(operator, {"type": "auth", "credential": OPERATOR, "id": "o"})
    revoked = await answer(
        operator, {"type": "revoke", "credential": game["player_credential"], "id": "r"}
    )
    # Two holders: the creating session and `player`.
    assert revoked["existed"] and revoked["dropped"] == 2
    # The holder lost the game at once: its next command is refused, naming the revocation.
    refused = await answer(player, command(game["game_id"], {"type": "Push"}, "p"))
    assert refused["code"] == "unauthorized" and "was revoked" in refused["message"]
    # Presented again on a fresh session, the revoked credential grants nothing.
    again = await answer(
        open_session(gateway),
        {"type": "auth", "credential": game["player_credential"], "id": "b"},
    )
    assert again["code"] == "unauthorized"
    assert await gateway.store.version(game["game_id"]) == 1
    assert gateway.holders == {}


async def test_a_command_is_accepted_with_its_receipt(gateway: Gateway) -> None:
    session = open_session(gateway)
    game = await created(session)  # the creator holds the player credential
    accepted = await answer(session, command(game["game_id"], {"type": "Add", "amount": 3}, "a1"))
    assert accepted["type"] == "accepted" and accepted["seqs"] == [2, 3]
    assert accepted["head_seq"] == 3 and accepted["id"] == "a1"
    assert await gateway.store.version(game["game_id"]) == 3


async def test_a_bad_command_is_refused_with_a_typed_error_and_writes_nothing(
    gateway: Gateway,
) -> None:
    session = open_session(gateway)
    game = await created(session)
    refused = await answer(session, command(game["game_id"], {"type": "Add", "amount": 9}, "b"))
    assert refused["type"] == "error" and refused["id"] == "b"
    assert refused["code"] == "invalid_command" and "<= 6" in refused["message"]
    unknown = await answer(session, command(game["game_id"], {"type": "Teleport"}, "t"))
    assert unknown["type"] == "error" and unknown["id"] == "t"
    assert await gateway.store.version(game["game_id"]) == 1


async def test_frames_that_are_not_messages_get_typed_errors(gateway: Gateway) -> None:
    session = open_session(gateway)
    for raw in ("{not json", '{"type": "teleport", "id": "q"}', b"\x00\x01", "[" * 100 + "]" * 100):
        await serve_frame(gateway, session, raw)
    codes = [(f["code"], f.get("id")) for f in frames(session.outbox)]
    assert codes == [
        ("bad_json", None),
        ("unknown_message_type", "q"),
        ("binary_frame", None),
        ("bad_message", None),
    ]


async def test_admission_over_budget_refuses_and_pauses_reading(gateway: Gateway) -> None:
    session = open_session(gateway)
    await created(session)
    session.budget.tokens = -100.0  # in debt: not even one message is paid for
    before = session.paused_until
    refused = await answer(session, {"type": "list_games", "id": "v"})
    assert refused["code"] == "over_budget" and refused["details"]["scope"] == "connection"
    assert refused["details"]["cost"] == 2 and refused["details"]["retry_after"] > 0
    assert session.paused_until > before  # the connection stops reading for a while


async def test_a_players_view_and_command_over_budget_are_paced_not_refused(
    gateway: Gateway,
) -> None:
    """Issue 29: a view of the head and a command whose budget is in debt (a big opponent
    turn's work) wait for the budget and are answered; on main both were over_budget."""
    session = open_session(gateway)
    game = await created(session)
    # In debt now (~0.1 s at the default 200 units a second), however long the create took.
    session.budget.tokens, session.budget.stamp = -20.0, time.monotonic()
    view = await answer(session, {"type": "view", "game_id": game["game_id"], "id": "v"})
    assert view["type"] == "state" and view["id"] == "v"
    session.budget.tokens, session.budget.stamp = -20.0, time.monotonic()
    added = await answer(session, command(game["game_id"], {"type": "Add", "amount": 1}, "a"))
    assert added["type"] == "accepted"
    assert gateway.admission.paced["getview"] >= 1 and gateway.admission.paced["sendcommand"] >= 1
    assert gateway.admission.refused["connection"] == 0


async def test_too_many_messages_close_with_the_rate_limit_code(gateway: Gateway) -> None:
    session = open_session(gateway)
    session.tokens = 0.0
    assert await exchange(session, {"type": "list_games", "id": "l"}) == [
        Close(CLOSE_RATE_LIMIT, "too many messages per second")
    ]


async def test_a_view_shows_the_role_its_state_and_actions(gateway: Gateway) -> None:
    session = open_session(gateway)
    game = await created(session)
    added = await answer(session, command(game["game_id"], {"type": "Add", "amount": 2}, "a"))
    assert added["type"] == "accepted"
    view = await answer(session, {"type": "view", "game_id": game["game_id"], "id": "v"})
    assert view["role"] == "player" and view["seq"] == 3 and view["state"]["total"] == 2
    assert "Add" in [a["type"] for a in view["actions"]]
    past = await answer(
        session, {"type": "view", "game_id": game["game_id"], "at_seq": 1, "id": "w"}
    )
    assert past["seq"] == 1 and past["state"]["total"] == 0 and past["actions"] == []


async def test_subscribe_and_unsubscribe_are_effects_for_the_connection(
    gateway: Gateway,
) -> None:
    session = open_session(gateway)
    game = await created(session)
    game_id = game["game_id"]
    outputs = await exchange(
        session, {"type": "subscribe", "game_id": game_id, "view": True, "id": "s"}
    )
    replies, effects = frames(outputs), [o for o in outputs if not isinstance(o, bytes)]
    assert [r["type"] for r in replies] == ["subscribed", "state"]
    [follow] = effects
    assert isinstance(follow, Follow) and follow.sub is session.subs[game_id]
    assert follow.sub.next_seq == 2  # after the view's seq: no event twice
    feed = follow.sub.feed
    assert follow.sub in feed.subscriptions and gateway.notifier.feeds[game_id] is feed

    # Subscribing again ends the first subscription (Unfollow) before the second begins.
    again = await exchange(session, {"type": "subscribe", "game_id": game_id, "id": "t"})
    assert isinstance(again[0], Unfollow) and again[0].sub is follow.sub
    assert isinstance(again[-1], Follow) and follow.sub not in feed.subscriptions

    outputs = await exchange(session, {"type": "unsubscribe", "game_id": game_id, "id": "u"})
    unfollow, reply = outputs
    assert isinstance(unfollow, Unfollow) and unfollow.sub is again[-1].sub
    assert msgspec.json.decode(reply) == {"type": "unsubscribed", "game_id": game_id, "id": "u"}
    assert session.subs == {} and not feed.subscriptions


async def test_a_revocation_drops_the_subscription_at_once(gateway: Gateway) -> None:
    session = open_session(gateway)
    game = await created(session)
    game_id = game["game_id"]
    [_, follow] = await exchange(session, {"type": "subscribe", "game_id": game_id, "id": "s"})
    assert isinstance(follow, Follow)
    digest = session.grants[game_id]
    gateway.revoked_now(game_id, digest)
    assert session.subs == {} and follow.sub not in follow.sub.feed.subscriptions
    await asyncio.sleep(0)  # the gateway tells the connection in a task
    assert isinstance(session.holder, Holder) and session.holder.lost == [game_id]
    notice = msgspec.json.decode(session.revoked_notice(game_id, dropped=True))
    assert notice["code"] == "credential_revoked" and notice["details"]["subscription_dropped"]


async def test_a_store_failure_no_adapter_mapped_reaches_the_session_as_store_unavailable(
    gateway: Gateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The session imports no redis-py (tests/server/test_session_purity.py): the driver
    # hands it redis-py's connection error as StoreUnreachable, answered as before, with
    # the error's type and never its text (which names the server's socket).
    session = open_session(gateway)
    game = await created(session)

    async def unmapped(*args: object, **kwargs: object) -> None:
        raise redis.exceptions.ConnectionError("Error 111 connecting to /home/someone/v.sock")

    monkeypatch.setattr(gateway.games, "handle", unmapped)
    reply = await answer(session, command(game["game_id"], {"type": "Push"}, "p1"))
    assert reply == {
        "type": "error",
        "code": "store_unavailable",
        "message": "the store is unavailable (ConnectionError); retry later with the same "
        "command id",
        "details": {},
        "id": "p1",
    }
