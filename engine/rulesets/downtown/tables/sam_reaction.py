"""3.4.5 SAM Reaction Table options 1-7: acquisition, range band and target task -> fire."""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.kit.seed_table import Band, SeedTable
from umpire.engine.rulesets.downtown.terms import AcqLevel, FireMode, Task, cite

CITATION = cite("3.4.5 SAM Reaction Table")
_BSA = (Task.BOMBING, Task.SEAD, Task.ARMED_ESCORT)


class ReactionOption(Struct, frozen=True, kw_only=True):
    """One option: which acquisition levels, range lo..hi (None = no limit), and the fire
    mode by task (tasks not listed get `otherwise`)."""

    option: int
    levels: tuple[AcqLevel, ...]
    lo: int
    hi: int | None
    by_task: tuple[tuple[Task, FireMode], ...]
    otherwise: FireMode


OPTIONS: tuple[ReactionOption, ...] = (
    ReactionOption(
        option=1,
        levels=(AcqLevel.FULL, AcqLevel.PARTIAL),
        lo=2,
        hi=3,
        by_task=(),
        otherwise=FireMode.SALVO,
    ),
    ReactionOption(
        option=2,
        levels=(AcqLevel.FULL, AcqLevel.PARTIAL),
        lo=4,
        hi=5,
        by_task=tuple((t, FireMode.SALVO) for t in _BSA),
        otherwise=FireMode.ONE,
    ),
    ReactionOption(
        option=3,
        levels=(AcqLevel.FULL,),
        lo=6,
        hi=6,
        by_task=(
            (Task.BOMBING, FireMode.SALVO),
            (Task.SEAD, FireMode.ONE),
            (Task.ARMED_ESCORT, FireMode.ONE),
        ),
        otherwise=FireMode.NOTHING,
    ),
    ReactionOption(
        option=4,
        levels=(AcqLevel.PARTIAL,),
        lo=6,
        hi=6,
        by_task=tuple((t, FireMode.ONE) for t in _BSA),
        otherwise=FireMode.NOTHING,
    ),
    ReactionOption(
        option=5,
        levels=(AcqLevel.FULL,),
        lo=7,
        hi=8,
        by_task=tuple((t, FireMode.ONE) for t in _BSA),
        otherwise=FireMode.NOTHING,
    ),
    ReactionOption(
        option=6,
        levels=(AcqLevel.PARTIAL,),
        lo=7,
        hi=8,
        by_task=((Task.BOMBING, FireMode.ONE),),
        otherwise=FireMode.NOTHING,
    ),
    ReactionOption(
        option=7,
        levels=(AcqLevel.FULL, AcqLevel.PARTIAL),
        lo=9,
        hi=None,
        by_task=(),
        otherwise=FireMode.NOTHING,
    ),
)

# The options as a seed table (its rows chosen by conditions, in order), cited
# "<table> option <n>".
TABLE: SeedTable[ReactionOption] = SeedTable(
    citation=CITATION,
    bands=tuple(Band(o.option, o.option, o) for o in OPTIONS),
    name="SAM Reaction Table",
    row_cite=" option {span}",
)


def react(level: AcqLevel, distance: int, task: Task) -> tuple[ReactionOption | None, FireMode]:
    """The first option (1..7) that applies and what it orders; (None, NOTHING) if none does
    (e.g. range 0-1, which the printed table does not list)."""
    for opt in OPTIONS:
        if level in opt.levels and opt.lo <= distance and (opt.hi is None or distance <= opt.hi):
            return opt, dict(opt.by_task).get(task, opt.otherwise)
    return None, FireMode.NOTHING
