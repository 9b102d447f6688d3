"""The table says the rules' own text in words (issue #41's "internal keys"): a key the
rules wrote into an explanation, a roll's purpose or a candidate ("loses searchlight_fix,
tally", Nightfighter's corkscrew) is shown as words ("searchlight fix"), in the decision's
line and its "why". The event keeps the text as decided (display only). A real Chromium
page renders clients/web/play.js's decision list, and says the cases of
tests/data/in_words.json as the terminal's rule (events/rules_words.py) says them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

CASES = json.loads((Path(__file__).parents[1] / "data" / "in_words.json").read_text("utf-8"))
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")

RENDER = """async () => {
    const { decisionList } = await import("/play.js");
    const roll = { seq: 7, event_type: "DiceRolled", payload: {
        roll: 3, kind: "2d6", faces: [6, 1], total: 7, by: "server",
        purpose: "follow_the corkscrew for in_the_air", owner: "" } };
    const decision = { seq: 8, event_type: "Corkscrewed", payload: {
        rule: "004_c3eb2ad371d7bb6a.txt S17.0", dice: [3],
        explanation: "B2-6 corkscrews: loses searchlight_fix, tally, ai_fix; reverts to low",
        candidates: [{ option: "lose_contact", chosen: true, reason: "no 6 / not_tried" }] } };
    const list = decisionList([decision], new Map([[3, roll]]));
    document.body.append(list);
    return list.innerText;
}"""


async def test_keys_in_the_rules_text_are_shown_in_words(table_page: Any) -> None:
    page = table_page
    text = await page.evaluate(RENDER)
    assert not SNAKE.findall(text), (SNAKE.findall(text), text)
    assert "loses searchlight fix, tally, ai fix; reverts to low" in text
    assert "for follow the corkscrew for in the air" in text
    assert "lose contact — no 6 / not tried" in text


async def test_the_table_and_the_terminal_say_the_same_words(table_page: Any) -> None:
    """Every shared case (tests/data/in_words.json, which tests/events/test_rules_words.py
    runs through the terminal's rule) comes out of citations.js's inWords as listed."""
    page = table_page
    said = await page.evaluate(
        """async (cases) => {
            const { inWords } = await import("/citations.js");
            return cases.map(([text]) => inWords(text));
        }""",
        CASES["cases"],
    )
    assert said == [shown for _, shown in CASES["cases"]]
