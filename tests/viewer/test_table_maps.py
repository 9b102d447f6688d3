"""The map or diagram of every ruleset at the table (issue #29 items 3 and 6), in headless
Chromium: a game created from the pickers shows the pieces its role's view holds (counted
against the board the ruleset builds from the view the page shows), the map pans and
zooms by its viewBox (buttons, wheel, drag, a two-finger pinch on the phone), a click on
a hex sends `umpire:hex` with the hex's id, `umpire:highlight` marks the hexes it names
(and an empty list clears them), labels are whole, and at 390×844 the page needs no
horizontal scroll. Screenshots at 1280×800 and 390×844 go to
test-artifacts/viewer/map-*; with UMPIRE_DOCS_SHOTS=1 the 1280×800 one is also written to
docs/viewer/<ruleset>.png (shown in docs/viewer.md)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import wait_for
from tests.support.viewer_page import TIMEOUT, create_game, send
from umpire.engine import registry
from umpire.engine.map_view import drawn
from umpire.server.app import Running

DOCS = Path(__file__).resolve().parents[2] / "docs" / "viewer"
RULESETS = ("conflict_of_heroes", "nightfighter", "downtown", "age_of_dogfights", "down_in_flames")
WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# Commands (with no fields) played first where the game starts with an empty map.
OPENING = {"downtown": ("DeployGroundUnits",)}

VIEWBOX = "document.querySelector('#state .map-frame svg').getAttribute('viewBox')"
HEX_EVENTS = """() => { window.hexesPicked = [];
    document.addEventListener('umpire:hex', (e) => window.hexesPicked.push(e.detail.hex)); }"""
HIGHLIGHT = """(hexes) => document.dispatchEvent(
    new CustomEvent('umpire:highlight', {detail: {hexes}}))"""
SHOW_MAP = """() => window.scrollTo(0,
    document.querySelector('#state figure.map').getBoundingClientRect().top + window.scrollY
    - document.querySelector('#timeline').offsetHeight - 8)"""
NO_SIDEWAYS = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def _expected(ruleset: str, view: dict[str, Any]) -> list[str]:
    """The ids of the pieces the ruleset's board puts on the map for this view."""
    board = drawn(registry.get(ruleset).board, view)
    assert board is not None, f"{ruleset} declares no board"
    if board.get("kind") == "diagram":
        return sorted(a["id"] for a in board["aircraft"])
    return sorted(p["id"] for p in board["pieces"])


async def _shown(page: Any) -> list[str]:
    ids = await page.evaluate(
        "[...document.querySelectorAll('#state .map .pieces [data-piece], "
        "#state .board-chart [data-piece]')].map((e) => e.dataset.piece)"
    )
    return sorted(set(ids))


async def _changes(page: Any, action: Any) -> None:
    before = await page.evaluate(VIEWBOX)
    await action()
    await wait_for(page, f"{VIEWBOX} !== {json.dumps(before)}", timeout=TIMEOUT)


async def _pan_and_zoom(page: Any) -> None:
    frame = page.locator("#state .map-frame svg")
    await _changes(page, lambda: page.click("#state .map-tools button[aria-label='Zoom in']"))
    await _changes(page, lambda: page.click("#state .map-tools button[aria-label='Zoom out']"))
    await frame.scroll_into_view_if_needed()
    box = await frame.bounding_box()
    assert box is not None and box["y"] + box["height"] / 2 < WIDE["height"], box
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    async def wheel() -> None:
        await page.mouse.move(cx, cy)
        await page.mouse.wheel(0, -300)

    async def drag() -> None:
        await page.mouse.move(cx, cy)
        await page.mouse.down()
        await page.mouse.move(cx + 60, cy + 40, steps=6)
        await page.mouse.up()

    async def keys() -> None:
        await frame.focus()
        await page.keyboard.press("ArrowLeft")  # the replay would step back a seq

    seq = await page.input_value("#seq-input")
    await _changes(page, wheel)
    await _changes(page, drag)
    await _changes(page, keys)
    assert await page.input_value("#seq-input") == seq  # the arrow panned, not the replay
    await page.click("#state .map-tools button[aria-label='Fit the whole board in the pane']")


async def _pinch(page: Any) -> None:
    """Two fingers spread apart on the map (touch events, as a phone sends them)."""
    frame = page.locator("#state .map-frame svg")
    await frame.scroll_into_view_if_needed()
    box = await frame.bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = await page.context.new_cdp_session(page)

    async def touch(kind: str, spread: float) -> None:
        points = [] if kind == "touchEnd" else [
            {"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}
        ]  # fmt: skip
        await cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    await touch("touchStart", 20)
    for spread in (40, 60, 80, 100):
        await touch("touchMove", spread)
    await touch("touchEnd", 0)
    await cdp.detach()


async def _pick_and_highlight(page: Any) -> None:
    await page.evaluate(HEX_EVENTS)
    ids = await page.evaluate(
        "[...document.querySelectorAll('#state .map-frame [data-hex]')].map((e) => e.dataset.hex)"
    )
    assert len(ids) > 20
    target = ids[len(ids) // 2]
    await page.locator(f"#state .map-frame [data-hex='{target}']").click()
    await wait_for(page, "window.hexesPicked.length > 0", timeout=TIMEOUT)
    assert await page.evaluate("window.hexesPicked") == [target]

    marked = [ids[0], target]
    await page.evaluate(HIGHLIGHT, marked)
    allowed = "[...document.querySelectorAll('#state .allowed')].map((e) => e.dataset.hex)"
    assert sorted(await page.evaluate(allowed)) == sorted(marked)
    await page.evaluate(HIGHLIGHT, [])
    assert await page.evaluate(allowed) == []


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_each_ruleset_shows_its_board_with_the_views_pieces(
    browser: Any, viewer_gateway: Running, artifacts: Path, ruleset: str
) -> None:
    page = await browser.new_page(viewport=WIDE)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    await create_game(page, viewer_gateway.port, ruleset, registry.get(ruleset).default_scenario)
    for command in OPENING.get(ruleset, ()):
        assert (await send(page, command))["ok"], command
    await page.wait_for_selector("#state figure.map", timeout=TIMEOUT)
    view = json.loads(await page.text_content("#state-details .raw pre") or "null")
    expected = _expected(ruleset, view)
    assert expected, "the default scenario has pieces on its board"
    assert await _shown(page) == expected
    # Every label whole (issue #29: "AI-RIFLE…" was clipped).
    labels = await page.evaluate(
        "[...document.querySelectorAll('#state .map-frame .piece .counter')]"
        ".map((e) => [e.closest('[data-piece]').dataset.piece, e.textContent])"
    )
    assert all(text.startswith(pid) and "…" not in text for pid, text in labels), labels

    await page.evaluate(SHOW_MAP)
    wide_shot = artifacts / f"map-{ruleset}-1280x800.png"
    await page.screenshot(path=str(wide_shot))
    if os.environ.get("UMPIRE_DOCS_SHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(wide_shot, DOCS / f"{ruleset}.png")

    if await page.locator("#state .map-frame svg").count():
        await _pan_and_zoom(page)
        await _pick_and_highlight(page)
    else:  # a diagram with no field (Down in Flames): the altitude chart and its list
        assert ruleset == "down_in_flames"
        assert await page.locator("#state .board-chart .band").count() >= 3
        assert await page.locator("#state .board-aircraft li").count() == len(expected)

    phone = await browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    await phone.goto(page.url)
    await phone.wait_for_selector("#state figure.map", timeout=TIMEOUT)
    await phone.wait_for_selector("#actions[data-seq] .action-list", timeout=TIMEOUT)
    assert await _shown(phone) == expected
    assert await phone.evaluate(NO_SIDEWAYS), "the phone layout scrolls sideways"
    if await phone.locator("#state .map-frame svg").count():
        wide = float((await phone.evaluate(VIEWBOX)).split()[2])
        await _changes(phone, lambda: _pinch(phone))
        assert float((await phone.evaluate(VIEWBOX)).split()[2]) < wide  # zoomed in
    for pane in ("#actions", "#decisions", "#state figure.map"):
        box = await phone.locator(pane).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    await phone.screenshot(path=str(artifacts / f"map-{ruleset}-390x844.png"), full_page=True)
    assert not errors, errors
    await phone.close()
    await page.close()


async def test_the_opponents_last_move_is_outlined_and_followed(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    """Age of Dogfights: after the bots fly, each bot that moved is outlined, the note says
    what changed of each (its point before and after), and Follow centres the board on
    the move."""
    page = await browser.new_page(viewport=WIDE)
    await create_game(page, viewer_gateway.port, "age_of_dogfights", "patrol")
    assert (await send(page, "RollSetup"))["ok"]
    assert (await send(page, "FlyBots"))["ok"]
    await page.wait_for_selector("#state .map-frame .piece.moved", timeout=TIMEOUT)
    note = await page.inner_text("#state .last-move")
    assert note.startswith("Changed since the state before (outlined): B") and " → " in note, note
    moved = await page.evaluate(
        "[...document.querySelectorAll('#state .map-frame .piece.moved')]"
        ".map((e) => e.dataset.piece)"
    )
    assert moved and all(m.startswith("B") for m in moved)  # the bots, never the player's
    fit = await page.evaluate(VIEWBOX)
    await page.click("#state .map-tools button[aria-label='Zoom in']")
    await _changes(page, lambda: page.click("#state .map-tools button[aria-pressed]"))
    assert await page.evaluate(VIEWBOX) != fit
    await page.screenshot(path=str(artifacts / "map-age_of_dogfights-after-flybots.png"))
    await page.close()


async def test_the_bombers_that_came_on_the_map_are_the_opponents_last_move(
    browser: Any, viewer_gateway: Running
) -> None:
    """Nightfighter: the bomber counters the opponent moved onto the map are outlined and
    named; the player's fighter never is."""
    page = await browser.new_page(viewport=WIDE)
    await create_game(page, viewer_gateway.port, "nightfighter", "4B")
    assert (await send(page, "MoveBombers"))["ok"]  # a game opens at turn 1's (v9)
    await page.wait_for_selector("#state svg.hexmap .piece.moved", timeout=TIMEOUT)
    moved = await page.evaluate(
        "[...document.querySelectorAll('#state svg.hexmap .piece.moved')]"
        ".map((e) => e.dataset.side)"
    )
    assert moved and set(moved) == {"bomber"}
    assert (await page.inner_text("#state .last-move")).startswith("The opponent's last move: ")
    await page.close()


async def test_a_counter_the_player_reported_is_not_the_opponents_move(
    browser: Any, viewer_gateway: Running
) -> None:
    """Conflict of Heroes: the player reports where an AI counter stands (ReportPosition,
    a correction on the table): the map said "The opponent's last move: AI-RIFLE-2 1007 →
    0410" and outlined it. It is the player's report, said so, and not outlined as a move
    of the opponent's."""
    page = await browser.new_page(viewport=WIDE)
    await create_game(page, viewer_gateway.port, "conflict_of_heroes", "sample-crossroads")
    reported = {"variant": "Unit: AI-RIFLE-2", "hex": "0410", "facing": 3}
    sent = await send(page, "ReportPosition", reported)
    assert sent["ok"], sent
    # The take-back names the command as its form does.
    assert (await page.inner_text("#takeback")).startswith("↶ Take back: Report position (seq ")
    await page.wait_for_selector("#state .last-move:not([hidden])", timeout=TIMEOUT)
    note = await page.inner_text("#state .last-move")
    assert note.startswith("As you reported: AI-RIFLE-2 ") and note.endswith(" → 0410"), note
    assert "opponent" not in note, note
    assert await page.locator("#state svg.hexmap .piece.moved").count() == 0
    await page.close()


# The drawn map's state: its viewBox, the screen px per SVG unit, its zoom classes, the
# centres of the pieces' hexes, and the overview inset's frame.
BIG_MAP = """() => {
  const svg = document.querySelector('#state .map-frame svg');
  const [x, y, w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
  const box = svg.getBoundingClientRect();
  const hexes = new Map([...svg.querySelectorAll('polygon[data-hex]')]
    .map((p) => [p.dataset.hex, [Number(p.dataset.cx), Number(p.dataset.cy)]]));
  const pieces = [...svg.querySelectorAll('.pieces [data-piece]')]
    .map((p) => hexes.get(p.dataset.at));
  const frame = document.querySelector('#state .map-stage svg.inset .inset-view');
  return { view: [x, y, w, h], scale: Math.min(box.width / w, box.height / h),
    zoomed: svg.classList.contains('zoomed'), pieces,
    inset: frame ? ['x', 'y', 'width', 'height'].map((a) => Number(frame.getAttribute(a))) : null };
}"""


FIT = "#state .map-tools button[aria-label^='Fit the area in play']"


async def test_a_big_map_opens_on_the_area_in_play_and_fit_keeps_it_readable(
    browser: Any, viewer_gateway: Running
) -> None:
    """Downtown's 40×50 map (issue #41 item 5): it opens fitted to its pieces (their
    middle in view, zoomed in from the whole map, readable: hex ids shown), with an
    overview inset framing the part in view; "Whole" shows it all (hex ids hidden), and
    "Fit" comes back to the area in play at a readable scale."""
    page = await browser.new_page(viewport=WIDE)
    await create_game(
        page, viewer_gateway.port, "downtown", registry.get("downtown").default_scenario
    )
    assert (await send(page, "DeployGroundUnits"))["ok"]
    await page.wait_for_selector("#state .map .pieces [data-piece]", timeout=TIMEOUT)
    await wait_for(page, "document.querySelector('#state .map-frame svg').dataset.zoom > 1.5")
    opened = await page.evaluate(BIG_MAP)
    x, y, w, h = opened["view"]
    xs = [p[0] for p in opened["pieces"] if p]
    ys = [p[1] for p in opened["pieces"] if p]
    middle = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    assert x <= middle[0] <= x + w and y <= middle[1] <= y + h, (opened["view"], middle)
    assert opened["scale"] >= 1.0 and opened["zoomed"], opened
    assert opened["inset"] is not None
    assert [round(v) for v in opened["inset"]] == [round(v) for v in opened["view"]]
    whole = "#state .map-tools button[aria-label='Fit the whole board in the pane']"
    await _changes(page, lambda: page.click(whole))
    shown = await page.evaluate(BIG_MAP)
    assert shown["scale"] < 1.0 and not shown["zoomed"], shown
    await _changes(page, lambda: page.click(FIT))
    fitted = await page.evaluate(BIG_MAP)
    assert fitted["scale"] >= 1.0 and fitted["zoomed"], fitted
    fx, fy, fw, fh = fitted["view"]
    assert fx <= middle[0] <= fx + fw and fy <= middle[1] <= fy + fh
    await page.close()


# Each piece on the map by its id: whether its chip's centre is inside the map's frame.
IN_FRAME = """() => {
  const f = document.querySelector('#state .map-frame').getBoundingClientRect();
  return Object.fromEntries([...document.querySelectorAll('#state .pieces [data-piece]')]
    .map((g) => { const b = g.querySelector('rect.chip').getBoundingClientRect();
      const x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
      return [g.dataset.piece, x > f.left && x < f.right && y > f.top && y < f.bottom]; }));
}"""


@pytest.mark.parametrize("size", [{"width": 1280, "height": 720}, PHONE], ids=["laptop", "phone"])
async def test_fit_keeps_the_players_fighter_in_view(
    browser: Any, viewer_gateway: Running, artifacts: Path, size: dict[str, int]
) -> None:
    """Nightfighter 4B: the first bombers enter on the map's north edge, the fighter waits
    far to the south. The area in play is then too tall for a readable view, and "Fit"
    framed its middle: neither the bombers nor the player's own fighter. The player's
    part of the area (the fighter, the hexes a form allows) stays in view."""
    page = await browser.new_page(viewport=size)
    await create_game(page, viewer_gateway.port, "nightfighter", "4B")
    assert (await send(page, "MoveBombers"))["ok"]  # a game opens at turn 1's (v9)
    await page.wait_for_selector("#state .pieces [data-piece='B1-1']", timeout=TIMEOUT)
    whole = "#state .map-tools button[aria-label='Fit the whole board in the pane']"
    await _changes(page, lambda: page.click(whole))
    await _changes(page, lambda: page.click(FIT))
    seen = await page.evaluate(IN_FRAME)
    await page.screenshot(path=str(artifacts / f"map-nightfighter-fit-{size['width']}.png"))
    assert seen["F1"], seen
    # Readable still: hex ids are shown.
    assert await page.locator("#state svg.hexmap.zoomed").count() == 1
    await page.close()


async def test_the_hexes_a_field_asks_for_are_brought_into_view(
    browser: Any, viewer_gateway: Running, artifacts: Path
) -> None:
    """The view stays where the reader left it across states; a reader who dragged the
    map north to watch the bombers, then opened the fighter's move, had its next hexes
    highlighted out of sight, with nothing in view to click. When none of the hexes a
    field asks for is in view, the map frames them (and the fighter they lead from)."""
    page = await browser.new_page(viewport={"width": 1280, "height": 720})
    await create_game(page, viewer_gateway.port, "nightfighter", "4B")
    assert (await send(page, "MoveBombers"))["ok"]  # a game opens at turn 1's (v9)
    await page.wait_for_selector("#state .pieces [data-piece='B1-1']", timeout=TIMEOUT)
    frame = page.locator("#state .map-frame")
    await frame.scroll_into_view_if_needed()
    for _ in range(3):  # drag the map down: the view goes north, away from the fighter
        box = await frame.bounding_box()
        assert box is not None
        x, y, down = box["x"] + box["width"] / 2, box["y"] + 20, box["height"] - 40
        await _changes(page, lambda x=x, y=y, down=down: _drag(page, x, y, down))
    assert not (await page.evaluate(IN_FRAME))["F1"]
    # The fighter's move is the phase's next step: its form is open already (play.js).
    move = page.locator('details.action-box[data-action="MoveFighter"]')
    await move.evaluate("(d) => { d.open = true; }")
    await page.locator('details.action-box[data-action="MoveFighter"] [data-field="path"]').click()
    await wait_for(page, f"({IN_FRAME})().F1", timeout=TIMEOUT)
    lit = page.locator("#state svg.hexmap .hex.allowed")
    assert await lit.count() > 0
    await lit.first.click()  # in view: a click on it takes
    path = page.locator('details.action-box[data-action="MoveFighter"] [data-field="path"]')
    assert await path.input_value(), "the highlighted hex was not picked"
    await page.screenshot(path=str(artifacts / "map-nightfighter-asked-hexes.png"))
    await page.close()


async def _drag(page: Any, x: float, y: float, down: float) -> None:
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x, y + down, steps=8)
    await page.mouse.up()
