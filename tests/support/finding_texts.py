"""An event as a dispute's finding holds it (engine/disputes.py keeps 500 characters of
each event's JSON), for the terminal's and the table's tests of how a finding reads."""

from __future__ import annotations

import json

# An Age of Dogfights bot's move as a finding holds it: its JSON cut at 500 characters,
# before its explanation (the candidates come first).
CANDIDATES = [
    {"option": "P2", "chosen": True, "reason": "nearest player aircraft at 18d; destination L4"},
    *({"option": f"{n}d behind", "chosen": False, "reason": "not tried: out of reach"}
      for n in range(2, 12)),
]  # fmt: skip
MOVE = {
    "type": "age_of_dogfights.BotMoved",
    "rule": "001_989a2f850da69b66.txt Approach Maneuver",
    "dice": [],
    "candidates": CANDIDATES,
    "explanation": "the bot climbs towards P2",
}
CUT = json.dumps(MOVE, separators=(",", ":"))[:500]

# A Conflict of Heroes AI move as a finding holds it: its own fields, then the rule, the
# dice and the candidates, cut in the candidates before any is chosen.
AI_MOVED = (
    '{"type":"conflict_of_heroes.AiMoved","unit":"AI-RIFLE-2","from_hex":"1007",'
    '"to_hex":"0907","facing":4,"ap_cost":1,"low_risk":false,"target":"CM-1",'
    '"rule":"003_368c69a730e6e14a.txt 5.3","dice":[1],"candidates":[{"option":"1006",'
    '"chosen":false,"reason":"no closer to the Target: only a Low Risk Move steps side'
)
