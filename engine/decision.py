"""The shape of an explained decision, shared by every ruleset's AI decision events.

Every AI decision event carries, besides its own result fields:

- `rule`: the citation, seed file and rule or table row, e.g.
  "000_842c81c5c58bc2f6.txt 2.1.2 AAA Generation Table, row 6";
- `dice`: the roll numbers (DiceRolled.roll) of the dice it used;
- `candidates`: every option it considered, in a deterministic order, each chosen or
  rejected with the reason;
- `explanation`: the decision in plain words, for `umpire explain`.

Rulesets derive their decision events from `Decision` (adding their own result fields and
a tag); `Candidate` is the element type of the candidate list.
"""

from __future__ import annotations

from msgspec import Struct


class Candidate(Struct, frozen=True, kw_only=True):
    """One option a decision considered: what it was, whether it won, and why."""

    option: str
    chosen: bool
    reason: str


class Decision(Struct, frozen=True, kw_only=True):
    """Base of every AI decision event: the rule, the dice, the candidates, plain words."""

    rule: str
    dice: tuple[int, ...] = ()
    candidates: tuple[Candidate, ...] = ()
    explanation: str = ""
