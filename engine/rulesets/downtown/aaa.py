"""2.1 AAA concentrations: generation, the hidden pool, deployment, activation, suppression."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import d10, draw
from umpire.engine.hexgrid import Hex
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import situation as sit
from umpire.engine.rulesets.downtown.labels import hexes
from umpire.engine.rulesets.downtown.tables import aaa_deployment, aaa_generation
from umpire.engine.rulesets.downtown.terms import DENSITY_ORDER, cite
from umpire.engine.rulesets.downtown.turn import DowntownTurn

R_GEN = cite("2.1.1")
R_POOL = cite("2.1.3")
R_DEPLOY = cite("2.1.4")
R_ADMIN = cite("2.1.5")
R_TABLE = cite("2.1.6")
R_BEHAVIOUR = cite("2.1.7")


def purchase(turn: DowntownTurn) -> None:
    """2.1.1-2.1.2: roll one die on the AAA Generation Table (hidden: the result is the
    pool's densities). Half (round up) will set up now (2.1.4), the rest are hidden."""
    points = turn.state.setup.aaa_points
    roll = turn.roll(d10(), "AAA Generation Table", aaa_generation.CITATION, hidden=True)
    result = aaa_generation.lookup(points, roll.total)
    count = len(result.densities)
    placed_now = (count + 1) // 2
    turn.emit(
        ev.AaaPurchased(
            rule=result.row,
            dice=(roll.roll,),
            points=points,
            count=count,
            hidden_count=count - placed_now,
            pool_densities=tuple(d.value for d in result.densities),
            explanation=(
                f"{points} AAA Points, roll {roll.total}: {' + '.join(result.cells)} "
                f"({count} concentrations; {placed_now} set up now, "
                f"{count - placed_now} hidden)"
            ),
        )
    )


def _pick(turn: DowntownTurn, purpose: str, rule: str) -> tuple[str, int]:
    """2.1.3: pick one counter at random from the pool (a hidden draw)."""
    pool = turn.state.aaa_pool
    picked = turn.roll(draw(len(pool)), purpose, rule, hidden=True)
    return pool[picked.total - 1], picked.roll


def _occupied(turn: DowntownTurn) -> set[str]:
    return {a.hex for a in turn.state.aaa} | set(turn.board.data.printed_aaa)


def deploy_initial(turn: DowntownTurn) -> None:
    """2.1.4: place half (round up) of the purchased concentrations: first in each target hex
    that has no flak concentration (closest to a US entry arrow first), then one per target
    in an adjacent empty hex (lowest barrage density first, then closest to an entry arrow)."""
    board = turn.board
    to_place = (len(turn.state.aaa_pool) + 1) // 2
    entries = [e.hex for e in board.data.entry_hexes]

    def entry_dist(h: str) -> int:
        return min(board.dist(h, e) for e in entries)

    targets = sorted(board.data.targets, key=lambda t: (entry_dist(t.hex), t.id))
    for t in targets:
        if to_place == 0:
            return
        if t.hex in _occupied(turn):
            continue
        density, n = _pick(turn, f"AAA pick for target {t.id}", R_POOL)
        _place(
            turn,
            t.hex,
            density,
            n,
            R_DEPLOY,
            f"target {t.id} ({t.hex}) has no flak concentration; "
            f"{entry_dist(t.hex)} hexes from an entry arrow",
        )
        to_place -= 1
    ranked = sorted(
        board.data.targets,
        key=lambda t: (DENSITY_ORDER[board.barrage_density(t.hex)], entry_dist(t.hex), t.id),
    )
    while to_place > 0:
        placed_any = False
        for t in ranked:
            if to_place == 0:
                break
            adj = [n.label for n in board.grid.neighbours(Hex.parse(t.hex))]
            free = sorted(
                (h for h in adj if h not in _occupied(turn) and board.is_land(h)),
                key=lambda h: (entry_dist(h), h),
            )
            if not free:
                continue
            density, n = _pick(turn, f"AAA pick beside target {t.id}", R_POOL)
            _place(
                turn,
                free[0],
                density,
                n,
                R_DEPLOY,
                f"adjacent to target {t.id} (barrage {board.barrage_density(t.hex)}); "
                f"closest free hex to an entry arrow",
            )
            to_place -= 1
            placed_any = True
        if not placed_any:
            break


def _place(turn: DowntownTurn, hex_: str, density: str, roll: int, rule: str, why: str) -> None:
    turn.emit(
        ev.AaaPlaced(
            rule=rule,
            dice=(roll,),
            unit_id=turn.new_id("AAA"),
            hex=hex_,
            density=density,
            explanation=f"AAA ({density}) placed in {hex_}: {why}",
        )
    )


def admin_activation(turn: DowntownTurn) -> None:
    """2.1.5: if an Iron Hand, Strike or Recon unit is over land, roll one die: at most the
    number of hidden concentrations activates one, at most half of it two; each goes
    through the AAA Deployment Table (2.1.6)."""
    pool = len(turn.state.aaa_pool)
    if pool == 0 or not sit.active_mission_over_land(turn.state, turn.board):
        turn.emit(
            ev.DecisionMade(
                rule=R_ADMIN,
                topic="aaa_activation",
                result="no check",
                explanation="no hidden AAA left, or no Iron Hand/Strike/Recon unit over land",
            )
        )
        return
    roll = turn.roll(d10(), "hidden AAA activation", R_ADMIN)
    n = 0
    if roll.total <= pool:
        n = 2 if roll.total * 2 <= pool else 1
    n = min(n, pool)
    turn.emit(
        ev.AaaActivationChecked(
            rule=R_ADMIN,
            dice=(roll.roll,),
            pool_size=pool,
            roll=roll.total,
            activations=n,
            explanation=f"roll {roll.total} vs {pool} hidden concentrations: {n} may activate",
        )
    )
    for _ in range(n):
        deploy_from_table(turn)


def deploy_from_table(turn: DowntownTurn) -> bool:
    """2.1.6 AAA Deployment Table A-D: on the line from the target to the closest qualifying
    flight, the eligible hex closest to the flight or to the target (ties: the target)."""
    board, state = turn.board, turn.state
    target = sit.target_hex(state, board)
    cands: list[Candidate] = []
    table = aaa_deployment.AAA_TABLE
    for band in table.bands:
        row, letter = band.value, band.span
        label = f"row {letter}"
        if row.within_target is None:
            cands.append(Candidate(option=label, chosen=True, reason="do not place"))
            turn.emit(
                ev.DecisionMade(
                    rule=table.cite_row(band),
                    topic="aaa_deployment",
                    result="not placed",
                    candidates=tuple(cands),
                    explanation="no eligible hex on rows A-C",
                )
            )
            return False
        radius = row.within_target
        flights = tuple(
            f
            for f in sit.us_on_map(state)
            if f.mission in row.missions and board.dist(f.hex, target) <= radius
        )
        closest = sit.nearest(board, target, flights)
        if closest is None:
            cands.append(
                Candidate(
                    option=label,
                    chosen=False,
                    reason=f"no qualifying flight within {radius} of the target",
                )
            )
            continue
        hexes = eligible_hexes(turn, closest.hex, target)
        if not hexes:
            cands.append(
                Candidate(
                    option=label,
                    chosen=False,
                    reason=f"no eligible hex on the line to {closest.id}",
                )
            )
            continue
        chosen = hexes[0]
        cands.append(
            Candidate(
                option=f"{label}: {chosen}",
                chosen=True,
                reason=f"line {closest.hex}-{target} to flight {closest.id}",
            )
        )
        cands += [
            Candidate(
                option=f"{label}: {h}",
                chosen=False,
                reason=_set_aside(turn, h, chosen, closest.hex, target),
            )
            for h in hexes[1:]
        ]
        density, n = _pick(turn, "hidden AAA pick", R_POOL)
        turn.emit(
            ev.AaaPlaced(
                rule=table.cite_row(band),
                dice=(n,),
                unit_id=turn.new_id("AAA"),
                hex=chosen,
                density=density,
                candidates=tuple(cands),
                explanation=(
                    f"row {letter}: flight {closest.id} within {radius} of the target;"
                    f" AAA in {chosen}, the eligible hex closest to the flight or target"
                ),
            )
        )
        return True
    return False  # pragma: no cover - row D always ends the table


def _set_aside(turn: DowntownTurn, h: str, chosen: str, flight_hex: str, target: str) -> str:
    """Why an eligible 2.1.6 hex lost to `chosen`, as `eligible_hexes` ranks them (an
    equally placed hex is not 'farther')."""
    board = turn.board

    def ends(x: str) -> tuple[int, int]:
        return min(board.dist(x, flight_hex), board.dist(x, target)), board.dist(x, target)

    mine, best = ends(h), ends(chosen)
    if mine[0] > best[0]:
        return f"farther from both ends ({hexes(mine[0])} from the nearer)"
    if mine[1] > best[1]:
        return f"as close to an end, farther from the target ({hexes(mine[1])})"
    return "as close to both ends: a later hex label"


def eligible_hexes(turn: DowntownTurn, flight_hex: str, target: str) -> tuple[str, ...]:
    """2.1.6 eligible hexes, best first: on the line (both hexes where it runs along a side),
    not holding AAA or the flight; ranked by the nearer end, then nearer the target."""
    board = turn.board
    on_line = board.grid.eligible_on_line(Hex.parse(flight_hex), Hex.parse(target))
    occupied = _occupied(turn)
    ok = [h.label for h in on_line if h.label not in occupied and h.label != flight_hex]
    return tuple(
        sorted(
            ok,
            key=lambda h: (
                min(board.dist(h, flight_hex), board.dist(h, target)),
                board.dist(h, target),
                h,
            ),
        )
    )


def suppression(turn: DowntownTurn) -> None:
    """2.1.7: every suppressed concentration rolls for removal in the Admin Phase (removed on
    a d10 at most `suppression_removal_max`, a documented base-game parameter)."""
    limit = turn.state.setup.suppression_removal_max
    for unit in sorted(turn.state.aaa, key=lambda a: a.id):
        if not unit.suppressed:
            continue
        roll = turn.roll(d10(), f"suppression removal {unit.id}", R_BEHAVIOUR)
        removed = roll.total <= limit
        # What comes off is the Suppressed marker, not the concentration: say so.
        outcome = "its suppression is removed" if removed else "it stays suppressed"
        turn.emit(
            ev.AaaSuppressionRolled(
                rule=R_BEHAVIOUR,
                dice=(roll.roll,),
                unit_id=unit.id,
                roll=roll.total,
                removed=removed,
                explanation=(
                    f"{unit.id} rolls {roll.total} for suppression removal "
                    f"({limit} or less removes it): {outcome}"
                ),
            )
        )
