"""The end of the engagement in words: what ended it and what each side came to.

001_989a2f850da69b66.txt states no end or victory condition: Game Setup leaves the
engagement to "the desired scenario", and the General Rules only send a retreating bot on
"until it leaves the Combat Zone". umpire ends the game when one side has no aircraft left
in the Combat Zone (nothing is left for the bots to fly, or to fly against), and says
what ended it and how every aircraft left: shot down, withdrawn off its own edge (and
why it retreated), or still in the fight, with the tasks the bots' mission aircraft
performed. Who won is the scenario's to judge (README ledger, "game end").
"""

from __future__ import annotations

from umpire.engine.rulesets.age_of_dogfights.state import Plane, Side, State


def _bot_fate(plane: Plane) -> str:
    if plane.out == "lost":
        return f"{plane.id} shot down"
    # A bot leaves the board only when retreating (General Rules: "where it must then exit").
    why = f" ({plane.retreat_reason})" if plane.retreat_reason else ""
    return f"{plane.id} withdrew off its edge{why}"


def _fates(state: State, side: Side) -> str:
    planes = sorted((p for p in state.planes if p.side is side), key=lambda p: p.number)
    left = [p.id for p in planes if not p.out]
    gone = [
        _bot_fate(p) if side is Side.BOT else f"{p.id} lost (shot down or off the board)"
        for p in planes
        if p.out
    ]
    parts = ([f"{', '.join(left)} still in the Combat Zone"] if left else []) + gone
    return "; ".join(parts)


def _tasks(state: State) -> str:
    done = [f"bombed {z}" for z in state.bombed] + [f"photographed {z}" for z in state.photographed]
    return f" Bot missions: {', '.join(done)}." if done else ""


def end_result(state: State) -> str:
    """The words of GameEnded: which side is out of the Combat Zone, every aircraft's fate,
    the bots' tasks performed, and that victory is the scenario's."""
    bots_out, players_out = not state.bots(), not state.players()
    if bots_out and players_out:
        ended = "Neither side has an aircraft left in the Combat Zone"
    elif bots_out:
        ended = "The bots are out of the fight: no bot aircraft is left in the Combat Zone"
    else:
        ended = (
            "The player's side is out of the fight: no player aircraft is left in the Combat Zone"
        )
    return (
        f"{ended}. Bots: {_fates(state, Side.BOT)}. Player aircraft: "
        f"{_fates(state, Side.PLAYER)}.{_tasks(state)} The solo rules state no victory "
        "condition: who won is the scenario's to judge."
    )
