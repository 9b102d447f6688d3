"""The browser client (clients/web/umpire.js) in a real headless Chromium, reconnecting:
its re-auths and resubscribes carry ids, so a refusal reaches the subscription
(`onEnded`) instead of being lost, and the subscriptions it keeps resume exactly once.
On main they went out id-less, the gateway's id-less refusal was dropped, and the
subscription silently never delivered again."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.support.browser import wait_for
from tests.support.lost_writes import lose_writes_after_seq_1
from tests.support.viewer_page import TIMEOUT
from tests.support.waiting import buckets_full, until
from umpire.clients import UmpireClient
from umpire.engine.roles import Role
from umpire.server import credentials
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games
from umpire.testing.support.gateways import gateway_settings

# The gateway refuses a websocket anywhere but /ws: a client pointed there stays
# disconnected, retrying. (On the page's own origin: its Content-Security-Policy lets it
# connect nowhere else, and Chromium then blocks the attempt without a close event.)
DEAD_PATH = "/not-the-websocket"

# A page-wide client following each (credential, game id) from seq 0; window.seqs[game]
# holds the seqs delivered, window.ended[game] what onEnded was given.
FOLLOW = """async ([url, follows]) => {
    const { UmpireClient } = await import("/umpire.js");
    const client = new UmpireClient(url, { reconnectDelay: 20 });
    window.client = client;
    window.seqs = {};
    window.ended = {};
    window.status = "";
    client.onStatus = (status) => { window.status = status; };
    await client.connect();
    for (const [credential, gameId] of follows) {
        await client.auth(credential);
        window.seqs[gameId] = [];
        await client.subscribe(gameId, 0, (frame) => window.seqs[gameId].push(frame.seq), {
            onEnded: (error) => {
                window.ended[gameId] = { code: error.code, details: error.details || null };
            },
        });
    }
}"""

# Drop the connection and keep the client away (retrying a dead address) until AWAKE.
AWAY = f"""async () => {{
    window.realUrl = window.client.url;
    window.client.url = window.realUrl.slice(0, -"/ws".length) + "{DEAD_PATH}";
    window.client.ws.close();
}}"""
AWAKE = "() => { window.client.url = window.realUrl; }"


@pytest.fixture
async def one_unit(redis_server: EmbeddedRedis, prefix: str) -> AsyncIterator[Running]:
    """A gateway serving the page whose connections hold one unit, refilled in two
    seconds: an auth and a subscribe sent one after the other leave the subscribe
    `over_budget` (as tests/server/test_client_restore.py's fixture of that name)."""
    settings = gateway_settings(prefix, cost_per_second=0.5, cost_burst=1)
    async with running_gateway(settings, redis_server.url) as running:
        yield running


async def _seqs(page: Any, game_id: str) -> list[int]:
    return list(await page.evaluate("(g) => window.seqs[g]", game_id))


async def _wait_for_seq(page: Any, game_id: str, seq: int) -> None:
    await wait_for(
        page,
        "([g, s]) => window.seqs[g] && window.seqs[g].includes(s)",
        arg=[game_id, seq],
        timeout=TIMEOUT,
    )


async def _away(page: Any) -> None:
    await page.evaluate(AWAY)
    await wait_for(page, "() => window.status === 'disconnected'", timeout=TIMEOUT)


async def test_a_credential_revoked_while_the_page_was_away_ends_its_subscription(
    browser: Any, viewer_gateway: Running
) -> None:
    """The re-auth is refused (`unauthorized`): the revoked game's `onEnded` is called
    with it, the credential leaves `client.credentials`, and the other game's
    subscription resumes with no gap and no repeat. Fails on main: `onEnded` is never
    called and the credential is kept."""
    port = viewer_gateway.port
    store = viewer_gateway.gateway.store
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as owner:
        revoked = await owner.create("counter", {"target": 10**6})
        kept = await owner.create("counter", {"target": 10**6})
        page = await browser.new_page()
        await page.goto(f"http://127.0.0.1:{port}/")
        follows = [
            [revoked.spectator_credential, revoked.game_id],
            [kept.spectator_credential, kept.game_id],
        ]
        await page.evaluate(FOLLOW, [f"ws://127.0.0.1:{port}/ws", follows])
        for game in (revoked, kept):
            await _wait_for_seq(page, game.game_id, await store.version(game.game_id))

        await _away(page)
        assert await credentials.revoke(store, revoked.spectator_credential)
        for n in range(3):
            await owner.send(kept.game_id, {"type": "Push"}, command_id=f"while-away-{n}")
        head = await store.version(kept.game_id)
        await page.evaluate(AWAKE)

        await wait_for(page, f"() => window.ended['{revoked.game_id}']", timeout=TIMEOUT)
        ended = await page.evaluate(f"() => window.ended['{revoked.game_id}']")
        assert ended["code"] == "unauthorized"
        held = await page.evaluate("() => window.client.credentials")
        assert revoked.spectator_credential not in held
        assert kept.spectator_credential in held
        assert (
            await page.evaluate(f"() => window.client.subscriptions.has('{revoked.game_id}')")
            is False
        )

        await _wait_for_seq(page, kept.game_id, head)
        assert await _seqs(page, kept.game_id) == list(range(1, head + 1))
        assert kept.game_id not in await page.evaluate("() => window.ended")
        await page.close()


async def test_a_resume_past_the_end_of_a_rewound_log_ends_with_log_rewound(
    browser: Any, viewer_gateway: Running
) -> None:
    """The store lost events the page holds while it was away (it missed the unsolicited
    notice): the resubscribe from its last seq is refused with `log_rewound` and the seq
    the log now ends at, and `onEnded` is called with it. Passes on main too, by chance:
    main's id-less resubscribe got an id-less `log_rewound`, which the unsolicited-notice
    path happened to take; this keeps it so now that the resubscribe carries an id."""
    port = viewer_gateway.port
    store = viewer_gateway.gateway.store
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as owner:
        created = await owner.create("counter", {"target": 1_000})
        gid = created.game_id
        for n in range(3):
            await owner.send(gid, {"type": "Add", "amount": 1}, command_id=f"c{n}")
        held = await store.version(gid)
        page = await browser.new_page()
        await page.goto(f"http://127.0.0.1:{port}/")
        await page.evaluate(
            FOLLOW, [f"ws://127.0.0.1:{port}/ws", [[created.spectator_credential, gid]]]
        )
        await _wait_for_seq(page, gid, held)

        await _away(page)
        await lose_writes_after_seq_1(store, gid, ["c0", "c1", "c2"])
        await owner.send(gid, {"type": "Add", "amount": 2}, command_id="new")  # seq 2 again
        head = await store.version(gid)
        assert 1 < head < held
        await page.evaluate(AWAKE)

        await wait_for(page, f"() => window.ended['{gid}']", timeout=TIMEOUT)
        ended = await page.evaluate(f"() => window.ended['{gid}']")
        assert ended["code"] == "log_rewound"
        assert ended["details"] == {"game_id": gid, "head": head, "from_seq": held}
        # The credential was not refused: it is kept, for a subscribe again with `view`.
        assert created.spectator_credential in await page.evaluate(
            "() => window.client.credentials"
        )
        assert await _seqs(page, gid) == list(range(1, held + 1))  # nothing from the new log
        await page.close()


async def test_an_over_budget_resubscribe_is_asked_again_and_resumes_with_no_gap(
    browser: Any, one_unit: Running, games: Games
) -> None:
    """The reconnect's re-auth takes the new connection's one unit, so its resubscribe is
    refused `over_budget` (retry_after about 2 s): the client asks again after that, keeps
    the subscription and the credential, and every event, those appended while it was
    away included, arrives once and in order. Fails on main: the id-less refusal was
    dropped and nothing after the drop arrived."""
    game_id = (await games.create("counter", {"target": 10**6})).game_id
    for n in range(3):
        await games.handle(game_id, f"before-{n}", {"type": "Push"})
    spectator = await credentials.issue(games.store, game_id, Role.SPECTATOR)
    before = await games.store.version(game_id)
    page = await browser.new_page()
    await page.goto(f"http://127.0.0.1:{one_unit.port}/")
    url = f"ws://127.0.0.1:{one_unit.port}/ws"
    await page.evaluate(
        """async ([url, credential]) => {
            const { UmpireClient } = await import("/umpire.js");
            const client = new UmpireClient(url, { reconnectDelay: 20 });
            window.client = client;
            window.seqs = {};
            window.ended = {};
            client.onStatus = (status) => { window.status = status; };
            await client.connect();
            await client.auth(credential);
        }""",
        [url, spectator],
    )
    # the auth's unit refilled: the first subscribe is paid
    await until(lambda: buckets_full(one_unit.gateway), what="the auth's unit refilled")
    await page.evaluate(
        """async (gameId) => {
            window.seqs[gameId] = [];
            const onEvent = (frame) => window.seqs[gameId].push(frame.seq);
            await window.client.subscribe(gameId, 0, onEvent, {
                onEnded: (error) => { window.ended[gameId] = { code: error.code }; },
            });
        }""",
        game_id,
    )
    await _wait_for_seq(page, game_id, before)

    await _away(page)
    for n in range(3):
        await games.handle(game_id, f"after-{n}", {"type": "Push"})
    head = await games.store.version(game_id)
    await page.evaluate(AWAKE)

    await _wait_for_seq(page, game_id, head)
    assert await _seqs(page, game_id) == list(range(1, head + 1))
    assert await page.evaluate("() => window.client.retries") >= 1
    assert one_unit.gateway.admission.refused["connection"] >= 1
    assert await page.evaluate("() => window.ended") == {}
    assert await page.evaluate("() => window.client.credentials") == [spectator]
    await page.close()
