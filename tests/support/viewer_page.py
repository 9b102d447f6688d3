"""Driving the viewer page in a browser, as a person would: open a game with a credential;
play a game through the page only (pick a ruleset and scenario, press Create, fill the
generated forms, type physical dice, press Take back). Shared by the viewer tests, the
scripted games (tests/viewer/test_table_games.py) and the secrecy test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.browser import wait_for

TIMEOUT = 30_000  # ms for any one thing to appear (generous: a loaded 2-core CI runner)
ENGINE = Path(__file__).resolve().parents[2] / "engine"
# Takeback is built on the engine side by another branch (issue #18): once the engine
# knows the command, the scripted games require the page to offer it after a command
# with no dice; until then they cannot take back and say so.
TAKEBACK_BUILT = any('tag="TakeBack"' in p.read_text() for p in ENGINE.rglob("*.py"))


async def create_game(
    page: Any, port: int, ruleset: str, scenario: str, settings: dict[str, str] | None = None
) -> str:
    """Open the page, create a game from the pickers (scenario "": the ruleset's default,
    and any scenario `settings` typed into the form's settings); the game id once it is
    on the table."""
    await page.goto(f"http://127.0.0.1:{port}/")
    await page.wait_for_selector(f'#ruleset option[value="{ruleset}"]', state="attached")
    await page.select_option("#ruleset", ruleset)
    if scenario:  # a ruleset without named scenarios (the examples) has none to pick
        await page.select_option("#scenario", scenario)
    if settings:
        await page.click("#settings-box summary")
        for name, value in settings.items():
            await page.fill(f'#settings [data-field="{name}"]', value)
    await page.click("#new-game button[type=submit]")
    await page.wait_for_selector("#actions[data-seq] .action-list", timeout=TIMEOUT)
    return str(await page.evaluate("window.umpireViewer.gameId"))


async def head(page: Any) -> int:
    """The head seq the play panel shows."""
    return int(await page.get_attribute("#head-receipt", "data-head-seq") or 0)


async def listed(page: Any) -> list[str]:
    """The action types the table offers now, in order."""
    boxes = page.locator("details.action-box")
    count = await boxes.count()
    return [str(await boxes.nth(i).get_attribute("data-action")) for i in range(count)]


async def raw_state(page: Any) -> str:
    """The state at the head, as the page shows it (its raw JSON)."""
    return str(await page.inner_text("#state-details .raw pre"))


async def _answers(page: Any) -> int:
    return int(await page.evaluate("Number(document.body.dataset.answers || 0)"))


async def send(
    page: Any, action: str, fields: dict[str, Any] | None = None, dice: str = ""
) -> dict[str, Any]:
    """Fill the form of a listed action and send it; the page's answer:
    {"ok": True, "head": seq} once the table shows the state after it, or
    {"ok": False, "code": ..., "error": the text the page shows}."""
    box = page.locator(f'details.action-box[data-action="{action}"]')
    await box.wait_for(state="attached", timeout=TIMEOUT)
    await box.evaluate("(d) => { d.open = true; }")
    form = box.locator("form")
    for name, value in (fields or {}).items():
        control = form.locator(f'[data-field="{name}"]:visible').first
        tag = await control.evaluate("(e) => e.tagName.toLowerCase() + ':' + (e.type || '')")
        kind = await control.get_attribute("data-kind")
        if kind == "fixed":  # a value the rules fix: shown, not asked
            continue
        if tag.startswith("select"):
            await control.select_option(label=str(value))
        elif kind == "radio":
            labels = control.locator("label.choice")
            texts = [t.strip() for t in await labels.all_inner_texts()]
            await labels.nth(texts.index(str(value))).click()
        elif tag.startswith("fieldset"):
            for choice in value:
                await control.locator("label.choice", has_text=str(choice)).locator("input").check()
        elif tag == "input:checkbox":
            await control.set_checked(bool(value))
        else:
            await control.fill(str(value))
    if dice:
        await form.locator("[data-physical-dice]").fill(dice)
    before = await _answers(page)
    await form.locator("button[type=submit]").click()
    await wait_for(page, f"Number(document.body.dataset.answers || 0) > {before}", timeout=TIMEOUT)
    if await page.locator("#play-error").is_visible():
        return {
            "ok": False,
            "code": await page.get_attribute("#play-error", "data-code"),
            "error": await page.inner_text("#play-error"),
        }
    at = int(await page.get_attribute("#play-answer", "data-head-seq") or 0)
    await wait_for(
        page, f"Number(document.querySelector('#actions').dataset.seq) >= {at}", timeout=TIMEOUT
    )
    return {"ok": True, "head": at}


async def take_back(page: Any, before: str, shots: Path) -> bool:
    """The take-back step, right after a command with no dice: the page must offer
    TakeBack; press it and see the state as it was before that command (`before`, its
    raw JSON)."""
    button = page.locator("#takeback")
    assert await button.count() == 1, "after a command with no dice the page must offer TakeBack"
    await page.screenshot(path=str(shots), full_page=True)
    start = await head(page)
    before_answers = await _answers(page)
    await button.click()
    await wait_for(
        page, f"Number(document.body.dataset.answers || 0) > {before_answers}", timeout=TIMEOUT
    )
    assert await page.locator("#play-error").is_hidden(), await page.inner_text("#play-error")
    await wait_for(
        page, f"Number(document.querySelector('#actions').dataset.seq) > {start}", timeout=TIMEOUT
    )
    assert await raw_state(page) == before, "the take-back restores the state before it"
    return True


async def open_with_credential(page: Any, port: int, credential: str, path: str = "/") -> None:
    await page.goto(f"http://127.0.0.1:{port}{path}")
    await page.fill("#credential", credential)
    await page.click("#open-game button[type=submit]")
