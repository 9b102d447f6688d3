"""SCENARIO 7's commands, events and cup: the data the Serrate procedures (serrate.py)
use, kept apart so that commands.py, events.py and evolve.py can name them without
importing the procedures (which fold events themselves)."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from umpire.engine.decision import Decision
from umpire.engine.rulesets.nightfighter.setup import HexLabel, Setup, modification
from umpire.engine.rulesets.nightfighter.terms import cite

RULE = cite("SCENARIO 7")
JU88 = "Ju88"
CUP: tuple[str, ...] = (JU88, JU88, *(f"NF{i:02d}" for i in range(1, 29)))

Id = Annotated[str, Meta(min_length=1, max_length=40)]


def cup_for(setup: Setup) -> tuple[str, ...]:
    """The cup at the start: two Ju88 and 28 different nightfighter counters."""
    return CUP if modification(setup, "7") else ()


class SerrateSearch(Struct, frozen=True, kw_only=True, tag="SerrateSearch"):
    """SCENARIO 7: Serrate searches every bomber counter in the fighter's wide arc."""

    fighter: Id


class FocusedSerrate(Struct, frozen=True, kw_only=True, tag="FocusedSerrate"):
    """SCENARIO 7: a focused Serrate search of one revealed Ju88 counter."""

    fighter: Id
    hex: HexLabel


class RevealCounter(Struct, frozen=True, kw_only=True, tag="RevealCounter"):
    """SCENARIO 7: a counter revealed by the published visual identification check."""

    hex: HexLabel


class CounterRevealed(Decision, frozen=True, kw_only=True, tag="nightfighter.CounterRevealed"):
    """SCENARIO 7: a revealed bomber counter and the counter drawn from the cup."""

    counter: str
    drawn: str
    ju88: bool


class SerrateSearched(Decision, frozen=True, kw_only=True, tag="nightfighter.SerrateSearched"):
    """SCENARIO 7: Serrate used this radar search phase (general or focused)."""

    fighter: str
    focused: bool
    revealed: tuple[str, ...] = ()
