"""A protocol fuzzer (hypothesis) against a real in-process gateway on the suite's Valkey:
random frames, random fields, random message types, random commands of every ruleset and
random sequences of valid ones. Whatever arrives, the server keeps answering (/healthz and
a new connection's welcome), every error frame is structured (`type: error` with `code`
and `message`), a refused command writes nothing (the game's version is unchanged), and
every touched game's hash chain verifies and its audit passes.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import threading
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from umpire.engine import registry
from umpire.engine.audit import audit
from umpire.engine.handling import command_names
from umpire.events.chain import verify_chain
from umpire.events.redis_store import RedisEventStore
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.drivers import driver, rulesets
from umpire.testing.support.gateways import gateway_settings, http_get
from umpire.testing.support.peer import Peer

T = TypeVar("T")

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,  # a fixed, reproducible run in CI
)
MESSAGE_TYPES = ["create", "auth", "subscribe", "unsubscribe", "command", "list_games",
                 "view", "revoke", "welcome", "event", "error", ""]  # fmt: skip
FIELDS = ["type", "id", "game_id", "command_id", "command", "credential", "from_seq", "view",
          "ruleset", "setup", "client_seed", "dice", "expected_seq"]  # fmt: skip

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
    st.text(max_size=40), st.sampled_from(["", "d6", "2d6", "counter", "-1", "../x", "{g}"]),
)  # fmt: skip
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=8)), inner,
                        max_size=4),
    ),
    max_leaves=12,
)  # fmt: skip


def message(game_id: str) -> st.SearchStrategy[dict[str, Any]]:
    """A message-shaped object: a real or fake type and random known or unknown fields,
    sometimes aimed at the game under test."""
    fields = st.dictionaries(st.sampled_from(FIELDS), json_value, max_size=6)
    return st.builds(
        lambda kind, body, aim: {**body, "type": kind, **({"game_id": game_id} if aim else {})},
        st.one_of(st.sampled_from(MESSAGE_TYPES), json_leaf),
        fields,
        st.booleans(),
    )


frames = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=200),
    json_value.map(lambda v: msgspec.json.encode(v).decode()),
)


class Site:
    """A gateway and its clients on an event loop of their own, in a thread: hypothesis
    runs plain functions, which hand each step to that loop and wait (bounded)."""

    def __init__(self, redis_url: str, prefix: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.stack = contextlib.AsyncExitStack()
        # The fuzz checks the protocol and the log, not admission (tests/server/
        # test_admission.py): on a loaded machine a bot's turn measures more CPU, is charged
        # more units, and a `create` after a few was refused over_budget (busy run, 6fdb93c).
        settings = gateway_settings(
            prefix, max_messages_per_second=10_000, max_burst=10_000,
            cost_per_second=1e6, cost_burst=1e6, address_cost_per_second=1e6,
            address_cost_burst=1e6, creates_per_minute=1e6, create_burst=1e6,
        )  # fmt: skip
        self.running: Running = self.run(
            self.stack.enter_async_context(running_gateway(settings, redis_url))
        )
        self.url = f"ws://127.0.0.1:{self.running.port}/ws"
        self.store = self.running.gateway.store

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
        """Run a coroutine on the site's loop and return its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def peer(self) -> Peer:
        """A new connection, owned by the site's loop."""
        return self.run(Peer.open(self.url))

    def close(self) -> None:
        self.run(self.stack.aclose())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


_sites = itertools.count(1)


@pytest.fixture(scope="module")
def site(redis_server: EmbeddedRedis) -> Iterator[Site]:
    s = Site(redis_server.url, f"fz{os.getpid()}x{next(_sites)}")
    try:
        yield s
    finally:
        s.close()


async def check_reply(peer: Peer, frame: str | bytes, tag: str) -> list[dict[str, Any]]:
    """Send `frame`, then a marker request; every frame up to the marker's reply."""
    start = len(peer.frames)
    await peer.ws.send(frame)
    await peer.ws.send(f'{{"type": "list_games", "id": "{tag}"}}')
    await peer.wait_for(lambda f: f.get("id") == tag, 10)
    got = peer.frames[start:]
    for f in got:
        if f["type"] == "error":
            assert isinstance(f["code"], str) and f["code"], f
            assert isinstance(f["message"], str) and f["message"], f
            assert f["code"] != "internal", f
    return got


async def alive(running: Running, url: str) -> None:
    """The server still answers: health, and a new connection's welcome."""
    status, body = await http_get(running.port, "/healthz")
    assert status == 200 and '"reachable"' in body
    peer = await Peer.open(url)
    await peer.close()


async def chain_and_audit(store: RedisEventStore, game_id: str) -> None:
    envelopes = await store.read(game_id)
    assert verify_chain(envelopes, game_id=game_id) == len(envelopes)
    report = audit(envelopes)
    assert report.ok, report.failure


def finish(site: Site, peer: Peer, games: list[str]) -> None:
    """After a fuzz run: still alive, no internal error, every touched game verifies."""
    site.run(alive(site.running, site.url))
    for gid in games:
        site.run(chain_and_audit(site.store, gid))
    assert site.running.gateway.metrics.errors["internal"] == 0
    site.run(peer.close())


def test_random_frames_and_messages(site: Site) -> None:
    peer = site.peer()
    created = site.run(
        peer.ok(
            {
                "type": "create",
                "client_entropy": "waived",
                "ruleset": "counter",
                "setup": {"target": 10**6},
            }
        )
    )
    gid = created["game_id"]
    counter = itertools.count()

    @FUZZ
    @given(st.one_of(frames, message(gid).map(lambda m: msgspec.json.encode(m).decode())))
    def one(frame: str | bytes) -> None:
        before = site.run(site.store.version(gid))
        got = site.run(check_reply(peer, frame, f"m{next(counter)}"))
        accepted = sum(len(f["seqs"]) for f in got if f["type"] == "accepted"
                       and f["game_id"] == gid and not f["duplicate"])  # fmt: skip
        assert site.run(site.store.version(gid)) == before + accepted

    one()
    finish(site, peer, [gid])


def command_of(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """Commands of a ruleset: a real type (or not) with its own field names (and others)
    holding random values."""
    ruleset = registry.get(name)
    names = command_names(ruleset)
    types = {t.__struct_config__.tag: t for t in ruleset.command_types}
    fields_of = {n: [f.name for f in msgspec.structs.fields(types[n])] if n in types else []
                 for n in names}  # fmt: skip

    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        kind = draw(st.one_of(st.sampled_from(names), st.text(max_size=10)))
        known = [*fields_of.get(kind, []), "dice", "purpose", "result", "count", "sides"]
        body = draw(st.dictionaries(st.one_of(st.sampled_from(known), st.text(max_size=6)),
                                    json_value, max_size=6))  # fmt: skip
        return {**body, "type": kind}

    return build()


manual_dice = st.one_of(st.none(), st.lists(st.lists(st.integers(-2, 30), max_size=3), max_size=3))


@pytest.mark.parametrize("name", rulesets())
def test_random_commands_of_every_ruleset(site: Site, name: str) -> None:
    setup, _ = driver(name)
    peer = site.peer()
    gid = site.run(
        peer.ok({"type": "create", "client_entropy": "waived", "ruleset": name, "setup": setup})
    )["game_id"]
    counter = itertools.count()

    @settings(FUZZ, max_examples=40)
    @given(command_of(name), manual_dice)
    def one(command: dict[str, Any], dice: list[list[int]] | None) -> None:
        before = site.run(site.store.version(gid))
        message: dict[str, Any] = {
            "type": "command",
            "game_id": gid,
            "command_id": f"f{next(counter)}",
            "command": command,
        }
        if dice is not None:
            message["dice"] = dice
        reply = site.run(peer.request(message))
        after = site.run(site.store.version(gid))
        if reply["type"] == "error":
            assert reply["code"] and reply["message"] and reply["code"] != "internal", reply
            assert after == before, f"a refused command wrote: {reply}"
        else:
            assert reply["type"] == "accepted" and after == before + len(reply["seqs"])

    one()
    finish(site, peer, [gid])


@pytest.mark.parametrize("name", rulesets())
def test_random_sequences_of_valid_commands(site: Site, name: str) -> None:
    """Sequences drawn from each ruleset's driver, with re-sent command ids (duplicates)
    and stale `expected_seq`s mixed in; then the chain and the audit of every game."""
    setup, propose = driver(name)
    peer = site.peer()
    touched: list[str] = []

    async def play(seed: int, length: int) -> None:
        rng = random.Random(seed)
        created = await peer.ok(
            {"type": "create", "client_entropy": "waived", "ruleset": name, "setup": setup}
        )
        gid = created["game_id"]
        touched.append(gid)
        for i in range(length):
            _, game = await site.running.gateway.games.load(gid)
            if game.meta.ended:
                break
            before = game.meta.seq
            resend = i > 0 and rng.random() < 0.1
            message: dict[str, Any] = {
                "type": "command",
                "game_id": gid,
                "command_id": f"s{rng.randrange(i)}" if resend else f"s{i}",
                "command": rng.choice(propose(game.state, rng)),
            }
            if rng.random() < 0.1 and before > 1:
                message["expected_seq"] = before - 1
            reply = await peer.request(message)
            after = await site.store.version(gid)
            if reply["type"] == "error" or reply.get("duplicate"):
                assert reply.get("code") != "internal", reply
                assert after == before, reply
            else:
                assert after == before + len(reply["seqs"])

    @settings(FUZZ, max_examples=6)
    @given(st.integers(0, 2**32), st.integers(5, 40))
    def one(seed: int, length: int) -> None:
        site.run(play(seed, length))

    one()
    finish(site, peer, touched)
