"""`python -m umpire.server.publish_schemas`: write every ruleset's published schema and the
browser client's TypeScript declarations.

Writes docs/schemas/<ruleset>.schema.json (engine.schemas.ruleset_document) for each
built-in ruleset and clients/web/umpire.d.ts (server/typescript.py) from the protocol's
schema and those documents. tests/server/test_published_schemas.py fails when a checked-in
file is stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from umpire.engine import registry
from umpire.engine.commands import UNIVERSAL_COMMANDS
from umpire.engine.schemas import ruleset_document
from umpire.events.wire import json_schema
from umpire.server.typescript import declarations

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "docs" / "schemas"
TYPINGS = ROOT / "clients" / "web" / "umpire.d.ts"


def documents() -> list[dict[str, Any]]:
    """The published schema of every built-in ruleset, by name."""
    out = []
    for name in registry.shipped():
        r = registry.get(name)
        types = (*r.command_types, *UNIVERSAL_COMMANDS)
        out.append(ruleset_document(r.name, r.version, r.title, r.seed, r.setup_type, types))
    return out


def rendered() -> dict[Path, str]:
    """Every generated file and its text."""
    docs = documents()
    files = {
        SCHEMAS / f"{d['ruleset']}.schema.json": json.dumps(d, indent=2, sort_keys=True) + "\n"
        for d in docs
    }
    files[TYPINGS] = declarations(json_schema(), docs)
    return files


def main() -> None:
    """Write the files; print what was written."""
    SCHEMAS.mkdir(parents=True, exist_ok=True)
    for path, text in rendered().items():
        path.write_text(text)
        sys.stdout.write(f"wrote {path.relative_to(ROOT)}\n")


if __name__ == "__main__":
    main()
