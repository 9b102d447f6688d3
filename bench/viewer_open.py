"""`python -m bench viewer_open` (or `python -m bench.viewer_open`): how soon the browser
table shows a game, in Chromium at 1280×800, against one `umpire serve` at its default
budgets. Issue #41: a game of 1,000 events opens from its link, state and actions drawn,
in under 1 s, one of 10,000 events in under 3 s; issue #29: the 82-event Age of Dogfights
`FlyBots` case shows its new head within 2 s, with no `over_budget`.

(a) Counter games of 100, 1,000 and 10,000 events, each opened from the link the page
    keeps for a game it created (`/#game=G&credential=C&keep=1`): the time from the
    navigation's start (performance.now() = 0) to the page showing the head as its
    latest state and its actions, page load included.
(b) An Age of Dogfights game created from the pickers, `RollSetup` sent: the time from
    pressing `FlyBots` (the opponent's big step, dozens of events) to the page showing
    the state and actions at the new head the server answered.

Each time is taken inside the page (performance.now() at the press, then the first
animation frame after the condition holds), so the driver's polling adds nothing. Several
runs of each (a fresh browser context for each), median and max, the `over_budget`
refusals in the gateway's admission counters (/metrics `umpire_over_budget_total`) and in
its log, and the machine's load. JSON on stdout, a table on stderr.

`--runs N` (default 5); `--quick`: one run of each (the smoke test in tests/bench/).
Needs python playwright and Debian's Chromium (/usr/bin/chromium, or $UMPIRE_CHROMIUM);
Playwright never downloads a browser here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.wsload import OPERATOR, REPO, wait_for_port
from umpire.engine.roles import Role
from umpire.events.redis_store import RedisEventStore
from umpire.server import credentials
from umpire.server.embedded import EmbeddedRedis, free_port
from umpire.server.games import Games

GOAL_S = 2.0
# Events in each game opened, with the issue's goal (s) for it: 1 + 2 per Add.
SIZES = {100: 1.0, 1000: 1.0, 10_000: 3.0}
VIEWPORT = {"width": 1280, "height": 800}
PREFIX = "bv"
TIMEOUT_MS = 120_000  # for anything to appear at all (a loaded machine)
# As tests/viewer/conftest.py launches it: headless, no sandbox, nothing phoned home.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

# Inside the page: press `button`, then resolve with the ms until the first animation
# frame after `#state-label` and `#actions` both show the target seq. The target is
# `seq`, or (null) the head of the next command answer (`#play-answer`'s data-head-seq
# once body[data-answers] has grown). A refusal (`#play-error`) rejects with its text.
TIMED_PRESS = """async ([button, seq, timeout]) => {
  const answers = Number(document.body.dataset.answers || 0);
  const target = () => {
    if (seq !== null) return seq;
    if (Number(document.body.dataset.answers || 0) <= answers) return null;
    const error = document.querySelector('#play-error');
    if (error && !error.hidden && error.textContent) throw new Error(error.textContent);
    return document.querySelector('#play-answer').dataset.headSeq || null;
  };
  const shown = () => {
    const want = target();
    return want !== null &&
      document.querySelector('#state-label').dataset.stateSeq === String(want) &&
      document.querySelector('#actions').dataset.seq === String(want);
  };
  const started = performance.now();
  document.querySelector(button).click();
  return await new Promise((resolve, reject) => {
    const stop = () => { watch.disconnect(); clearTimeout(timer); };
    const timer = setTimeout(() => { stop(); reject(new Error('timed out')); }, timeout);
    const check = () => {
      let done;
      try { done = shown(); } catch (err) { stop(); reject(err); return; }
      if (!done) return;
      stop();
      const seq = Number(target());
      requestAnimationFrame(() => resolve({ ms: performance.now() - started, seq }));
    };
    const watch = new MutationObserver(check);
    const all = { subtree: true, childList: true, attributes: true, characterData: true };
    watch.observe(document.body, all);
    check();
  });
}"""


def chromium_path() -> str | None:
    """The system Chromium, if installed."""
    for candidate in (os.environ.get("UMPIRE_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):  # fmt: skip
        if candidate and Path(candidate).exists():
            return candidate
    return None


class Gateway:
    """One `umpire serve` subprocess at its default budgets (only the counter ruleset
    added), on its own data directory, over the given Valkey."""

    def __init__(self, redis_url: str, data: Path) -> None:
        self.port = free_port()
        env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "UMPIRE_DATA_DIR": str(data / "data"),
            "UMPIRE_PORT": str(self.port),
            "UMPIRE_PREFIX": PREFIX,
            "UMPIRE_OPERATOR_TOKEN": OPERATOR,
            "UMPIRE_EXTRA_RULESETS": "umpire_counter:RULESET",
            "UMPIRE_WORKERS": "1",
            "PYTHONPATH": str(REPO),
        }
        self.log_path = data / "gateway.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "umpire.server.cli", "serve"],
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for_port(self.port, self.process, timeout=60.0)
        except BaseException:
            self.stop()
            raise

    def refused(self) -> dict[str, int]:
        """The admission's refusals so far, by scope (/metrics umpire_over_budget_total)."""
        url = f"http://127.0.0.1:{self.port}/metrics"
        with urllib.request.urlopen(url, timeout=30) as answer:
            text = answer.read().decode()
        found = re.findall(r'^umpire_over_budget_total\{scope="(\w+)"\} (\S+)$', text, re.M)
        return {scope: int(float(n)) for scope, n in found}

    def logged_over_budget(self) -> int:
        """Lines of the gateway's log that name `over_budget`."""
        self._log.flush()
        return self.log_path.read_text(errors="replace").count("over_budget")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self._log.close()


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """Debian's Chromium through Playwright (never a downloaded browser)."""
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.async_api import async_playwright

    path = chromium_path()
    if path is None:
        raise SystemExit("no system Chromium: apt-get install chromium (or set UMPIRE_CHROMIUM)")
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


async def long_game(store: RedisEventStore, events: int) -> tuple[str, str, int]:
    """A counter game of about `events` events (a GameCreated, then Adds of two events
    each), a player credential for it, and its head."""
    games = Games(store)
    game_id = (await games.create("counter", {"target": 10**6})).game_id
    for n in range((events - 1 + 1) // 2):
        await games.handle(game_id, f"add-{n}", {"type": "Add", "amount": 1})
    head = await store.version(game_id)
    return game_id, await credentials.issue(store, game_id, Role.PLAYER), head


# Installed before the page's own scripts: resolves with performance.now() (ms since the
# navigation started) at the first animation frame after the state label and the actions
# both show seq `head`.
OPENED = """(head) => {
  window.__opened = new Promise((resolve) => {
    const shown = () => {
      const label = document.querySelector('#state-label');
      const actions = document.querySelector('#actions');
      return label && actions && label.dataset.stateSeq === String(head) &&
        actions.dataset.seq === String(head);
    };
    const check = () => {
      if (!shown()) return;
      watch.disconnect();
      requestAnimationFrame(() => resolve(performance.now()));
    };
    const watch = new MutationObserver(check);
    document.addEventListener('DOMContentLoaded', () => {
      watch.observe(document.body, { subtree: true, childList: true, attributes: true });
      check();
    });
  });
}"""


async def open_from_link(
    browser: Any, port: int, game_id: str, credential: str, head: int
) -> float:
    """(a) once: the game's link loaded in a fresh context; seconds from the navigation's
    start to the head state and its actions on the page."""
    context = await browser.new_context(viewport=VIEWPORT)
    try:
        page = await context.new_page()
        await page.add_init_script(f"({OPENED})({head})")
        await page.goto(f"http://127.0.0.1:{port}/#game={game_id}&credential={credential}&keep=1")
        ms = await asyncio.wait_for(page.evaluate("window.__opened"), TIMEOUT_MS / 1000)
        return float(ms) / 1000
    finally:
        await context.close()


async def fly_bots(browser: Any, port: int, flies: int) -> list[dict[str, Any]]:
    """(b) once: an Age of Dogfights game from the pickers, RollSetup, then `flies` presses
    of FlyBots (while the table offers it); each: seconds to the new head, events."""
    context = await browser.new_context(viewport=VIEWPORT)
    out: list[dict[str, Any]] = []
    try:
        page = await context.new_page()
        await page.goto(f"http://127.0.0.1:{port}/")
        await page.wait_for_selector(
            '#ruleset option[value="age_of_dogfights"]', state="attached", timeout=TIMEOUT_MS
        )
        await page.select_option("#ruleset", "age_of_dogfights")
        await page.select_option("#scenario", "patrol")
        await page.click("#new-game button[type=submit]")
        await page.wait_for_selector("#actions[data-seq] .action-list", timeout=TIMEOUT_MS)
        await _press(page, "RollSetup")
        for _ in range(flies):
            box = page.locator('details.action-box[data-action="FlyBots"]')
            if not await box.count():
                break
            before = int(await page.get_attribute("#actions", "data-seq") or 0)
            shown = await _press(page, "FlyBots")
            out.append({"seconds": shown["ms"] / 1000, "head": shown["seq"],
                        "events": shown["seq"] - before})  # fmt: skip
    finally:
        await context.close()
    return out


async def _press(page: Any, action: str) -> dict[str, Any]:
    """Open the action's form and press its button (no fields), timed in the page."""
    box = page.locator(f'details.action-box[data-action="{action}"]')
    await box.wait_for(state="attached", timeout=TIMEOUT_MS)
    await box.evaluate("(d) => { d.open = true; }")
    button = f'details.action-box[data-action="{action}"] form button[type=submit]'
    shown: dict[str, Any] = await page.evaluate(TIMED_PRESS, [button, None, TIMEOUT_MS])
    return shown


def spread(seconds: list[float]) -> dict[str, Any]:
    """Median and max (s) of the runs."""
    if not seconds:
        return {"runs": 0, "median_s": None, "max_s": None}
    return {
        "runs": len(seconds),
        "each_s": [round(s, 3) for s in seconds],  # in order: the first is a cold page
        "median_s": round(statistics.median(seconds), 3),
        "max_s": round(max(seconds), 3),
    }


async def run(runs: int = 5, flies: int = 2) -> dict[str, Any]:
    """Both measurements on one fresh Valkey and gateway; the figures."""
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="umpire-bench-viewer-") as tmp:
        server = EmbeddedRedis(Path(tmp) / "redis", appendfsync="everysec").start()
        store = RedisEventStore.from_url(server.url, prefix=PREFIX)
        gateway: Gateway | None = None
        try:
            made = {size: await long_game(store, size) for size in SIZES}
            gateway = Gateway(server.url, Path(tmp))
            opened: dict[int, list[float]] = {size: [] for size in SIZES}
            flown: list[dict[str, Any]] = []
            async with chromium() as browser:
                for size, (game_id, credential, head) in made.items():
                    for _ in range(runs):
                        seconds = await open_from_link(
                            browser, gateway.port, game_id, credential, head
                        )
                        opened[size].append(seconds)
                for _ in range(runs):
                    flown += await fly_bots(browser, gateway.port, flies)
            refused = gateway.refused()
            logged = gateway.logged_over_budget()
        finally:
            if gateway is not None:
                gateway.stop()
            await store.close()
            server.stop()
    return {
        "open_from_link": {
            str(size): {**spread(opened[size]), "events": made[size][2], "goal_s": SIZES[size]}
            for size in SIZES
        },
        "fly_bots": {
            **spread([f["seconds"] for f in flown]),
            "events_per_batch": [f["events"] for f in flown],
            "heads": [f["head"] for f in flown],
        },
        "over_budget_refused": refused,
        "over_budget_in_log": logged,
        "goal_s": GOAL_S,
        "machine": {
            "cpus": os.cpu_count(),
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in os.getloadavg()],
            "python": sys.version.split()[0],
            "platform": platform.platform(),
        },
    }


def rows(figures: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(figure, measured, goal) for the table."""
    goal = f"< {figures['goal_s']:g} s"
    flown = figures["fly_bots"]
    events = flown["events_per_batch"]
    sizes = f"{min(events)}–{max(events)} events, heads to {max(flown['heads'])}" if events else ""
    refused = sum(figures["over_budget_refused"].values())
    load = figures["machine"]
    return [
        *(
            (
                f"open a {o['events']:,}-event game from its link → map and actions drawn "
                f"(median/max of {o['runs']})",
                f"{o['median_s']:.3f} / {o['max_s']:.3f} s",
                f"< {o['goal_s']:g} s",
            )
            for o in figures["open_from_link"].values()
        ),
        (
            f"Age of Dogfights FlyBots → new head shown (median/max of {flown['runs']}; {sizes})",
            f"{flown['median_s']:.3f} / {flown['max_s']:.3f} s" if flown["runs"] else "not run",
            goal,
        ),
        (
            "over_budget refusals (admission counters; lines in the gateway's log)",
            f"{refused} {figures['over_budget_refused']}; {figures['over_budget_in_log']}",
            "0",
        ),
        (
            "machine load (1/5/15 min) before → after",
            f"{load['load_before']} → {load['load_after']}",
            f"— ({load['cpus']} CPUs)",
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.viewer_open", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement")
    parser.add_argument("--quick", action="store_true", help="one run of each (a smoke run)")
    args = parser.parse_args(argv)
    runs, flies = (1, 1) if args.quick else (args.runs, 2)
    console = Console(stderr=True)
    started = time.perf_counter()
    with console.status("the browser table: long games from their links, FlyBots…"):
        figures = asyncio.run(run(runs, flies))
    figures["machine"]["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(figures, indent=2))
    table = Table(title=f"the browser table in Chromium at 1280×800 ({os.cpu_count()} CPUs)")
    table.add_column("figure")
    table.add_column("measured", justify="right")
    table.add_column("goal")
    for row in rows(figures):
        table.add_row(*row)
    console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
