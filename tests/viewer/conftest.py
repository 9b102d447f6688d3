"""A real headless Chromium (Debian's `chromium`, driven by Python playwright) against a
real in-process gateway. Playwright never downloads a browser here: it launches the
system one. Without it the viewer tests skip, saying why."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from umpire.server.app import Running, running_gateway
from umpire.server.config import Settings
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.dice import seed_source

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "viewer"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def chromium_path() -> str | None:
    """The system Chromium, if installed."""
    for candidate in (os.environ.get("UMPIRE_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):  # fmt: skip
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[Any]:
    """One headless Chromium for the viewer tests (skips if none can be launched)."""
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        pytest.skip("python playwright is not installed (pip install -e '.[test]')")
    path = chromium_path()
    if path is None:
        pytest.skip("no system Chromium: apt-get install chromium")
    async with async_playwright() as pw:
        try:
            chromium = await pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        except Exception as exc:  # a browser that cannot start is an environment problem
            pytest.skip(f"Chromium at {path} did not launch: {exc}")
        try:
            yield chromium
        finally:
            await chromium.close()


@pytest.fixture
async def viewer_gateway(
    redis_server: EmbeddedRedis, prefix: str, request: pytest.FixtureRequest
) -> AsyncIterator[Running]:
    """A gateway on a free loopback port serving the viewer, over the suite's Valkey. Its
    dice seeds are deterministic (testing/support/dice.py seed_source): a page that shows what
    the dice did shows the same thing on every run."""
    settings = Settings(port=0, prefix=prefix, max_messages_per_second=1000, max_burst=1000)
    options = {"draw_seed": seed_source(request)}
    async with running_gateway(settings, redis_server.url, games_options=options) as running:
        yield running


@pytest.fixture
def artifacts() -> Path:
    """Where the viewer tests leave their screenshots (gitignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
async def table_page(browser: Any, viewer_gateway: Running) -> AsyncIterator[Any]:
    """A page on the table's front page, where a test runs the table's own modules
    (`page.evaluate` of an `import('./render.js')` and the like) on data of its own."""
    page = await browser.new_page()
    await page.goto(f"http://127.0.0.1:{viewer_gateway.port}/")
    try:
        yield page
    finally:
        await page.close()
