"""Base-game results the player reports: hits, destroyed counters (7.3), positions and the
counters that count toward the Mission Track (4.0).

Seed 003_368c69a730e6e14a.txt 7.3: a destroyed Unit is removed and placed on the Player's
CAP track (7.4 AtB); a destroyed AI is removed, and the AI loses the next Blue Command card
drawn (deck.remove_command_card).
"""

from __future__ import annotations

from umpire.engine.errors import NothingToDo, RuleError
from umpire.engine.hexgrid import DIRECTION_NAMES
from umpire.engine.rulesets.conflict_of_heroes.battlefield import ai_at, on_map, terrain
from umpire.engine.rulesets.conflict_of_heroes.commands import (
    ReportCounters,
    ReportDestroyed,
    ReportHit,
    ReportPosition,
)
from umpire.engine.rulesets.conflict_of_heroes.deck import remove_command_card
from umpire.engine.rulesets.conflict_of_heroes.events import (
    CountersReported,
    HitReported,
    PositionReported,
    UnitDestroyed,
)
from umpire.engine.rulesets.conflict_of_heroes.mission import side_gone
from umpire.engine.rulesets.conflict_of_heroes.state import State, Unit
from umpire.engine.rulesets.conflict_of_heroes.terms import Side, cite
from umpire.engine.rulesets.conflict_of_heroes.turn import ConflictOfHeroesTurn


def _counter(state: State, uid: str, rule: str) -> Unit:
    u = state.unit(uid)
    if u is None:
        raise RuleError(
            f"no counter {uid!r}; counters: {sorted(x.id for x in state.units)}", rule=rule
        )
    if u.destroyed:
        raise RuleError(f"{uid} has been destroyed (7.3)", rule=cite("7.3"))
    return u


def report_hit(turn: ConflictOfHeroesTurn, cmd: ReportHit) -> None:
    """A hit marker placed on, or rallied off, a counter (base game)."""
    u = _counter(turn.state, cmd.unit, cite("5.2"))
    if u.hit == cmd.hit:
        raise RuleError(f"{u.id} is already {'hit' if u.hit else 'unhit'}", rule=cite("5.2"))
    turn.emit(HitReported(unit=u.id, hit=cmd.hit))


def report_destroyed(turn: ConflictOfHeroesTurn, cmd: ReportDestroyed) -> None:
    """7.3: remove the counter; a Unit goes to the CAP track, an AI costs a Command card."""
    rule = cite("7.3")
    u = _counter(turn.state, cmd.unit, rule)
    r = turn.state.rules
    lost = turn.state.destroyed_player_units + (1 if u.side is Side.PLAYER else 0)
    per_round = max(0, r.player_caps - lost * r.caps_lost_per_destroyed_unit)
    turn.emit(
        UnitDestroyed(
            unit=u.id,
            side=u.side,
            caps_per_round=per_round,
            rule=rule,
            explanation=(
                f"{u.id} is placed on the Player's CAP track: {per_round} CAPs a round"
                if u.side is Side.PLAYER
                else f"{u.id} is removed: the next Blue Command card drawn leaves the game"
            ),
        )
    )
    if u.side is Side.AI:
        remove_command_card(turn)
    ended = side_gone(turn.state)
    if ended is not None:
        turn.emit(ended)


def restated(u: Unit) -> ReportPosition:
    """The report of counter `u` where and as it stands: it would change nothing, so it
    is not listed and is refused (issue 41 item 8)."""
    return ReportPosition(unit=u.id, hex=u.hex, facing=u.facing, in_play=u.in_play)


def report_position(turn: ConflictOfHeroesTurn, cmd: ReportPosition) -> None:
    """A counter's hex and facing as on the table (reinforcements, corrections)."""
    rule = cite("5.3.1")
    u = _counter(turn.state, cmd.unit, rule)
    if cmd == restated(u):
        where = "in play" if u.in_play else "out of play"
        raise NothingToDo(
            f"ReportPosition changes nothing: {u.id} is in hex {u.hex} facing "
            f"{DIRECTION_NAMES[u.facing]} ({u.facing}), "
            f"{where}, already; report another hex, facing or whether it is in play",
            rule=rule,
        )
    if not on_map(turn.state, cmd.hex) or terrain(turn.state, cmd.hex).impassable:
        raise RuleError(f"hex {cmd.hex} is off the map or impassable", rule=rule)
    if u.side is Side.AI and cmd.in_play and ai_at(turn.state, cmd.hex, but=u.id) is not None:
        raise RuleError(f"hex {cmd.hex} holds another AI: AIs will not stack (5.3.1)", rule=rule)
    turn.emit(PositionReported(unit=u.id, hex=cmd.hex, facing=cmd.facing, in_play=cmd.in_play))


def report_counters(turn: ConflictOfHeroesTurn, cmd: ReportCounters) -> None:
    """4.0: Rumored Enemy counters and this round's arriving reinforcements."""
    state = turn.state
    if (cmd.rumored, cmd.reinforcements) == (
        state.rumored_counters,
        state.reinforcements_this_round,
    ):
        raise NothingToDo(
            f"ReportCounters changes nothing: the Mission Track holds {cmd.rumored} Rumored "
            f"Enemy counters and {cmd.reinforcements} reinforcements still to arrive already",
            rule=cite("4.0"),
        )
    turn.emit(CountersReported(rumored=cmd.rumored, reinforcements=cmd.reinforcements))
