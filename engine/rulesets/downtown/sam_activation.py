"""3.2-3.3 SAM activation: hidden SAMs (BSAN check and Placement Table) and set-up SAMs
(Activation Table and Dummy Check)."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import custom, d10
from umpire.engine.hexgrid import Hex
from umpire.engine.rulesets.downtown import events as ev
from umpire.engine.rulesets.downtown import sam_sites
from umpire.engine.rulesets.downtown import situation as sit
from umpire.engine.rulesets.downtown.labels import LABELS, hexes
from umpire.engine.rulesets.downtown.state import Sam, State, UsFlight
from umpire.engine.rulesets.downtown.tables import dummy_check, sam_activation, sam_placement
from umpire.engine.rulesets.downtown.tables.dummy_check import DummyResult
from umpire.engine.rulesets.downtown.terms import (
    DistanceTiersReading,
    Phase,
    SamStatus,
    Task,
    TwoSamsReading,
    cite,
)
from umpire.engine.rulesets.downtown.turn import DowntownTurn
from umpire.events.plurals import counted

R_MIG_DAY = cite("3 (MiG day)")
R_CHECK = sam_activation.CHECK_CITATION
R_SETUP = cite("3.3")


def modifiers(state: State, turn: DowntownTurn, phase: Phase) -> list[tuple[str, int]]:
    """3.2.1: the modifiers that apply, (key, value), in table order."""
    board = turn.board
    acq = phase is Phase.SAM_ACQUISITION
    target = sit.target_hex(state, board)
    flights = sit.us_on_map(state)
    bombers = [f for f in flights if f.bomber]
    out: list[tuple[str, int]] = []

    def add(key: str, times: int = 1) -> None:
        m = sam_activation.BY_KEY[key]
        value = m.acq if acq else m.admin
        if value is not None and times:
            out.append((key, value * times))

    if (1965, 1) <= (state.setup.year, state.setup.month) <= (1966, 12):
        add("early_date")
    add("preemptive_arm", state.preemptive_arms)
    if not bombers:
        add("no_bombers")
    else:
        # 000 3.2.1: "more than 12" and "more than 18 hexes" as exclusive tiers (-4 beyond
        # 18), or both (-6) under `Setup.distance_tiers_reading` (README ledger, 3.2.1).
        d = min(sit.near_target_or_downtown(board, f.hex, target) for f in bombers)
        both = state.setup.distance_tiers_reading is DistanceTiersReading.CUMULATIVE
        if d > 12 and (d <= 18 or both):
            add("bombers_over_12")
        if d > 18:
            add("bombers_over_18")
    if not any(sit.near_target_or_downtown(board, f.hex, target) <= 10 for f in flights):
        add("none_within_10")
    return out


def hidden_check(turn: DowntownTurn, phase: Phase) -> None:
    """3.2.1 SAM Activation Check for hidden SAMs (Acq or Admin column and rules)."""
    state = turn.state
    acq = phase is Phase.SAM_ACQUISITION
    if state.setup.mig_day:
        turn.emit(
            ev.DecisionMade(
                rule=R_MIG_DAY,
                topic="sam_activation",
                result="MiG day",
                explanation="MiG day: no SAM may be activated",
            )
        )
        return
    if acq and not sit.us_on_map(state):
        turn.emit(
            ev.DecisionMade(
                rule=R_CHECK,
                topic="sam_activation",
                result="no check",
                explanation="no US flights on the map",
            )
        )
        return
    bsan = state.hidden_sams
    if bsan == 0:
        turn.emit(
            ev.DecisionMade(
                rule=R_CHECK,
                topic="sam_activation",
                result="no check",
                explanation="no hidden SAMs remain",
            )
        )
        return
    roll = turn.roll(d10(), f"SAM Activation Check ({LABELS.words('phase', phase)})", R_CHECK)
    mods = modifiers(state, turn, phase)
    modified = roll.total + sum(v for _, v in mods)
    inclusive = state.setup.two_sams_reading is TwoSamsReading.EXAMPLE
    count = activation_count(roll.total, modified, bsan, acq, inclusive=inclusive)
    turn.emit(
        ev.SamActivationChecked(
            rule=f"{R_CHECK} ({'Acq' if acq else 'Admin'})",
            dice=(roll.roll,),
            phase=phase,
            unmodified=roll.total,
            modified=modified,
            modifiers=tuple(f"{k} {v:+d}" for k, v in mods),
            count=count,
            bsan=bsan,
            explanation=(
                f"roll {roll.total}, modifiers {sum(v for _, v in mods):+d} -> {modified} "
                f"vs BSAN {bsan}: {counted(count, 'SAM battalion')} "
                f"{'switches' if count == 1 else 'switch'} on"
            ),
        )
    )
    for _ in range(count):
        place_hidden(turn, acq)


def activation_count(
    unmodified: int, modified: int, bsan: int, acq: bool, *, inclusive: bool = True
) -> int:
    """3.2.1: how many hidden SAMs switch on. Two in the Acq phase when the unmodified roll
    is "lower than the BSAN" (the rule) or, with `inclusive`, at most the BSAN (its example:
    BSAN 4, "between 1 and 4"; `Setup.two_sams_reading`, README ledger)."""
    if modified <= 0:
        return 0
    if acq:
        if modified > bsan:
            return 0
        two = unmodified <= bsan if inclusive else unmodified < bsan
        return min(bsan, 2 if two else 1)
    if unmodified > bsan:
        return 0
    return min(bsan, modified)


def measuring_flight(state: State, turn: DowntownTurn) -> UsFlight | None:
    """3.2.2: the detected bombing flight closest to downtown; else the detected US flight of
    any type closest to downtown; None if no US flight is detected."""
    board = turn.board
    detected = [f for f in sit.us_on_map(state) if f.detected]
    bombers = [f for f in detected if f.task is Task.BOMBING]
    pool = bombers or detected
    ranked = sorted(pool, key=lambda f: (board.dist_to_downtown(f.hex), f.id))
    return ranked[0] if ranked else None


def _placement_reason(
    chosen: bool, key: tuple[int, int], best: tuple[int, int], centre: str
) -> str:
    """Why a 3.2.2 location was taken or not: its distance to downtown, and in a tie the
    distance to the row's centre, then the hex label (README ledger 3.2.2 ties)."""
    if chosen:
        return f"closest to downtown Hanoi/Haiphong ({hexes(key[0])})"
    if key[0] > best[0]:
        return f"farther from downtown ({hexes(key[0])})"
    if key[1] > best[1]:
        return f"as close to downtown, farther from {centre} ({hexes(key[1])})"
    return "as close to downtown and to " + centre + ": a later hex label"


def place_hidden(turn: DowntownTurn, acq: bool) -> bool:
    """3.2.2 SAM Placement Table A-D (A, B, then C outside the Acq phase, then D)."""
    board = turn.board
    state = turn.state
    origin = measuring_flight(state, turn)
    if origin is None:
        turn.emit(
            ev.DecisionMade(
                rule=sam_placement.CITATION,
                topic="sam_placement",
                result="not placed",
                explanation="no detected US flight: no SAM placed",
            )
        )
        return False
    target = sit.target_hex(state, board)
    cands: list[Candidate] = []
    for letter in sam_placement.sequence(acq):
        read = sam_placement.TABLE.row(letter)
        row, rule = read.value, read.citation
        if row.radius is None:
            turn.emit(
                ev.DecisionMade(
                    rule=rule,
                    topic="sam_placement",
                    result="not placed",
                    candidates=tuple(cands),
                    explanation="no eligible location on A-C",
                )
            )
            return False
        centre = target if row.from_target else origin.hex
        options = []
        for site in sam_sites.table(turn).hexes:
            if sam_sites.uses_left(turn, site) == 0:
                continue
            if not _on(turn, site) or board.dist(site, centre) > row.radius:
                continue
            where = sam_sites.spot(turn, site)
            if where is not None:
                # Closest to downtown (3.2.2); equally close: the one nearer the row's
                # centre, then the hex label (README ledger 3.2.2 ties).
                key = (board.dist_to_downtown(site), board.dist(site, centre))
                options.append((key, site, where))
        if not options:
            cands.append(
                Candidate(
                    option=f"row {letter}",
                    chosen=False,
                    reason=f"no usable location within {row.radius} of {centre}",
                )
            )
            continue
        options.sort()
        best, site, where = options[0]
        cands += [
            Candidate(
                option=f"row {letter}: {s}",
                chosen=s == site,
                reason=_placement_reason(s == site, key, best, centre),
            )
            for key, s, _w in options
        ]
        turn.emit(
            ev.SamPlaced(
                rule=rule,
                sam_id=turn.new_id("SAM"),
                hex=where,
                site=site,
                row=letter,
                candidates=tuple(cands),
                explanation=(
                    f"row {letter}: SAM Warning counter in {where} (location {site}, "
                    f"measured from {origin.id}), radar on"
                ),
            )
        )
        return True
    return False  # pragma: no cover


def _on(turn: DowntownTurn, site: str) -> bool:

    return turn.board.grid.contains(Hex.parse(site))


def setup_check(turn: DowntownTurn, phase: Phase) -> None:
    """3.3: each located, not yet active SAM rolls if a US flight is within 12 hexes (15 in the
    Admin Phase; 15 of the raid's entry point in the DRV Radar Phase), adding the 3.3.1
    cumulative modifiers; 10 or more is a possible activation and a Dummy Check (3.3.2)."""
    state = turn.state
    if state.setup.mig_day:
        turn.emit(
            ev.DecisionMade(
                rule=R_MIG_DAY,
                topic="sam_setup_activation",
                result="MiG day",
                explanation="MiG day: no SAM may be activated",
            )
        )
        return
    board = turn.board
    radar = phase is Phase.DRV_RADAR
    key = "radar" if radar else ("acq" if phase is Phase.SAM_ACQUISITION else "admin")
    radius = sam_activation.CHECK_RADIUS[key]
    entry = sit.entry_hex(state, board)
    for sam in sorted(turn.state.sams, key=lambda s: s.id):
        if sam.status is not SamStatus.LOCATED:
            continue
        if radar:
            dists = [board.dist(sam.hex, entry)]
            bomb_d = 999
        else:
            flights = sit.us_on_map(turn.state)
            dists = [board.dist(sam.hex, f.hex) for f in flights]
            bomb_d = min(
                (
                    board.dist(sam.hex, f.hex)
                    for f in flights
                    if f.task in (Task.BOMBING, Task.RECON)
                ),
                default=999,
            )
        near = min(dists, default=999)
        if near > radius:
            continue
        mods = []
        if near <= 8:
            mods.append("within_8")
        if near <= 5:
            mods.append("within_5")
        if not radar and bomb_d <= 12:
            mods.append("bombing_within_12")
        if phase is Phase.SAM_ACQUISITION:
            mods.append("acq_phase")
        roll = turn.roll(d10(), f"SAM Activation Table {sam.id}", sam_activation.TABLE_CITATION)
        reading = state.setup.acq_phase_reading
        values = [sam_activation.set_up_value(m, reading) for m in mods]
        # Each modifier set off by a comma ("roll 2, bombing within 12 +2, in SAM
        # Acquisition Phase -1 = 3"): run together they read as one phrase.
        shown = "".join(
            f", {LABELS.words('activation_modifier', m)} {v:+d}"
            for m, v in zip(mods, values, strict=True)
        )
        total = roll.total + sum(values)
        possible = sam_activation.set_up_result(total) == "Possible Activation"
        turn.emit(
            ev.SetUpSamRolled(
                rule=sam_activation.TABLE_CITATION
                + (
                    f" (In SAM Acquisition Phase read as {values[-1]:+d})"
                    if "acq_phase" in mods
                    else ""
                ),
                dice=(roll.roll,),
                sam_id=sam.id,
                roll=roll.total,
                total=total,
                modifiers=tuple(mods),
                possible=possible,
                explanation=(
                    f"{sam.id}: {'the raid entry point' if radar else 'nearest US flight'} "
                    f"{hexes(near)}; roll {roll.total}"
                    # "roll 6, no modifiers", not "roll 6 no modifiers = 6".
                    f"{f'{shown} = {total}' if shown else ', no modifiers'}: "
                    f"{'possible activation' if possible else 'no activation'}"
                ),
            )
        )
        if possible:
            run_dummy_check(turn, sam)


def _dummy_words(result: str, outcome: str) -> str:
    """The table's result, and what it came to where that differs (a cap, a second
    possible dummy): "Activates", not "Activates -> Activates"."""
    said, came = LABELS.words("dummy_check", result), LABELS.words("dummy_check", outcome)
    return said if said == came else f"{said} -> {came}"


def run_dummy_check(turn: DowntownTurn, sam: Sam) -> None:
    """3.3.2: two dice plus one per dummy discovered; 8 or less possible dummy (a second time:
    a dummy, removed), 9 possible dummy radar, 10 or more activates; the caps on dummies and
    dummy radars turn those results into 'activates'."""
    s = turn.state.setup
    side = s.dummy_check_die
    roll = turn.roll(custom(side, side), f"SAM Dummy Check {sam.id}", dummy_check.CITATION)
    found = turn.state.dummies_found
    total = roll.total + found
    result = dummy_check.result_for(total)
    outcome = "activates"
    note = ""
    if result is DummyResult.POSSIBLE_DUMMY:
        if turn.state.dummies_generated >= s.dummy_sams:
            note = "dummy cap reached: treated as 'SAM site activates'"
        else:
            outcome = "removed" if sam.possible_dummy else "possible_dummy"
    elif result is DummyResult.DUMMY_RADAR:
        if turn.state.dummy_radars_generated >= s.dummy_radars:
            note = "dummy radar cap reached: treated as 'SAM site activates'"
        else:
            outcome = "dummy_radar"
    turn.emit(
        ev.SamDummyChecked(
            rule=dummy_check.CITATION,
            dice=(roll.roll,),
            sam_id=sam.id,
            roll=roll.total,
            total=total,
            result=result.value,
            outcome=outcome,
            explanation=(
                f"{sam.id}: {roll.total} + {found} dummies found = {total}: "
                + _dummy_words(result.value, outcome)
                + (f"; {note}" if note else "")
            ),
        )
    )
