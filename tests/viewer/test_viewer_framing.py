"""The viewer under its Content-Security-Policy, in a real headless Chromium: it still
opens a game and follows it live with no policy violation (its scripts and styles are
files, it connects to its own origin's websocket), and a page of another origin that
frames it gets nothing (`frame-ancestors 'none'`, X-Frame-Options DENY)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from umpire.clients import UmpireClient
from umpire.server.app import Running

TIMEOUT = 30_000  # ms for any one thing to appear (generous: a loaded 2-core CI runner)


@pytest.fixture
async def hostile_origin() -> AsyncIterator[tuple[int, list[str]]]:
    """Another origin (another loopback port) serving one page: the `frames` it is given."""
    pages: list[str] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        body = pages[-1].encode()
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1], pages
    finally:
        server.close()
        await server.wait_closed()


async def test_the_viewer_works_under_its_policy_with_no_violation(
    browser: Any, viewer_gateway: Running
) -> None:
    port = viewer_gateway.port
    page = await browser.new_page()
    reports: list[str] = []
    page.on("console", lambda message: reports.append(message.text))
    await page.add_init_script(
        "document.addEventListener('securitypolicyviolation', (e) =>"
        " console.log('violation: ' + e.violatedDirective + ' ' + e.blockedURI));"
    )
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("counter", {"target": 100}, client_entropy="waived")
        await page.goto(f"http://127.0.0.1:{port}/")
        await page.fill("#credential", created.player_credential)
        await page.click("#open-game button[type=submit]")
        await page.wait_for_selector('#events li[data-seq="1"]', timeout=TIMEOUT)
        accepted = await client.send(created.game_id, {"type": "Push"})
        await page.wait_for_selector(f'#events li[data-seq="{accepted.seqs[-1]}"]', timeout=TIMEOUT)
    styled = await page.evaluate("getComputedStyle(document.querySelector('header')).display")
    assert styled  # the stylesheet (a file) applied
    assert [r for r in reports if "violation" in r or "Content Security Policy" in r] == []
    await page.close()


async def test_another_origin_cannot_frame_the_viewer(
    browser: Any, viewer_gateway: Running, hostile_origin: tuple[int, list[str]]
) -> None:
    port, pages = hostile_origin
    viewer = f"http://127.0.0.1:{viewer_gateway.port}/"
    pages.append(f'<!doctype html><iframe id="f" src="{viewer}"></iframe>')
    page = await browser.new_page()
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text))
    await page.goto(f"http://127.0.0.1:{port}/")
    await page.wait_for_load_state("load")
    framed = [frame for frame in page.frames if frame is not page.main_frame]
    assert len(framed) == 1
    # Chromium replaces a refused frame's document with its own error page: none of the
    # viewer's elements exist in it, and it says why on the console.
    assert framed[0].url != viewer or await framed[0].query_selector("#credential") is None
    assert await framed[0].query_selector("#credential") is None
    assert any("frame-ancestors" in text for text in refused), refused
    await page.close()
