"""Reading docs/*.md for the tests that hold the docs to the code (tests/docs/): a
section under a heading, a markdown table's rows, the names a cell gives in backticks."""

from __future__ import annotations

import re
from collections.abc import Iterator

from tests.support.project_modules import REPO

DOCS = REPO / "docs"
# Every doc but the record of benchmark runs, whose old entries name what was then.
DOC_FILES = sorted(path for path in DOCS.glob("*.md") if path.name != "benchmarks.md")
ROOTS = "events|engine|server|clients|bench|tests|testing|verifier|docs|examples"


def read(name: str) -> str:
    return (DOCS / name).read_text()


def section(text: str, heading: str) -> str:
    """The text under a heading (any level), up to the next heading of that level or above."""
    match = re.search(rf"^(#+) {re.escape(heading)}\n", text, re.M)
    assert match, f"no heading {heading!r}"
    level = len(match.group(1))
    end = re.compile(rf"^#{{1,{level}}} ", re.M).search(text, match.end())
    return text[match.end() : end.start() if end else len(text)]


def table_rows(text: str) -> Iterator[list[str]]:
    """The body rows of the markdown tables in `text`, as cells (`\\|` kept inside one)."""
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| ---"):
            yield [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]


def ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def unbracketed(text: str) -> str:
    """`text` without what it says in parentheses (innermost first), where a field list
    explains a field."""
    while True:
        shorter = re.sub(r"\([^()]*\)", "", text)
        if shorter == text:
            return text
        text = shorter


def where(doc: str, text: str, at: int) -> str:
    return f"docs/{doc}:{text.count(chr(10), 0, at) + 1}"
