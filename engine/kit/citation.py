"""Citations of a seed's rules: "<seed file> <rule>", the form every rule cites."""

from __future__ import annotations

from collections.abc import Callable


def citations(seed: str) -> Callable[[str], str]:
    """The `cite` of a ruleset whose seed file is `seed`: cite("3.2.1") is
    "<seed> 3.2.1". A plain closure, so citing costs one call and one format."""

    def cite(rule: str) -> str:
        """The citation of a rule or table row of the seed, e.g. cite("3.2.1")."""
        return f"{seed} {rule}"

    return cite


def rule_number(citation: str) -> str:
    """A citation as an event's words for people carry it: the rule without the seed file
    ("<seed> 3.2.5" -> "3.2.5"). The event's `rule` keeps the whole citation, which readers
    show by the seed's title (engine/citations.py): one way to cite (issue 41 item 7)."""
    return citation.partition(" ")[2] or citation
