"""A form's fields are named in words, never by the name of their schema's type: msgspec
titles an enum's schema by its class ("DiceKind", "EarlyWarning", "AirPlacement"), and the
table showed that code as the field's label (RollDice's "DiceKind", Downtown's
DeployDrvAir "EarlyWarning" and "AirPlacement"). A real Downtown game on the page, the
set-up steps sent through its forms."""

from __future__ import annotations

import re
from typing import Any

from tests.support.viewer_page import create_game, send
from umpire.server.app import Running

# A label that is a type's name: two or more capitalised words run together.
TYPE_NAME = re.compile(r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+(?: \(optional\))?$")
LABELS = """(action) => [...document.querySelectorAll(
    `details.action-box[data-action="${action}"] form label,`
    + ` details.action-box[data-action="${action}"] form legend`)]
  .map((e) => (e.firstChild && e.firstChild.nodeType === 3 ? e.firstChild.textContent
    : e.textContent).trim())"""


async def _labels(page: Any, action: str) -> list[str]:
    return [str(text) for text in await page.evaluate(LABELS, action)]


async def test_fields_are_named_in_words_not_by_their_type(
    browser: Any, viewer_gateway: Running
) -> None:
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    await create_game(page, viewer_gateway.port, "downtown", "")
    rolled = await _labels(page, "RollDice")
    assert "Dice" in rolled and "DiceKind" not in rolled, rolled
    for step in ("DeployGroundUnits", "CheckDrvRadar"):
        sent = await send(page, step)
        assert sent["ok"], sent
    air = await _labels(page, "DeployDrvAir")
    assert {"Early warning", "Placement"} <= set(air), air
    typed = [label for label in [*rolled, *air] if TYPE_NAME.match(label)]
    assert not typed, typed
    await page.close()
