"""A yes or no in the table's log as a wargamer reads it (clients/web/render.js), on the
page's own modules in a real Chromium: an event's field that is true or false reads "yes"
or "no" ("AI turn ended: passed no", "Hit reported: unit X, hit yes"), never the JSON's
"true"/"false", in its row and in a dispute's finding, as the terminal says it
(events/rules_words.py fields_said; tests/events/test_rules_words.py)."""

from __future__ import annotations

from typing import Any

SAID = """async () => {
  const { describe, eventSaid } = await import('./render.js');
  const coh = 'conflict_of_heroes.';
  const row = (name, fields) => describe({ seq: 5, event_type: coh + name,
    payload: { type: coh + name, ...fields } });
  return {
    ended: row('AiTurnEnded', { passed: false }),
    hit: row('HitReported', { unit: 'AI-RIFLE-2', hit: true }),
    found: eventSaid(`{"type":"${coh}HitReported","unit":"AI-RIFLE-2","hit":true}`),
    cut: eventSaid(`{"type":"${coh}AiFired","rule":"r","unit":"AI-1","hit":false,"long_r`, ['AI']),
  };
}"""


async def test_a_yes_or_no_reads_in_words(table_page: Any) -> None:
    said = await table_page.evaluate(SAID)
    assert said["ended"] == "passed no", said
    assert said["hit"] == "unit AI-RIFLE-2; hit yes", said
    assert said["found"] == "Hit reported: unit AI-RIFLE-2; hit yes", said
    assert said["cut"] == "AI fired: unit: AI-1, hit: no", said
    for text in said.values():
        assert "true" not in text and "false" not in text, text
