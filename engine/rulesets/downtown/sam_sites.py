"""3.1 SAM Set Up: the SAM Deployment Table's locations and where a counter can go."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.hexgrid import Hex
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown.tables import sam_deployment, sam_placement
from umpire.engine.rulesets.downtown.terms import SamStatus, cite
from umpire.engine.rulesets.downtown.turn import DowntownTurn

R_TABLES = cite("3.1.1")
R_SETUP = cite("3.1.2")
R_HIDDEN = cite("3.1.3")
DEFEND_RADIUS = 6


def _cited(turn: DowntownTurn) -> str:
    """The citation of the scenario date's SAM Deployment Table."""
    return sam_deployment.reading_for(turn.state.setup.year, turn.state.setup.month).citation


def table(turn: DowntownTurn) -> sam_deployment.SamTable:
    """3.1.1: the table for the scenario's date."""
    return sam_deployment.table_for(turn.state.setup.year, turn.state.setup.month)


def occupied(turn: DowntownTurn) -> set[str]:
    """Hexes holding a SAM counter."""
    return {s.hex for s in turn.state.sams if s.status is not SamStatus.REMOVED}


def spot(turn: DowntownTurn, site: str) -> str | None:
    """Where a counter for listed location `site` goes: the listed hex if allowed and free,
    else the nearest allowed free hex within the table's radius (3.1.1), or None."""
    board, radius, taken = turn.board, table(turn).radius, occupied(turn)
    if not board.grid.contains(Hex.parse(site)):
        return None
    hexes = [h.label for h in board.grid.within(Hex.parse(site), radius)]
    ok = [h for h in hexes if board.sam_allowed(h) and h not in taken]
    ok.sort(key=lambda h: (board.dist(h, site), board.dist_to_downtown(h), h))
    return ok[0] if ok else None


def uses_left(turn: DowntownTurn, site: str) -> int:
    """3.2.2: two strikes cross a location off; beyond 4 hexes of downtown it takes one SAM."""
    used = next((u.strikes for u in turn.state.site_uses if u.hex == site), 0)
    cap = sam_placement.MAX_USES
    if turn.board.dist_to_downtown(site) > sam_placement.ONE_SAM_BEYOND:
        cap = 1
    return max(0, cap - used)


def set_up(turn: DowntownTurn) -> None:
    """3.1.2: place located counters (SAMs + dummy SAMs + dummy radars) one at a time,
    'defending' each target with a listed location within 6 hexes: Hanoi/Haiphong targets
    first, then by distance from the two cities; then again with a second SAM."""
    s = turn.state.setup
    board = turn.board
    counters = s.sams_at_start + s.dummy_sams + s.dummy_radars
    targets = sorted(
        board.data.targets, key=lambda t: (t.city == "", board.dist_to_downtown(t.hex), t.id)
    )
    listed = table(turn).hexes
    placed, rounds = 0, 0
    while placed < counters and rounds < 4:
        progress = False
        for t in targets:
            if placed == counters:
                break
            used_sites = {u for u in _setup_sites(turn)}
            near = [
                h
                for h in listed
                if board.grid.contains(Hex.parse(h)) and board.dist(h, t.hex) <= DEFEND_RADIUS
            ]
            ranked = sorted(near, key=lambda h: (h in used_sites, board.dist(h, t.hex), h))
            cands: list[Candidate] = []
            for site in ranked:
                where = spot(turn, site)
                if where is None:
                    cands.append(Candidate(option=site, chosen=False, reason="no free allowed hex"))
                    continue
                cands.append(
                    Candidate(
                        option=site,
                        chosen=True,
                        reason=(
                            f"listed location {board.dist(site, t.hex)} hexes from target {t.id}"
                            + (" (already used: offset)" if site in used_sites else "")
                        ),
                    )
                )
                cands += [
                    Candidate(option=o, chosen=False, reason="not needed: earlier choice")
                    for o in ranked[len(cands) :]
                ]
                turn.emit(
                    ev.SamSetUp(
                        rule=f"{R_SETUP}; {_cited(turn)}",
                        sam_id=turn.new_id("SAM"),
                        hex=where,
                        site=site,
                        target=t.id,
                        candidates=tuple(cands),
                        explanation=f"located SAM defends {t.id} from {where} (site {site})",
                    )
                )
                placed += 1
                progress = True
                break
            else:
                turn.emit(
                    ev.DecisionMade(
                        rule=R_SETUP,
                        topic="sam_setup",
                        result=f"{t.id}: none",
                        candidates=tuple(cands),
                        explanation=f"no listed location within 6 hexes of {t.id} is free",
                    )
                )
        rounds += 1
        if not progress:
            break


def _setup_sites(turn: DowntownTurn) -> list[str]:
    return [e.site for e in turn.events if isinstance(e, ev.SamSetUp)]
