"""docs/audit.md 8.2, 8.4: the browser table checks each `created`, `accepted` and `state`
receipt's signature against the game's receipt key as it arrives (clients/web/umpire.js, with the
check clients/web/receipt_check.js shares with the verify page). Playwright routes the
page's websocket through the test, which doctors one `accepted` reply in flight (a hex
digit of its signature changed): the table says in words what failed, that the move
stands and the receipts are kept, and how to check the game; the receipt is kept marked
`client_check`. An honest server draws no warning, and every receipt is checked."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.viewer_page import create_game, send
from umpire.events.receipt import game_receipt_key, read_receipts_file, signed_by
from umpire.server.app import Running


def flip(hex_text: str) -> str:
    """The same hex with its first digit changed."""
    return ("1" if hex_text[0] == "0" else "0") + hex_text[1:]


def flip_signature(reply: dict[str, Any]) -> None:
    reply["signature"] = flip(reply["signature"])


def flip_proof(reply: dict[str, Any]) -> None:
    # A lone reply's tree has no proof: one hash added to it leads to another root.
    reply["proof"] = [flip(reply["proof"][0])] if reply["proof"] else ["00" * 32]


def drop_signature(reply: dict[str, Any]) -> None:
    for field in ("key_id", "signature", "proof", "leaf_index", "tree_size"):
        reply.pop(field, None)


class Doctor:
    """Between the page and the gateway: every frame passes, but while `armed`, the next
    signed reply of type `reply` is doctored (once; by default its signature changed)."""

    def __init__(
        self, reply: str = "accepted", how: Callable[[dict[str, Any]], None] = flip_signature
    ) -> None:
        self.reply = reply
        self.how = how
        self.armed = False
        self.doctored: dict[str, Any] | None = None

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            if self.armed and isinstance(message, str):
                reply = json.loads(message)
                if reply.get("type") == self.reply and reply.get("signature"):
                    self.how(reply)
                    self.armed = False
                    self.doctored = reply
                    message = json.dumps(reply)
            ws.send(message)

        server.on_message(down)
        ws.on_message(server.send)


async def table(browser: Any, doctor: Doctor) -> tuple[Any, Any]:
    context = await browser.new_context()
    page = await context.new_page()
    await page.route_web_socket("**/ws", doctor.route)
    return context, page


async def kept(page: Any, game: str) -> tuple[str, list[Any]]:
    """The game's receipt key and its receipts, as this browser kept them."""
    text = await page.evaluate("(g) => window.umpireViewer.client.receipts.exportText(g)", game)
    _, _, anchors = read_receipts_file(text)
    return text, [a for a in anchors if a.kind == "receipt" and a.reply != "state"]


async def game_key(gateway: Running, game: str) -> str:
    """The receipt key the game's GameCreated names, from the store."""
    return game_receipt_key(await gateway.gateway.store.read(game))


async def test_a_doctored_receipt_draws_a_warning_and_is_kept_marked(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    doctor = Doctor()
    context, page = await table(browser, doctor)
    try:
        game = await create_game(page, viewer_gateway.port, "counter", "")
        assert await page.locator("#receipt-warning").is_hidden()
        doctor.armed = True
        answer = await send(page, "Add", {"amount": 2})
        assert answer["ok"] and doctor.doctored is not None  # the move went through
        warning = page.locator("#receipt-warning")
        await warning.wait_for(state="visible")
        text = await warning.inner_text()
        await page.screenshot(path=str(artifacts / "receipt-warning.png"))
        seqs = doctor.doctored["seqs"]
        assert f"events {seqs[0]} to {seqs[-1]}" in text or f"event {seqs[-1]}" in text, text
        assert "the signature does not verify under the game's key" in text
        assert "kept" in text and f"umpire audit {game}" in text and "verify page" in text
        assert "receipt_not_signed" not in text and "client_check" not in text  # words, no codes
        # The next honest reply checks out: the warning stays, about the one that failed.
        assert (await send(page, "Add", {"amount": 1}))["ok"]
        _, receipts = await kept(page, game)
        marked = [a for a in receipts if a.client_check]
        assert [a.command_id for a in marked] == [doctor.doctored["command_id"]]
        assert "does not verify" in marked[0].client_check
        assert marked[0].signature == doctor.doctored["signature"]  # what the server sent
        assert len(receipts) == 4  # created, the seed's binding, two commands
        assert await warning.get_attribute("data-faults") == "1"
        # A reload (the table's link keeps the credential) warns again, from the receipts
        # this browser kept marked.
        await page.reload()
        await page.locator("#receipt-warning").wait_for(state="visible")
        assert await page.locator("#receipt-warning").inner_text() == text
    finally:
        await context.close()


async def test_an_honest_server_draws_no_warning_and_every_receipt_is_checked(
    browser: Any, viewer_gateway: Running
) -> None:
    context, page = await table(browser, Doctor())
    try:
        game = await create_game(page, viewer_gateway.port, "counter", "")
        assert (await send(page, "Add", {"amount": 2}))["ok"]
        _, receipts = await kept(page, game)
        assert len(receipts) == 3 and not any(a.client_check for a in receipts)
        # Checked against the game's key (as `created` gave it), not passed unchecked.
        key = await page.evaluate("(g) => window.umpireViewer.client.receiptKeys.get(g)", game)
        assert key == await game_key(viewer_gateway, game) and key
        warning = page.locator("#receipt-warning")
        assert await warning.get_attribute("data-faults") == "0" and await warning.is_hidden()
    finally:
        await context.close()


CREATE = """async () => {
    const { UmpireClient, MemoryReceipts } = await import("/umpire.js");
    const receipts = new MemoryReceipts();
    const client = new UmpireClient(`ws://${location.host}/ws`, { receipts });
    await client.connect();
    const created = await client.create("counter", { target: 1000 });
    client.close();
    return created;
}"""

# A client that holds only the credential (it created nothing, subscribed to nothing):
# the game's key is read from its GameCreated on a connection of its own.
SEND_WITH_CREDENTIAL = """async ([credential, gameId]) => {
    const { UmpireClient, MemoryReceipts } = await import("/umpire.js");
    const client = new UmpireClient(`ws://${location.host}/ws`, { receipts: new MemoryReceipts() });
    const faults = [];
    client.onReceiptFault = (fault) => faults.push(fault);
    await client.connect();
    await client.auth(credential);
    const accepted = await client.send(gameId, { type: "Add", amount: 1 });
    const key = client.receiptKeys.get(gameId);
    client.close();
    return { accepted, faults, key };
}"""


@pytest.mark.parametrize(
    ("how", "why"),
    [
        (flip_signature, "the signature does not verify under the game's key"),
        (flip_proof, "the signature does not verify under the game's key"),
        (drop_signature, "the reply carries no signature"),
    ],
)
async def test_a_client_with_a_credential_only_reads_the_key_and_checks(
    browser: Any, viewer_gateway: Running, how: Callable[[dict[str, Any]], None], why: str
) -> None:
    doctor = Doctor(how=how)
    context, page = await table(browser, doctor)
    try:
        await page.goto(f"http://127.0.0.1:{viewer_gateway.port}/")
        created = await page.evaluate(CREATE)
        game, credential = created["game_id"], created["player_credential"]
        honest = await page.evaluate(SEND_WITH_CREDENTIAL, [credential, game])
        assert honest["faults"] == [] and "client_check" not in honest["accepted"]
        assert honest["key"] == created["receipt_key"] == await game_key(viewer_gateway, game)
        doctor.armed = True
        doctored = await page.evaluate(SEND_WITH_CREDENTIAL, [credential, game])
        assert doctor.doctored is not None
        [fault] = doctored["faults"]
        accepted = doctored["accepted"]
        assert fault == {
            "game_id": game, "reply": "accepted", "command_id": accepted["command_id"],
            "first_seq": accepted["seqs"][0], "seq": accepted["head_seq"],
            "why": why,
        }  # fmt: skip
        assert accepted["client_check"] == fault["why"]
    finally:
        await context.close()


async def test_a_doctored_created_receipt_is_reported_and_the_game_stands(
    browser: Any, viewer_gateway: Running
) -> None:
    doctor = Doctor("created")
    context, page = await table(browser, doctor)
    try:
        await page.goto(f"http://127.0.0.1:{viewer_gateway.port}/")
        doctor.armed = True
        result = await page.evaluate(
            """async () => {
                const { UmpireClient, MemoryReceipts } = await import("/umpire.js");
                const receipts = new MemoryReceipts();
                const client = new UmpireClient(`ws://${location.host}/ws`, { receipts });
                const faults = [];
                client.onReceiptFault = (fault) => faults.push(fault);
                await client.connect();
                const created = await client.create("counter", { target: 1000 });
                client.close();
                return { created, faults, text: await receipts.exportText(created.game_id) };
            }"""
        )
        assert doctor.doctored is not None
        created, game = result["created"], result["created"]["game_id"]
        assert [f["reply"] for f in result["faults"]] == ["created"]
        assert created["client_check"] == "the signature does not verify under the game's key"
        _, _, anchors = read_receipts_file(result["text"])
        checks = [(a.reply, a.client_check) for a in anchors if a.kind == "receipt"]
        assert checks == [("created", created["client_check"]), ("accepted", "")]
        assert game and created["client_seed"]  # the game stands, its seed bound
    finally:
        await context.close()


async def state_receipts(page: Any, game: str) -> tuple[str, str, list[Any]]:
    """The game's id, key and `state` receipts, as this browser kept them."""
    text = await page.evaluate("(g) => window.umpireViewer.client.receipts.exportText(g)", game)
    game_id, key, anchors = read_receipts_file(text)
    return game_id, key, [a for a in anchors if a.kind == "receipt" and a.reply == "state"]


async def test_state_receipts_are_signed_checked_and_a_doctored_one_kept_marked(
    browser: Any, viewer_gateway: Running
) -> None:
    """The table's pushed states carry signed receipts (docs/audit.md 8.4), checked as an
    `accepted` one's: honest ones verify and are kept signed; one doctored in flight draws
    the warning, naming the state, and is kept marked."""
    doctor = Doctor(reply="state")
    context, page = await table(browser, doctor)
    try:
        game = await create_game(page, viewer_gateway.port, "counter", "")
        assert (await send(page, "Add", {"amount": 2}))["ok"]
        game_id, key, honest = await state_receipts(page, game)
        assert key == await game_key(viewer_gateway, game)
        assert honest and all(signed_by(a, game_id, key) for a in honest), honest
        assert not any(a.client_check for a in honest)
        assert all(a.first_seq == a.head_seq and a.signature for a in honest)
        warning = page.locator("#receipt-warning")
        assert await warning.get_attribute("data-faults") == "0"
        doctor.armed = True
        assert (await send(page, "Add", {"amount": 1}))["ok"]
        await warning.wait_for(state="visible")
        assert doctor.doctored is not None
        text = await warning.inner_text()
        assert f"the state after event {doctor.doctored['seq']}" in text, text
        assert "the signature does not verify under the game's key" in text
        _, _, after = await state_receipts(page, game)
        marked = [a for a in after if a.client_check]
        assert [a.signature for a in marked] == [doctor.doctored["signature"]]
        assert not signed_by(marked[0], game_id, key)
    finally:
        await context.close()
