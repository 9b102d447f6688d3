"""3.0 Player WhoseTurn: exactly one of an AP action, a CAP action, a card action, a stall or a
pass, then play advances to the AI turn.

Seed 003_368c69a730e6e14a.txt 3.0, 3.1, 3.1.1, 3.2.1, 3.2.2, 3.3. The player reports the
action (its units, its AP and CAP cost, where the units end up); the umpire checks it may
be taken, spends the CAPs and makes the AP Spent Check.
"""

from __future__ import annotations

from umpire.engine.errors import RuleError
from umpire.engine.rulesets.conflict_of_heroes.ai_turn import end_round
from umpire.engine.rulesets.conflict_of_heroes.battlefield import on_map, terrain
from umpire.engine.rulesets.conflict_of_heroes.commands import (
    CardAction,
    CommandAction,
    Pass,
    Placement,
    Stall,
    UnitAction,
)
from umpire.engine.rulesets.conflict_of_heroes.events import Moved, PlayerActed
from umpire.engine.rulesets.conflict_of_heroes.spent_check import spent_check
from umpire.engine.rulesets.conflict_of_heroes.state import State
from umpire.engine.rulesets.conflict_of_heroes.terms import PlayerAction, Side, WhoseTurn, cite
from umpire.engine.rulesets.conflict_of_heroes.turn import ConflictOfHeroesTurn


def require_player_turn(state: State) -> None:
    """3.0 / 4.0: turns alternate; a player action needs the player's turn."""
    if state.turn is not WhoseTurn.PLAYER:
        raise RuleError(
            # The command in words, as the listing offers it (actions.py), not its code name.
            "it is the AI's turn: take the AI's turn (draw an Order Card, 4.0) before the next "
            "player action",
            rule=cite("3.0"),
        )


def player_units(state: State, ids: tuple[str, ...], *, fresh: bool, rule: str) -> None:
    """The acting Units: the player's, in play, not destroyed, fresh if `fresh`."""
    if len(set(ids)) != len(ids):
        raise RuleError(f"a unit is named twice in {list(ids)}", rule=rule)
    for uid in ids:
        u = state.unit(uid)
        if u is None or u.side is not Side.PLAYER:
            mine = sorted(x.id for x in state.units if x.side is Side.PLAYER)
            raise RuleError(f"{uid!r} is not one of the player's Units ({mine})", rule=rule)
        if u.destroyed or not u.in_play:
            raise RuleError(f"{uid} is not in play", rule=rule)
        if fresh and not u.fresh:
            raise RuleError(
                f"{uid} is spent: an action paid with APs needs a fresh Unit; a spent Unit "
                "may act only with CAPs (3.2.2)",
                rule=rule,
            )


def check_aps(state: State, ap: int, rule: str) -> None:
    """A unit has the base game's APs (max_unit_aps) to spend on one action."""
    if ap > state.rules.max_unit_aps:
        raise RuleError(
            f"{ap} APs are more than a Unit has to spend on one action "
            f"({state.rules.max_unit_aps}); supplement with CAPs (3.2.1)",
            rule=rule,
        )


def check_caps(state: State, caps: int) -> None:
    """3.2: CAPs spent must be on the player's CAP track."""
    if caps > state.caps:
        raise RuleError(
            f"{caps} CAPs are not there: the player has {state.caps} CAPs left this round",
            rule=cite("3.2.1"),
        )


def placements(
    state: State, moves: tuple[Placement, ...], units: tuple[str, ...], rule: str
) -> tuple[Moved, ...]:
    """Where the acting units end the action (only acting units may be placed)."""
    out: list[Moved] = []
    for m in moves:
        if m.unit not in units:
            raise RuleError(f"{m.unit} is placed but is not one of the acting units", rule=rule)
        if not on_map(state, m.hex) or terrain(state, m.hex).impassable:
            raise RuleError(f"hex {m.hex} is off the map or impassable", rule=rule)
        out.append(Moved(unit=m.unit, hex=m.hex, facing=m.facing))
    return tuple(out)


def unit_action(turn: ConflictOfHeroesTurn, cmd: UnitAction) -> None:
    """3.1: fresh Unit(s) act for `ap` APs (plus `caps` CAPs, 3.2.1); AP Spent Check on
    the AP part only; a group action's failed check marks every unit spent (3.1.1)."""
    s, rule = turn.state, cite("3.1")
    require_player_turn(s)
    player_units(s, cmd.units, fresh=True, rule=rule)
    check_aps(s, cmd.ap, rule)
    check_caps(s, cmd.caps)
    moved = placements(s, cmd.moves, cmd.units, rule)
    turn.emit(
        PlayerActed(
            kind=PlayerAction.UNIT,
            action=cmd.action,
            units=cmd.units,
            ap=cmd.ap,
            caps=cmd.caps,
            moves=moved,
            note=cmd.note,
            rule=rule,
            explanation=f"{', '.join(cmd.units)}: {cmd.action.value} for {cmd.ap} AP"
            + (f" + {cmd.caps} CAP (3.2.1)" if cmd.caps else ""),
        )
    )
    spent_check(turn, Side.PLAYER, cmd.units, cmd.ap)


def command_action(turn: ConflictOfHeroesTurn, cmd: CommandAction) -> None:
    """3.2.2: fresh or spent Unit(s) act paying only CAPs; no AP Spent Check, the
    fresh/spent status does not change."""
    s, rule = turn.state, cite("3.2.2")
    require_player_turn(s)
    player_units(s, cmd.units, fresh=False, rule=rule)
    check_caps(s, cmd.caps)
    moved = placements(s, cmd.moves, cmd.units, rule)
    turn.emit(
        PlayerActed(
            kind=PlayerAction.COMMAND,
            action=cmd.action,
            units=cmd.units,
            caps=cmd.caps,
            moves=moved,
            note=cmd.note,
            rule=rule,
            explanation=f"{', '.join(cmd.units)}: {cmd.action.value} for {cmd.caps} CAP; "
            "no AP Spent Check",
        )
    )


def card_action(turn: ConflictOfHeroesTurn, cmd: CardAction) -> None:
    """3.3: play an Action Card paid with APs and/or CAPs; AP Spent Check if APs paid."""
    s, rule = turn.state, cite("3.3")
    require_player_turn(s)
    if cmd.ap and not cmd.units:
        raise RuleError("a card paid with APs needs the fresh Units that pay them", rule=rule)
    player_units(s, cmd.units, fresh=cmd.ap > 0, rule=rule)
    check_aps(s, cmd.ap, rule)
    check_caps(s, cmd.caps)
    moved = placements(s, cmd.moves, cmd.units, rule)
    turn.emit(
        PlayerActed(
            kind=PlayerAction.CARD,
            units=cmd.units,
            ap=cmd.ap,
            caps=cmd.caps,
            card=cmd.card,
            moves=moved,
            note=cmd.note,
            rule=rule,
            explanation=f"Action Card '{cmd.card}' for {cmd.ap} AP and {cmd.caps} CAP",
        )
    )
    if cmd.ap:
        spent_check(turn, Side.PLAYER, cmd.units, cmd.ap)


def stall(turn: ConflictOfHeroesTurn, cmd: Stall) -> None:
    """3.0 Stall: 1 AP from a fresh Unit (then an AP Spent Check, 3.1.1) or 1 CAP."""
    s, rule = turn.state, cite("3.0") + " Stall"
    require_player_turn(s)
    if cmd.unit:
        player_units(s, (cmd.unit,), fresh=True, rule=rule)
        turn.emit(
            PlayerActed(
                kind=PlayerAction.STALL,
                units=(cmd.unit,),
                ap=1,
                rule=rule,
                explanation=f"stall: {cmd.unit} spends 1 AP",
            )
        )
        spent_check(turn, Side.PLAYER, (cmd.unit,), 1)
        return
    if s.caps < 1:
        raise RuleError(
            "a stall needs 1 AP from a fresh Unit (name it) or 1 CAP, and no CAPs are left",
            rule=rule,
        )
    turn.emit(
        PlayerActed(kind=PlayerAction.STALL, caps=1, rule=rule, explanation="stall: 1 CAP spent")
    )


def pass_turn(turn: ConflictOfHeroesTurn, cmd: Pass) -> None:
    """3.0 Pass: nothing spent; a pass right after the AI's pass ends the round."""
    s, rule = turn.state, cite("3.0") + " Pass"
    require_player_turn(s)
    ai_passed = s.last_passed is WhoseTurn.AI
    turn.emit(PlayerActed(kind=PlayerAction.PASS, rule=rule, explanation="the player passes"))
    if ai_passed:
        end_round(turn, "the AI passed and then the player passed")
