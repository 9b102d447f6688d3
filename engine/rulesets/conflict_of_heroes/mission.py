"""What a mission adds to the solo rules: the instructions umpire carries out itself
(reinforcements, a computed hex) and the end of the mission.

Seed 003_368c69a730e6e14a.txt 7.0, 7.1: "Each Mission describes what its Counteractions
and Mission orders are"; the seed prints no mission and no end. A mission's data
(scenario.MissionInstruction, scenario.MissionEnd) says what each instruction does and
when the mission ends (README "Mission instructions", "End of the mission").
"""

from __future__ import annotations

from umpire.engine.hexgrid import DIRECTION_NAMES
from umpire.engine.rulesets.conflict_of_heroes.battlefield import (
    active,
    ai_at,
    ai_controls,
    dm,
    fire_zones,
    terrain,
)
from umpire.engine.rulesets.conflict_of_heroes.events import (
    AiReinforcementEntered,
    MissionHexChosen,
)
from umpire.engine.rulesets.conflict_of_heroes.priority import Key, Prefer, choose
from umpire.engine.rulesets.conflict_of_heroes.state import Instruction, State, Unit
from umpire.engine.rulesets.conflict_of_heroes.terms import MissionTarget, Side, cite
from umpire.engine.rulesets.conflict_of_heroes.turn import ConflictOfHeroesTurn
from umpire.events.types import GameEnded, Winner

RULE_END = cite("7.0") + " (the mission's end, README)"


# -- instructions umpire carries out ---------------------------------------------------


def entering(state: State, instruction: Instruction) -> tuple[list[Unit], list[str]]:
    """The reinforcements of `instruction` that can enter now, and why the others cannot
    (already in play or destroyed; entry hex held by an AI, 5.3.1 no stacking)."""
    ready: list[Unit] = []
    why: list[str] = []
    for uid in instruction.reinforcements:
        u = state.unit(uid)
        if u is None or u.in_play or u.destroyed:
            why.append(f"{uid} has already entered")
        elif terrain(state, u.hex).impassable or ai_at(state, u.hex, but=u.id) is not None:
            why.append(f"{uid}'s entry hex {u.hex} holds an AI (AIs will not stack, 5.3.1)")
        else:
            ready.append(u)
    return ready, why


def unexecutable(state: State, instruction: Instruction) -> str:
    """Why the instruction's own part cannot be carried out now ('' if it can)."""
    if instruction.reinforcements:
        ready, why = entering(state, instruction)
        if not ready:
            return "no reinforcement can enter: " + "; ".join(why)
    if instruction.target is MissionTarget.MOST_EXPOSED_AI_HEX and not active(state, Side.AI):
        return "no AI in play, so no exposed hex"
    return ""


def carry_out(turn: ConflictOfHeroesTurn, instruction: Instruction, rule: str) -> None:
    """Place the instruction's reinforcements and name the hex it targets."""
    ready, _ = entering(turn.state, instruction)
    for u in ready:
        turn.emit(
            AiReinforcementEntered(
                unit=u.id,
                hex=u.hex,
                facing=u.facing,
                rule=rule,
                explanation=f"reinforcement {u.id} enters at {u.hex}, facing "
                f"{DIRECTION_NAMES[u.facing]}, "
                f"as the instruction says",
            )
        )
    if instruction.target is MissionTarget.MOST_EXPOSED_AI_HEX:
        _most_exposed(turn, instruction, rule)


def _most_exposed(turn: ConflictOfHeroesTurn, instruction: Instruction, rule: str) -> None:
    state = turn.state
    keys: tuple[Key[Unit], ...] = (
        Key(
            "in the most Units' Fire Zones",
            lambda u: len(fire_zones(state, u, u.hex)),
            Prefer.HIGH,
        ),
        Key("the lowest DM", lambda u: dm(state, u.hex), Prefer.LOW),
    )
    choice = choose(
        turn,
        [(f"{u.hex} ({u.id})", u) for u in active(state, Side.AI)],
        keys,
        purpose="the most exposed AI hex",
        rule=rule,
    )
    hex_ = choice.item.hex
    turn.emit(
        MissionHexChosen(
            target=instruction.target.value,
            hex=hex_,
            rule=rule,
            dice=choice.dice,
            candidates=choice.candidates,
            explanation=f"the most exposed AI hex is {hex_} ({choice.item.id}, in "
            f"{len(fire_zones(state, choice.item, hex_))} Units' Fire Zones, DM "
            f"{dm(state, hex_)}); {choice.how}: {instruction.text}",
        )
    )


# -- the end of the mission -------------------------------------------------------------


def _remaining(state: State, side: Side) -> bool:
    """Whether `side` has a counter in play or still to come (not destroyed)."""
    return any(u.side is side and not u.destroyed for u in state.units)


def side_gone(state: State) -> GameEnded | None:
    """A side with no counter left in play or to come loses (checked after 7.3)."""
    if not _remaining(state, Side.AI):
        return GameEnded(
            result="the player wins: every AI is destroyed", rule=RULE_END, winner=Winner.PLAYER
        )
    if not _remaining(state, Side.PLAYER):
        return GameEnded(
            result="the AI wins: every Unit is destroyed", rule=RULE_END, winner=Winner.OPPONENT
        )
    return None


def last_round_over(state: State) -> GameEnded | None:
    """After the mission's last round: the AI wins holding every `ai_holds` objective."""
    end = state.end
    if not end.last_round or state.round < end.last_round:
        return None
    wanted = [o for o in state.objectives if o.id in end.ai_holds]
    if not wanted:
        return GameEnded(
            result=f"draw: round {state.round}, the mission's last, is over",
            rule=RULE_END,
            winner=Winner.DRAW,
        )
    held = [o.id for o in wanted if ai_controls(state, o)]
    lost = [o.id for o in wanted if o.id not in held]
    if not lost:
        result = f"the AI wins: it holds {', '.join(held)} at the end of round {state.round}"
        return GameEnded(result=result, rule=RULE_END, winner=Winner.OPPONENT)
    result = (
        f"the player wins: the AI does not hold {', '.join(lost)} at the end of round "
        f"{state.round}, the mission's last"
    )
    return GameEnded(result=result, rule=RULE_END, winner=Winner.PLAYER)
