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
