"""Counter rulesets with one rule changed, for auditing and re-adjudicating under
corrected rules (`--ruleset-module tests.audit.skewed_ruleset:RULESET`).

- RULESET: the bot pushes by the roll plus one (R2 corrected).
- NO_HIDING: the bot may not hide a number (R3 withdrawn).
"""

from __future__ import annotations

from dataclasses import replace

import msgspec
import umpire_counter as counter
from msgspec import Struct

from umpire.engine.dice import Dice
from umpire.engine.errors import RuleError


def _push_plus_one(state: counter.State, command: Struct, dice: Dice) -> list[Struct]:
    events = counter.decide(state, command, dice)
    return [
        msgspec.structs.replace(e, amount=e.amount + 1) if isinstance(e, counter.BotPushed) else e
        for e in events
    ]


def _refuse_hide(state: counter.State, command: Struct, dice: Dice) -> list[Struct]:
    if isinstance(command, counter.Hide):
        raise RuleError("test-counter R3 (withdrawn): the bot may not hide", rule="R3w")
    return counter.decide(state, command, dice)


RULESET = replace(counter.RULESET, version="1-plus-one", decide=_push_plus_one)
NO_HIDING = replace(counter.RULESET, version="1-no-hiding", decide=_refuse_hide)
