"""S8.0 ENTERING BOMBERS: which counters represent the bombers due each turn (with the
entry changes of SCENARIO 6C, 6H and 8F)."""

from __future__ import annotations

from collections import Counter as Tally
from typing import TYPE_CHECKING

from umpire.engine.decision import Candidate
from umpire.engine.dice import custom, d6, two_d6
from umpire.engine.errors import InvalidSetup
from umpire.engine.rulesets.nightfighter.events import CountersDue, NewCounter
from umpire.engine.rulesets.nightfighter.setup import BomberDue, Setup, modification
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.terms import Uncertainty, cite
from umpire.events.types import Owner

if TYPE_CHECKING:  # turn.py imports evolve, which imports check_schedule from here
    from umpire.engine.rulesets.nightfighter.turn import NightfighterTurn

RULE = cite("S8.0")
RULE_6C = cite("SCENARIO 6C")
RULE_6H = cite("SCENARIO 6H")
RULE_8F = cite("SCENARIO 8F")


def is_v1(bomber: BomberDue) -> bool:
    """SCENARIO 8F: the V-1 flying bomb."""
    return bomber.kind.upper().replace("-", "") == "V1"


def check_schedule(setup: Setup) -> None:
    """S8.0 covers one or three bombers due on a turn; two are entered as moderate
    counters (SCENARIO 6C rolls for the column left empty; README interpretation); more
    than three in a turn is refused."""
    per_turn = Tally(b.turn for b in setup.bombers)
    crowded = sorted(t for t, n in per_turn.items() if n > 3)
    if crowded:
        raise InvalidSetup(
            f"{RULE}: at most three bombers may be due on one turn (turns {crowded} have more)"
        )
    ids = [b.id for b in setup.bombers]
    if len(set(ids)) != len(ids):
        raise InvalidSetup("bomber ids must be unique")


def columns(setup: Setup, turn: int) -> tuple[int, int, int]:
    """S8.0: columns 04, 10, 16 on odd turns and 03, 09, 15 on even turns (by default)."""
    return setup.odd_columns if turn % 2 == 1 else setup.even_columns


def wave_number(setup: Setup, turn: int) -> int:
    """SCENARIO 6H: the ordinal of this turn's wave among the turns with bombers due."""
    turns = sorted({b.turn for b in setup.bombers})
    return turns.index(turn) + 1 if turn in turns else 0


def h2s_wave(setup: Setup, turn: int) -> bool:
    """SCENARIO 6H: every odd-numbered wave (1st, 4th, 7th ... with 6C) has an H2S bomber."""
    wave = wave_number(setup, turn)
    if not modification(setup, "6H") or wave == 0:
        return False
    return wave % 3 == 1 if modification(setup, "6C") else wave % 2 == 1


def counters_due(turn: NightfighterTurn, state: State, game_turn: int) -> None:
    """S8.0: emit the counters created for the bombers due on `game_turn` (with any rolls),
    each read from `state`, the state the bombers' move began in.

    Three bombers due: three moderate counters, one per column. One bomber due: three high
    uncertainty counters this turn and three more next turn in the other three columns,
    unless another bomber is due next turn. Under contrails (S21.0) there is no moderate
    uncertainty, so 'moderate' counters enter at low uncertainty.
    """
    setup = state.setup
    due: list[BomberDue] = sorted(
        (b for b in setup.bombers if b.turn == game_turn), key=lambda b: b.id
    )
    v1s = [b for b in due if is_v1(b)]
    for bomber in v1s:
        _v1(turn, state, bomber, game_turn)
    due = [b for b in due if not is_v1(b)]
    if not due:
        return
    h2s_id = ""
    if h2s_wave(setup, game_turn):
        if len(due) == 1:
            h2s_id = due[0].id
        else:
            roll = turn.roll(
                custom(len(due)), "which bomber carries H2S", RULE_6H, owner=Owner.OPPONENT
            )
            h2s_id = due[roll.total - 1].id
    cols = columns(setup, game_turn)
    if len(due) == 1:
        bomber = due[0]
        follow_on = not any(b.turn == game_turn + 1 for b in setup.bombers)
        news = [
            NewCounter(id=f"{bomber.id}-{i + 1}", enter_turn=game_turn, enter_col=col)
            for i, col in enumerate(cols)
        ]
        if follow_on:
            news += [
                NewCounter(id=f"{bomber.id}-{i + 4}", enter_turn=game_turn + 1, enter_col=col)
                for i, col in enumerate(columns(setup, game_turn + 1))
            ]
        why = "one bomber due: three high uncertainty counters now" + (
            " and three more next turn" if follow_on else "; another bomber is due next turn"
        )
        turn.emit(_due(state, bomber, Uncertainty.HIGH, tuple(news), why, h2s_id, ()))
        return
    level = Uncertainty.LOW if setup.contrails else Uncertainty.MODERATE
    used = list(cols)
    nums: tuple[int, ...] = ()
    if len(due) == 2 and modification(setup, "6C"):
        roll = turn.roll(d6(), "column with no bomber this turn", RULE_6C, owner=Owner.OPPONENT)
        nums = (roll.roll,)
        skipped = used.pop((roll.total - 1) // 2)
        why = f"roll {roll.total}: no counter enters column {skipped:02d} (6C)"
    else:
        why = f"{len(due)} bombers due: one {level.value} uncertainty counter each"
    for i, bomber in enumerate(due):
        one = (NewCounter(id=f"{bomber.id}-1", enter_turn=game_turn, enter_col=used[i]),)
        turn.emit(_due(state, bomber, level, one, why, h2s_id, nums))


def _v1(turn: NightfighterTurn, state: State, bomber: BomberDue, game_turn: int) -> None:
    """SCENARIO 8F: the V-1 enters in the hex column matching a two-dice roll, and its
    position is never uncertain."""
    roll = turn.roll(two_d6(), f"entry column of {bomber.id}", RULE_8F, owner=Owner.OPPONENT)
    news = (NewCounter(id=f"{bomber.id}-1", enter_turn=game_turn, enter_col=roll.total),)
    event = _due(
        state, bomber, Uncertainty.NONE, news, f"two dice {roll.total}: column {roll.total:02d}",
        "", (roll.roll,),
    )  # fmt: skip
    from msgspec.structs import replace

    turn.emit(replace(event, rule=RULE_8F, certain=True))


def _due(
    state: State,
    bomber: BomberDue,
    level: Uncertainty,
    news: tuple[NewCounter, ...],
    why: str,
    h2s_id: str,
    nums: tuple[int, ...],
) -> CountersDue:
    where = ", ".join(f"{n.id} column {n.enter_col:02d} turn {n.enter_turn}" for n in news)
    h2s = bomber.h2s or bomber.id == h2s_id
    return CountersDue(
        rule=RULE,
        dice=nums,
        candidates=(Candidate(option=level.value, chosen=True, reason=why),),
        bomber=bomber.id,
        level=level.value,
        counters=news,
        speed=bomber.speed,
        heading=state.setup.heading,
        h2s=h2s,
        explanation=f"{bomber.kind} {bomber.id}: {why} ({where})" + (" H2S" if h2s else ""),
    )
