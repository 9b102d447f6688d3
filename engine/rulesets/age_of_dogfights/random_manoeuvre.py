"""Random Maneuver: the solo die for every movement step, then altitude and attitude.

001_989a2f850da69b66.txt Random Maneuver:
- a solo die per movement step (left turn | straight | right turn);
- a rotary engine turns the way its gyroscopic effect favours when the die shows the
  rotary symbol;
- once the agility's turns are used, the remaining steps are straight;
- a direction a rotary aircraft may not turn any more is re-rolled until the die shows
  straight or the allowed direction;
- level flight keeps its altitude; a tilted start *must* climb/descend, rolling for one or
  two (1-3 | 4-6) or one, two or three (1-2 | 3-4 | 5-6) levels when that many are possible;
- at the end, the attitude roll (1-2 nose-down | 3-4 level | 5-6 nose-up), level instead
  when the rolled attitude is not allowed.
General Rules: the solo die is re-rolled whenever its result would cause a collision or
exit the board, even several straight steps after the last turn; looking further (an
interpretation in the same spirit), a result after which the bot could not stay on the
board next round is re-rolled too while another result would let it.
Order (interpretation): the level change is rolled first, so that the collision checks
know the level the bot ends at.
"""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import custom
from umpire.engine.kit.citation import rule_number
from umpire.engine.rulesets.age_of_dogfights import citations as c
from umpire.engine.rulesets.age_of_dogfights.altitude import allowed_attitude
from umpire.engine.rulesets.age_of_dogfights.geometry import Board, Heading, Point, step
from umpire.engine.rulesets.age_of_dogfights.movement import has_room, move, occupant, room_for
from umpire.engine.rulesets.age_of_dogfights.paths import TURN_ORDER, Path, apply_turn
from umpire.engine.rulesets.age_of_dogfights.state import Plane
from umpire.engine.rulesets.age_of_dogfights.tables.seed_tables import (
    ATTITUDE,
    THREE_LEVELS,
    TWO_LEVELS,
)
from umpire.engine.rulesets.age_of_dogfights.terms import Attitude, Manoeuvre, Rotary, Steer
from umpire.engine.rulesets.age_of_dogfights.turn import AgeOfDogfightsTurn


def level_change(turn: AgeOfDogfightsTurn, bot: Plane) -> int:
    """Random Maneuver: the bot's level after the mandatory climb/descent."""
    if bot.attitude is Attitude.LEVEL:
        return bot.level
    kind = turn.state.kind_of(bot)
    up = bot.attitude is Attitude.NOSE_UP
    room = turn.state.ceiling(bot) - bot.level if up else bot.level - 1
    possible = min(kind.climb if up else kind.dive, room, 3)
    sign = 1 if up else -1
    if possible == 0:
        turn.cardinal(
            bot.id,
            f"tilted {bot.attitude.value} at L{bot.level}, where it cannot "
            + ("climb" if up else "descend"),
            [("stay at its level", ""), ("leave the altitude stands", "impossible")],
            "stay at its level",
            "the only move the altitude stands allow",
        )
        return bot.level
    if possible == 1:
        return bot.level + sign
    table = TWO_LEVELS if possible == 2 else THREE_LEVELS
    result = turn.table(bot.id, table, purpose=f"levels to {'climb' if up else 'descend'}")
    return bot.level + sign * int(result)


def _safe(
    turn: AgeOfDogfightsTurn,
    bot: Plane,
    board: Board,
    pos: Point,
    head: Heading,
    steer: Steer,
    remaining: int,
    level: int,
) -> bool:
    """Turning `turn` now and then flying straight for `remaining` steps stays on the
    board and does not end on another aircraft."""
    new_head = apply_turn(head, steer)
    p = step(pos, new_head)
    for _ in range(remaining):
        if not board.contains(p):
            return False
        p = step(p, new_head)
    if not board.contains(p):
        return False
    return occupant(turn.state, p, level, bot.id) is None


def _room_after(
    turn: AgeOfDogfightsTurn, bot: Plane, pos: Point, head: Heading, steer: Steer, remaining: int
) -> bool:
    new_head = apply_turn(head, steer)
    end = step(pos, new_head, remaining + 1)
    return has_room(turn.state, bot, Path(turns=(), points=(end,), heading=new_head))


def random_manoeuvre(turn: AgeOfDogfightsTurn, bot_id: str, steps: int, *, why: str) -> None:
    """Fly a Random Maneuver for `steps` steps."""
    bot = turn.state.plane(bot_id)
    kind = turn.state.kind_of(bot)
    model = turn.state.model
    board = Board(model.width, model.height)
    level = level_change(turn, bot)
    total, max_left, max_right = kind.turn_limits()
    favoured = {Rotary.LEFT: Steer.LEFT, Rotary.RIGHT: Steer.RIGHT}.get(kind.rotary)
    pos, head = bot.position, bot.heading
    turns: list[Steer] = []
    points: list[Point] = []
    used: list[int] = []
    notes: list[Candidate] = []
    left = right = 0
    exited = False

    def permitted(t: Steer) -> bool:
        if t is Steer.STRAIGHT:
            return True
        if left + right >= total:
            return False
        return left < max_left if t is Steer.LEFT else right < max_right

    for i in range(steps):
        remaining = steps - i - 1
        safe = [
            t
            for t in TURN_ORDER
            if permitted(t) and _safe(turn, bot, board, pos, head, t, remaining, level)
        ]
        # Looking one round ahead (interpretation, README): prefer results after which
        # the bot can still stay on the board next round.
        ahead = [t for t in safe if _room_after(turn, bot, pos, head, t, remaining)]
        safe = ahead or safe
        steer: Steer
        if left + right >= total and Steer.STRAIGHT in safe:
            steer = Steer.STRAIGHT
            notes.append(
                Candidate(
                    option=f"step {i + 1}: straight",
                    chosen=True,
                    reason="all turns of its agility are used",
                )
            )
        elif not safe:
            options = [t for t in TURN_ORDER if permitted(t)]
            # Cardinal rule: no result of the die is safe by the seed's test; the bot takes
            # the first result from which it can still fly the round on the board (turning
            # again later), else flies straight on.
            used_after = {
                t: (left + (t is Steer.LEFT), right + (t is Steer.RIGHT)) for t in options
            }
            saving = [
                t
                for t in options
                if board.contains(step(pos, apply_turn(head, t)))
                and room_for(board, step(pos, apply_turn(head, t)), apply_turn(head, t),
                             remaining, kind.turn_limits(), used_after[t])
            ]  # fmt: skip
            steer = saving[0] if saving else options[0]
            turn.cardinal(
                bot.id,
                f"Random Maneuver step {i + 1}: every result the solo die may show leads "
                "off the board or into another aircraft if flown straight on",
                [(t.value, "no way to stay on the board" if t not in saving else
                  "also stays on the board") for t in options],
                steer.value,
                "it keeps the bot on the board by turning again later"
                if saving
                else "no alternative stays on the board",
            )  # fmt: skip
        else:
            steer = Steer.STRAIGHT
            for _ in range(model.max_rerolls):
                rolled = turn.roll(
                    custom(6, labels=("solo",)),
                    purpose=f"{bot.id}: solo die, step {i + 1}",
                    rule=c.RANDOM,
                )
                used.append(rolled.roll)
                face = model.solo_faces[rolled.total - 1]
                shown = face.arrow
                if favoured is not None and face.gyro:
                    shown = favoured
                label = (
                    f"step {i + 1}, face {rolled.total} ({face.arrow.value}"
                    + (", rotary symbol" if face.gyro else "")
                    + f") -> {shown.value}"
                )
                if not permitted(shown):
                    notes.append(
                        Candidate(
                            option=label,
                            chosen=False,
                            reason="turn not allowed (agility): re-rolled",
                        )
                    )
                    continue
                if shown not in safe:
                    notes.append(
                        Candidate(
                            option=label,
                            chosen=False,
                            reason=f"{rule_number(c.AVOIDANCE)}: would exit the board "
                            "or collide: re-rolled",
                        )
                    )
                    continue
                steer = shown
                notes.append(Candidate(option=label, chosen=True, reason="flown"))
                break
            else:  # pragma: no cover - needs max_rerolls unlucky rolls in a row
                steer = safe[0]
                turn.cardinal(
                    bot.id,
                    f"solo die re-rolled {model.max_rerolls} times",
                    [(t.value, "") for t in safe],
                    steer.value,
                    "first safe result",
                )
        left += steer is Steer.LEFT
        right += steer is Steer.RIGHT
        head = apply_turn(head, steer)
        pos = step(pos, head)
        turns.append(steer)
        points.append(pos)
        if not board.contains(pos):
            exited = True
            break
    descended = max(bot.level - level, 0)
    rolled_att = Attitude(turn.table(bot.id, ATTITUDE, purpose="attitude after Random Maneuver"))
    attitude = rolled_att
    bot_at = turn.state.plane(bot_id)
    refused = ""
    if not allowed_attitude(turn.state, bot_at, level, rolled_att, descended):
        attitude = Attitude.LEVEL
        # Say why the rolled attitude was not flown, beside the roll it overrides.
        if rolled_att is Attitude.NOSE_UP and level >= turn.state.ceiling(bot_at):
            where = f"at its ceiling, L{level}"
        elif rolled_att is Attitude.NOSE_DOWN and level <= 1:
            where = "at L1"
        else:
            where = f"after descending {descended} levels"
        refused = f" ({rolled_att.value} rolled, not allowed {where}: level instead)"
        notes.append(
            Candidate(
                option=f"attitude {rolled_att.value}",
                chosen=False,
                reason=f"not allowed at L{level} (descended {descended}): level",
            )
        )
    path = Path(
        turns=tuple(turns), points=tuple(points) or (bot.position,), heading=head, exited=exited
    )
    move(
        turn,
        bot,
        Manoeuvre.RANDOM,
        path,
        level,
        attitude,
        rule=c.RANDOM,
        dice=tuple(used),
        candidates=notes,
        explanation=f"Random Maneuver ({why}): {path.describe()}, L{bot.level} -> L{level}, "
        f"{attitude.value}{refused}",
    )
