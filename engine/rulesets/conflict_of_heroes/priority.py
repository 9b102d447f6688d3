"""Priority lists and the 1D6 random choice that ends every one of them.

Seed 003_368c69a730e6e14a.txt 5.1.1, 5.2, 5.3: each list keeps the options best on the
first criterion, then the next, and when several still qualify, "randomly determine ... by
assigning each a number and rolling 1D6". Options are numbered 1..n in their listed order
(AI and Units by id, hexes by CCRR label), and the die shows the number it picks: face k
chooses option k, and a face above n is rolled again (two options: 3-6 rolled again). The
seed assigns "a number" to each option, so a reviewer rolling a 2 between two tied AIs
expects the second; grouping faces (1-3 and 4-6) was the reading before version 5 (README
ledger (6)). With more than six options a single die of n sides is rolled instead (1D6
cannot choose among them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from umpire.engine.decision import Candidate
from umpire.engine.dice import custom, d6
from umpire.engine.rulesets.conflict_of_heroes.turn import ConflictOfHeroesTurn

T = TypeVar("T")


class Prefer(StrEnum):
    """Which end of a criterion wins."""

    LOW = "lowest"
    HIGH = "highest"


@dataclass(frozen=True)
class Key(Generic[T]):
    """One criterion of a priority list; `words` says a value as the table would (a yes/no
    criterion reads "hit; best un-hit", not "1; best 0")."""

    name: str
    value: Callable[[T], int]
    prefer: Prefer
    words: Callable[[int], str] | None = None

    def say(self, value: int) -> str:
        """A value of this criterion in words."""
        return self.words(value) if self.words is not None else str(value)


@dataclass
class Ranking(Generic[T]):
    """Options still in the running, and why each of the others lost."""

    survivors: list[tuple[str, T]]
    lost: dict[str, str]


def narrow(options: Sequence[tuple[str, T]], keys: Sequence[Key[T]]) -> Ranking[T]:
    """Apply the criteria in order, each keeping only the options best on it."""
    survivors = list(options)
    lost: dict[str, str] = {}
    for key in keys:
        if len(survivors) <= 1:
            break
        values = {name: key.value(item) for name, item in survivors}
        best = min(values.values()) if key.prefer is Prefer.LOW else max(values.values())
        for name, _ in survivors:
            if values[name] != best:
                lost[name] = f"lost on '{key.name}' ({key.say(values[name])}; best {key.say(best)})"
        survivors = [(n, i) for n, i in survivors if values[n] == best]
    return Ranking(survivors, lost)


@dataclass
class Choice(Generic[T]):
    """The chosen option, the rolls used, and the candidates with reasons."""

    name: str
    item: T
    dice: tuple[int, ...]
    candidates: tuple[Candidate, ...]
    how: str


def choose(
    turn: ConflictOfHeroesTurn,
    options: Sequence[tuple[str, T]],
    keys: Sequence[Key[T]],
    *,
    purpose: str,
    rule: str,
    rejected: Sequence[tuple[str, str]] = (),
) -> Choice[T]:
    """Run a priority list and, if needed, the random choice; `rejected` are options
    already found ineligible (listed first among the candidates, with their reason)."""
    ranking = narrow(options, keys)
    survivors = ranking.survivors
    dice: list[int] = []
    lost = dict(ranking.lost)
    if len(survivors) == 1:
        pick = 0
        how = (
            "it is the only one left by the priorities"
            if len(options) > 1
            else "it is the only one"
        )
    else:
        n = len(survivors)
        # Face k picks option k; a face above n names no option and is rolled again.
        spec = d6() if n <= 6 else custom(n)
        rerolled: list[int] = []
        while True:
            rolled = turn.roll(spec, purpose=f"{purpose}: random choice among {n}", rule=rule)
            dice.append(rolled.roll)
            if rolled.total <= n:
                break
            rerolled.append(rolled.total)
        pick = rolled.total - 1
        numbering = ", ".join(f"{i + 1}={name}" for i, (name, _) in enumerate(survivors))
        again = f" (rolled again after {rerolled}: above {n})" if rerolled else ""
        how = (
            f"{n} tied after the priorities; numbered {numbering}; the roll "
            f"{rolled.total} chose {pick + 1}{again}"
        )
        for i, (name, _) in enumerate(survivors):
            if i != pick:
                lost[name] = f"tied, not chosen by the random roll (was number {i + 1})"
    name, item = survivors[pick]
    candidates = [Candidate(option=o, chosen=False, reason=r) for o, r in rejected]
    for o, _ in options:
        candidates.append(
            Candidate(option=o, chosen=o == name, reason=how if o == name else lost[o])
        )
    return Choice(name, item, tuple(dice), tuple(candidates), how)
