"""A seeded random player at the viewer's table (issue #29 item 7): it picks one of the
actions the page lists and fills that action's form the way a person does, by clicks and
typing only: a case from the drop-down, rows added to a list, a radio button, a value from
a drop-down, a number within the bounds the field shows, a checkbox, a hex by clicking
one of the hexes the map highlights (typing it only when the map cannot be clicked), a
few letters in a free text field. It never opens the raw-JSON editor, and never sends a
protocol message: the page sends what the form reads. The controls are found by the
`data-kind` that clients/web/forms.js gives each one.
"""

from __future__ import annotations

import random
import string
from typing import Any

from tests.support.browser import wait_for
from tests.support.viewer_page import TIMEOUT

NEVER = ("RollDice", "EndGame")  # the game must end by its own rules; no generic roll
CONTROLS = """(form) => [...form.querySelectorAll('[data-kind]')]
    .filter((e) => e.id && !e.closest('[hidden]'))
    .map((e) => [e.id, e.dataset.kind])"""
CLICK_TIMEOUT = 3_000  # ms: a hex the map cannot show clickably is typed instead
# Whether the map shows a hex where a person can click it: its centre inside the map's
# frame (the map pans by its viewBox, so a lit hex outside the view is drawn outside the
# frame, clipped, and no scrolling brings it in) and not under a big map's overview inset.
IN_SIGHT = """(e) => {
    const frame = e.closest('.map-frame');
    if (!frame) return false;
    const f = frame.getBoundingClientRect();
    const b = e.getBoundingClientRect();
    const x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
    const inside = (r) => x > r.left + 2 && x < r.right - 2 && y > r.top + 2 && y < r.bottom - 2;
    const stage = frame.closest('.map-stage');
    const inset = stage && stage.querySelector('.inset');
    return inside(f) && !(inset && inside(inset.getBoundingClientRect()));
  }"""
WHOLE = 'button[aria-label="Fit the whole board in the pane"]'
FIT = 'button[aria-label^="Fit the area in play"]'


async def _answers(page: Any) -> int:
    return int(await page.evaluate("Number(document.body.dataset.answers || 0)"))


async def offered(page: Any) -> list[str]:
    boxes = page.locator("details.action-box")
    return [
        str(await boxes.nth(i).get_attribute("data-action")) for i in range(await boxes.count())
    ]


async def _pick_hex(page: Any, field: Any, rng: random.Random, clicks: list[str]) -> bool:
    """Click one of the hexes the map highlights for the focused field (for a path, one
    of its next-step buttons when the map highlights none: a step off the map); False
    if there is none."""
    lit = page.locator("svg.hexmap [data-hex].allowed")
    count = await lit.count()
    if not count:
        buttons = field.locator("xpath=..").locator("button.next-hex")
        offered = await buttons.count()
        if not offered:
            return False
        await buttons.nth(rng.randrange(offered)).click()
        return True
    hexes = [str(h) for h in await lit.evaluate_all("(es) => es.map((e) => e.dataset.hex)")]
    hex_id = rng.choice(hexes)
    target = lit.nth(hexes.index(hex_id))
    before = await field.input_value()
    # Panned out of the view: show the whole board, as a person would to reach it, and
    # frame the area in play again after the click.
    away = not await target.evaluate(IN_SIGHT) and await page.locator(WHOLE).count() > 0
    if away:
        await page.locator(WHOLE).first.click()
    try:
        if not await target.evaluate(IN_SIGHT):
            raise LookupError(hex_id)  # not drawn where it can be clicked even so
        await target.click(timeout=CLICK_TIMEOUT)
        clicks.append(hex_id)
    except Exception:  # out of reach, or in sight yet covered by something: type it
        await field.fill(f"{before} {hex_id}".strip() if before else hex_id)
    if away:
        await page.locator(FIT).first.click()
    return True


async def _fill(
    page: Any, form: Any, kind: str, control: Any, rng: random.Random, clicks: list[str]
) -> None:
    if kind == "variant":
        count = await control.locator("option").count()
        await control.select_option(index=rng.randrange(count))
    elif kind == "list":
        low = int(await control.get_attribute("data-min") or 0)
        high = min(int(await control.get_attribute("data-max") or 0), low + 3)
        for _ in range(rng.randint(low, max(low, high)) - low):
            await control.locator(":scope > button.add-row").click()
    elif kind == "radio":
        labels = control.locator(":scope > label.choice")
        await labels.nth(rng.randrange(await labels.count())).click()
    elif kind == "select":
        count = await control.locator("option").count()
        await control.select_option(index=rng.randrange(count))
    elif kind == "number":
        low = int(await control.get_attribute("min") or 0)
        high = int(await control.get_attribute("max") or low + 12)
        await control.fill(str(rng.randint(low, max(low, min(high, low + 12)))))
    elif kind == "bool":
        await control.set_checked(rng.random() < 0.5)
    elif kind == "multi":
        boxes = control.locator("input[type=checkbox]")
        count = await boxes.count()
        low = int(await control.get_attribute("data-min") or 0)
        high = min(int(await control.get_attribute("data-max") or count), count)
        chosen = set(rng.sample(range(count), rng.randint(low, max(low, high))))
        for i in range(count):
            await boxes.nth(i).set_checked(i in chosen)
    elif kind == "hex":
        await control.click()
        if not await _pick_hex(page, control, rng, clicks):
            options = await control.evaluate(
                "(e) => e.list ? [...e.list.options].map((o) => o.value) : []"
            )
            if options:
                await control.fill(rng.choice(options))
    elif kind == "hexpath":
        await control.click()
        wanted = rng.randint(0, 3)  # steps, then on until the path is a whole one
        for steps in range(40):
            whole = await control.get_attribute("data-complete") == "1"
            if (steps >= wanted and whole) or not await _pick_hex(page, control, rng, clicks):
                break
    elif kind == "text":
        size = int(await control.get_attribute("maxlength") or 8)
        letters = rng.randint(min(4, size), min(8, size))
        await control.fill("".join(rng.choice(string.ascii_lowercase) for _ in range(letters)))


async def fill_form(page: Any, form: Any, rng: random.Random) -> list[str]:
    """Every visible control of `form`, in page order; a case or a list changes what is
    visible, so the controls are looked at again after each. The hexes clicked on the map."""
    clicks: list[str] = []
    done: set[str] = set()
    while True:
        controls = await form.evaluate(CONTROLS)
        todo = [(cid, kind) for cid, kind in controls if cid not in done]
        if not todo:
            return clicks
        cid, kind = todo[0]
        done.add(cid)
        await _fill(page, form, kind, form.locator(f'[id="{cid}"]'), rng, clicks)


async def play_step(page: Any, rng: random.Random) -> dict[str, Any]:
    """One command through a form: {"ok": True, "action", "head", "map_clicks"} once the
    table shows the state after it, or {"ok": False, "action", "map_clicks", "code",
    "error"} as the page says; map_clicks: the hexes clicked on the map for it."""
    action = rng.choice([a for a in await offered(page) if a not in NEVER])
    box = page.locator(f'details.action-box[data-action="{action}"]')
    if await box.get_attribute("open") is None:
        await box.locator("summary").click()
    form = box.locator("form")
    clicks = await fill_form(page, form, rng)
    before = await _answers(page)
    await form.locator("button[type=submit]").click()
    await wait_for(page, f"Number(document.body.dataset.answers || 0) > {before}", timeout=TIMEOUT)
    if await page.locator("#play-error").is_visible():
        return {
            "ok": False,
            "action": action,
            "map_clicks": clicks,
            "code": await page.get_attribute("#play-error", "data-code"),
            "error": await page.inner_text("#play-error"),
        }
    at = int(await page.get_attribute("#play-answer", "data-head-seq") or 0)
    await wait_for(
        page, f"Number(document.querySelector('#actions').dataset.seq) >= {at}", timeout=TIMEOUT
    )
    return {"ok": True, "action": action, "head": at, "map_clicks": clicks}
