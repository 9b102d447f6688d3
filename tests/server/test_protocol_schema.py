"""The checked-in JSON Schema matches the message types."""

from __future__ import annotations

import json
from pathlib import Path

from umpire.events.wire import json_schema

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"


def test_checked_in_schema_is_current() -> None:
    assert json.loads(SCHEMA.read_text()) == json_schema(), (
        "docs/protocol.schema.json is stale: run `python -m umpire.events.wire > "
        "docs/protocol.schema.json`"
    )
