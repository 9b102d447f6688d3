"""The one table of a ruleset from command type to the handler that decides it.

The ruleset's command types are derived from it (`command_types`, in the table's order),
so a command type cannot be accepted without a handler or handled without being accepted.
Every ruleset's handlers take its Turn and the command (`decide`, engine/kit/decider.py,
makes the Turn); `Dispatch` only finds the handler, with one dict lookup per command.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic, TypeVar

from msgspec import Struct

from umpire.engine.errors import RuleError

H = TypeVar("H")


class Dispatch(Generic[H]):
    """Command type -> handler; `rule` is cited when a command of another type arrives."""

    def __init__(self, handlers: Mapping[type[Struct], H], *, rule: str) -> None:
        self._handlers = dict(handlers)
        self.rule = rule
        self.command_types: tuple[type[Struct], ...] = tuple(self._handlers)

    def handler(self, command: Struct) -> H:
        """The handler of `command`'s type; RuleError for a type the ruleset does not take
        (the engine parses only `command_types`, so only a direct caller sees this)."""
        found = self._handlers.get(type(command))
        if found is None:
            raise RuleError(f"unknown command {type(command).__name__}", rule=self.rule)
        return found
