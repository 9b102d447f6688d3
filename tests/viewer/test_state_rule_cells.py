"""A rule the state holds is said in the state pane as the log cites it (clients/web/
render.js stateDetails): Downtown's "Attacks umpire ordered this Movement Phase" table
has the rule that ordered each attack, and its cell showed the seed's file name
("000_842c81c5c58bc2f6.txt 4.1.2 Event Options Table (b)", found by the play-to-end
test once a random raid met an ordered attack). On the page's own module in a real
Chromium, after the page has read the rulebooks' titles."""

from __future__ import annotations

import re
from typing import Any

from tests.support.browser import wait_for

SEED_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")
SAID = """async () => {
  const { stateDetails } = await import('./render.js');
  const state = { phase: 'movement', ordered_attacks: [{ unit_id: 'SAM12', flight_id: 'S1',
    range: 5, rule: '000_842c81c5c58bc2f6.txt 4.1.2 Event Options Table (b)', waiting: true }] };
  const box = stateDetails(state);
  box.querySelector('.raw').remove();  // the raw JSON keeps the state as it is
  document.body.append(box);  // laid out, so its text has the cells apart
  return box.innerText;
}"""


async def test_a_rule_in_the_state_is_said_by_its_rulebook(table_page: Any) -> None:
    page = table_page
    # The rulebooks' titles are read as the page opens (citations.json).
    await wait_for(page, "document.querySelector('#ruleset option') !== null")
    text = await page.evaluate(SAID)
    assert not SEED_FILE.search(text), text
    assert "Downtown solo rules 4.1.2" in text, text
