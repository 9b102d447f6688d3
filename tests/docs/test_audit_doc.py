"""docs/audit.md against what umpire writes: the export's header and lines
(server/game_log.py, events/export.py) and the universal events' payload fields in
declaration order (events/types.py)."""

from __future__ import annotations

import inspect
import re

import msgspec

from tests.support.doc_text import read, ticked, unbracketed
from umpire.events import types
from umpire.events.export import envelope_to_line
from umpire.server.game_log import ExportHeader


def audit_table(after: str) -> dict[str, str]:
    """The first table after `after` in docs/audit.md, first cell's names to the rest."""
    text = read("audit.md")
    start = text.index(after) + len(after)
    rows: dict[str, str] = {}
    for line in text[start:].splitlines():
        if not line.startswith("|"):
            if rows:
                return rows
            continue
        cells = [cell.strip() for cell in line.split("|")[1:-1]]
        for name in ticked(cells[0]):
            rows[name] = " | ".join(cells[1:])
    return rows


def test_the_export_header_is_the_one_umpire_writes() -> None:
    rows = audit_table("Line 1 is a header:")
    assert set(rows) == set(ExportHeader.__struct_fields__)


def test_an_export_line_is_the_one_umpire_writes() -> None:
    rows = audit_table("Every further line is one event, in seq order:")
    written = re.findall(r'^\s+"(\w+)":', inspect.getsource(envelope_to_line), re.M)
    assert set(rows) == set(written)


UNIVERSAL = {
    str(kind.__struct_config__.tag): kind
    for kind in vars(types).values()
    if isinstance(kind, type)
    and issubclass(kind, msgspec.Struct)
    and kind.__struct_config__.tag is not None
}


def test_the_universal_events_fields_are_in_declaration_order() -> None:
    rows = audit_table("**Payloads of the universal events.**")
    assert set(rows) == set(UNIVERSAL), "docs/audit.md's universal events and events/types.py"
    for tag, cell in rows.items():
        kind = UNIVERSAL[tag]
        names = kind.__struct_fields__
        defaults = len(names) - len(kind.__struct_defaults__)
        wanted = [f"{name}{'?' if n >= defaults else ''}" for n, name in enumerate(names)]
        said = re.findall(r"`(\w+)`(\??)", re.sub(r"\{[^{}]*\}", "", unbracketed(cell)))
        assert [name + mark for name, mark in said] == wanted, f"`{tag}` in docs/audit.md"
