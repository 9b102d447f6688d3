"""Moving a bot: collision and board-edge checks, and the BotMoved event.

001_989a2f850da69b66.txt General Rules: "If the bot movement rules would result in an
aircraft collision or cause the bot to exit the board (except when retreating), the bot
aircraft movement should be corrected to avoid this situation." Base game placeholder: a
collision is ending a move on the point and level of another aircraft. Looking ahead
(interpretation, like the seed's "even if the crash would occur several straight movement
steps after the last turn"): a path is avoided when it would leave the bot no way to stay on
the board next round (`keep_room`), unless every path would.
"""

from __future__ import annotations

from collections.abc import Sequence

from umpire.engine.decision import Candidate
from umpire.engine.rulesets.age_of_dogfights.events import BotMoved
from umpire.engine.rulesets.age_of_dogfights.geometry import Board, Heading, Point, step
from umpire.engine.rulesets.age_of_dogfights.paths import TURN_ORDER, Path, apply_turn
from umpire.engine.rulesets.age_of_dogfights.state import Plane, State
from umpire.engine.rulesets.age_of_dogfights.terms import Attitude, Manoeuvre, Steer
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn


def occupant(state: State, point: Point, level: int, moving: str) -> str | None:
    """The aircraft (other than `moving`) at `point` and `level`, if any."""
    for p in state.planes:
        if p.id != moving and not p.out and p.position == point and p.level == level:
            return p.id
    return None


def collides(state: State, bot: Plane, path: Path, level: int) -> bool:
    """Whether ending `path` at `level` would collide with another aircraft."""
    return not path.exited and occupant(state, path.end, level, bot.id) is not None


def move(
    turn: AgeOfDogfightsTurn,
    bot: Plane,
    manoeuvre: Manoeuvre,
    path: Path,
    level: int,
    attitude: Attitude,
    *,
    rule: str,
    dice: tuple[int, ...] = (),
    candidates: Sequence[Candidate] = (),
    explanation: str,
    target: str = "",
    used_green: bool = False,
) -> None:
    """Log and apply the bot's movement."""
    turn.emit(
        BotMoved(
            aircraft=bot.id,
            rule=rule,
            dice=dice,
            candidates=tuple(candidates),
            explanation=explanation,
            manoeuvre=manoeuvre,
            turns=path.turns,
            path=path.points,
            position=path.end if not path.exited else bot.position,
            heading=path.heading,
            level=level,
            attitude=attitude,
            target=target,
            exited=path.exited,
            used_green=used_green,
        )
    )


def room_for(board: Board, pos: Point, heading: Heading, steps: int, limits: tuple[int, int, int],
             used: tuple[int, int]) -> bool:  # fmt: skip
    if steps == 0:
        return True
    total, max_left, max_right = limits
    left, right = used
    for turn in TURN_ORDER:
        if turn is Steer.LEFT and (left >= max_left or left + right >= total):
            continue
        if turn is Steer.RIGHT and (right >= max_right or left + right >= total):
            continue
        head = apply_turn(heading, turn)
        nxt = step(pos, head)
        if board.contains(nxt) and room_for(
            board, nxt, head, steps - 1, limits,
            (left + (turn is Steer.LEFT), right + (turn is Steer.RIGHT)),
        ):  # fmt: skip
            return True
    return False


def has_room(state: State, bot: Plane, path: Path) -> bool:
    """Whether, after `path`, the bot can still fly its longest next-round move (basic
    speed with the highest green face) without leaving the board."""
    kind = state.kind_of(bot)
    board = Board(state.model.width, state.model.height)
    steps = max(1, kind.basic_speed + max(*state.model.blue_faces, *state.model.green_faces))
    return room_for(board, path.end, path.heading, steps, kind.turn_limits(), (0, 0))


def keep_room(state: State, bot: Plane, paths: list[Path]) -> list[Path]:
    """General Rules (collision and board edge), looking ahead: drop paths that would
    leave the bot no way to stay on the board next round, unless every path does."""
    roomy = [p for p in paths if p.exited or has_room(state, bot, p)]
    return roomy or paths
