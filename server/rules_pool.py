"""Where a command's rules run, so that none of them holds the gateway's event loop.

A command type measured light (after LIGHT_AFTER runs, its slowest run, fading by
PEAK_FADE a run, under LIGHT_SECONDS: a d6 roll, a counter's Add take 1 to 20 µs) runs on
the event loop itself: handing it to a worker thread and back cost ~40 µs of the loop's
CPU a command, twenty times the rules (docs/benchmarks.md, "Where a move's CPU goes"). A
type never seen, or seen slower lately, runs off the loop: in a worker thread. A command
type measured to take longer (an opponent's procedure: Conflict of Heroes' AI turn on a
large map takes ~0.13 s of CPU) runs in a worker process: in a thread it shares the
interpreter lock with the event loop, and on a busy machine a thread that holds the lock
when the OS takes the CPU away holds up the loop for a whole time slice (measured: another
game's p99 57-104 ms at load 10 on 2 cores, 12-20 ms with no AI turn running;
tests/server/test_ai_turn_does_not_hold_the_loop.py).

Which command types are heavy is measured, not declared: the CPU time of each run (in the
thread or process that ran it, less the garbage collections that started inside it)
updates an estimate per ruleset and command type; a type
whose estimate is over HEAVY_SECONDS goes to the process pool next time. Only rulesets a
worker process can load by name (installed entry points, and the modules of
UMPIRE_EXTRA_RULESETS) go there; a ruleset registered by hand stays in the thread.

The CPU time a run took is returned for admission (server/admission.py work_cost).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from umpire.engine import registry
from umpire.engine.actions import legal_actions
from umpire.engine.game import Game
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.wire import Action as WireAction
from umpire.server.admission import FREE_WORK_SECONDS
from umpire.server.rules_job import RulesJob
from umpire.server.work_meter import WorkMeter

if TYPE_CHECKING:
    # Imported where a pool starts or is used: multiprocessing and the process pool cost
    # a CLI command, which decides in a thread, some 5% of its start (issue #33 item 3).
    from concurrent.futures import ProcessPoolExecutor

log = logging.getLogger("umpire.rules")

# A command type whose rules took more CPU than this runs in a worker process next time
# (admission charges the work beyond it: server/admission.py FREE_WORK_SECONDS).
HEAVY_SECONDS = FREE_WORK_SECONDS
# A command type runs on the event loop once it has run LIGHT_AFTER times and its slowest
# run but the first (which pays for caches filled and modules imported), fading by
# PEAK_FADE a run, is at most LIGHT_SECONDS: it holds the loop for less than the thread
# hand-off would cost it. A slower run sends the type off the loop for hundreds of runs
# (a 4 ms one, as a garbage collection inside the rules measures, ~300; an opponent's
# turn of 0.13 s ~650), so a procedure that only some commands of a type start stays in
# a thread unless it is that rare. (A peak that never fell kept Downtown's RollDice in a
# thread for good in a profile of sequential rolls: one slow run was enough.)
LIGHT_SECONDS = 0.000_2
LIGHT_AFTER = 3
PEAK_FADE = 0.99

# The rules: server/rules_job.py `decide_for`, or a stand-in (tests).
Decide = Callable[[RulesJob], list[Struct]]


def _load_rulesets(modules: tuple[str, ...]) -> None:
    """A worker process's start: the rulesets the gateway loaded from modules."""
    for spec in modules:
        registry.load_module(spec)


def _run_in_process(
    decide: Decide, job: RulesJob
) -> tuple[list[Struct] | None, BaseException | None, float]:
    """In a worker process (the job's ruleset found there by name, server/rules_job.py):
    its decision (or the error the rules raised) and the CPU time it took."""
    started = time.thread_time()
    try:
        return decide(job), None, time.thread_time() - started
    except Exception as exc:  # handed back to the gateway, which raises it there
        return None, exc, time.thread_time() - started


def _actions_by_name(name: str, game: Game, role: Role) -> tuple[list[WireAction], float]:
    """In a worker process: the role's legal actions now and the CPU time they took."""
    started = time.thread_time()
    found = legal_actions(registry.get(name), game.state, role, ended=game.meta.ended, game=game)
    return found, time.thread_time() - started


class _Collections(threading.local):
    """The CPU seconds the garbage collector has taken in this thread (`_on_collection`)."""

    seconds = 0.0
    started = 0.0


_COLLECTIONS = _Collections()


def _on_collection(phase: str, info: dict[str, int]) -> None:
    """gc.callbacks: add up each collection's CPU time, in the thread it ran in. A
    collection starts wherever an allocation crosses the threshold, often inside the rules
    (measured: 93 of 94 runs of the counter's Add over LIGHT_SECONDS in the closed loop held
    one, of 230 to 970 us); it is the process's garbage, not the command type's cost, and
    it holds the event loop as much from a worker thread (it keeps the interpreter lock)."""
    if phase == "start":
        _COLLECTIONS.started = time.thread_time()
    else:
        _COLLECTIONS.seconds += time.thread_time() - _COLLECTIONS.started


def _timed_actions(
    ruleset: Ruleset[Any], game: Game, role: Role, meter: WorkMeter
) -> list[WireAction]:
    """In a worker thread (or on the loop, a light type): the role's legal actions, their
    CPU time in `meter.last`."""
    started = time.thread_time()
    try:
        return legal_actions(ruleset, game.state, role, ended=game.meta.ended, game=game)
    finally:
        meter.last = time.thread_time() - started


def _timed(decide: Decide, job: RulesJob, meter: WorkMeter) -> list[Struct]:
    """In a worker thread (or on the loop, a light type): the decision, its CPU time added
    to `meter` (also when the rules refuse)."""
    started = time.thread_time()
    collected = _COLLECTIONS.seconds
    try:
        return decide(job)
    finally:
        meter.last = time.thread_time() - started
        meter.collected = _COLLECTIONS.seconds - collected


def _timed_on_loop(decide: Decide, job: RulesJob, meter: WorkMeter) -> list[Struct]:
    """On the loop (a light type): the decision, its CPU time in `meter.last`, with one
    read of the CPU clock where `_timed` makes two (each a system call, ~0.6 to 1.2 us
    here). The wall clock (no system call) brackets the run; the second CPU read is made
    only when the run took more than LIGHT_SECONDS of wall time. Under that, the wall time
    stands for the CPU time, which it bounds: every use of the figure decides the same
    on either (the type stays light, under LIGHT_SECONDS; admission charges only work
    beyond FREE_WORK_SECONDS, far above it)."""
    cpu = time.thread_time()
    collected = _COLLECTIONS.seconds
    wall = time.perf_counter()
    try:
        return decide(job)
    finally:
        took = time.perf_counter() - wall
        meter.last = took if took <= LIGHT_SECONDS else time.thread_time() - cpu
        meter.collected = _COLLECTIONS.seconds - collected


class RulesPool:
    """Runs decisions: on the event loop (measured light), in a thread, or (measured heavy)
    in a process.

    With `processes` 0 no decision runs in a process (a heavy one runs in a thread);
    otherwise up to `processes` worker processes start the first time a command type is
    measured heavy."""

    def __init__(self, decide: Decide, *, processes: int = 0, modules: Sequence[str] = ()):
        self.decide = decide
        self.modules = tuple(modules)
        self.estimates: dict[tuple[str, str], float] = {}
        # Per ruleset and command type: runs measured, and the slowest but the first
        # (fading by PEAK_FADE a run).
        self.runs: dict[tuple[str, str], int] = {}
        self.peaks: dict[tuple[str, str], float] = {}
        self.on_loop = 0  # decisions run on the event loop (metrics, tests)
        self._portability: dict[str, bool] = {}
        self.in_process = 0  # decisions run in a worker process (metrics, tests)
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        if _on_collection not in gc.callbacks:
            gc.callbacks.append(_on_collection)

    def _start_pool(self) -> None:
        """Start the worker processes, when a command type is first measured heavy (a
        gateway that never sees one never starts them); the call itself does not wait."""
        if self._pool is not None or self.processes <= 0:
            return
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # spawn: the gateway runs threads (the loop, the pool's own); a fork of it would
        # copy locks that they hold.
        self._pool = ProcessPoolExecutor(
            self.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_load_rulesets,
            initargs=(self.modules,),
        )
        self._pool.submit(time.thread_time)  # start the workers now, not at need

    def _portable(self, ruleset: Ruleset[Any]) -> bool:
        """Whether a worker process loads this very ruleset by its name (an installed entry
        point, or one of the modules it loads at its start)."""
        known = self._portability.get(ruleset.name)
        if known is None:
            try:
                names = set(registry.installed())
                for spec in self.modules:
                    module, _, attr = spec.partition(":")
                    names.add(getattr(importlib.import_module(module), attr or "RULESET").name)
                known = ruleset.name in names and registry.get(ruleset.name) is ruleset
            except Exception:  # a broken entry point or module: keep this one in the thread
                known = False
            self._portability[ruleset.name] = known
        return known

    def run_light(self, job: RulesJob, meter: WorkMeter) -> list[Struct] | None:
        """`run` for a command type measured light: its events, decided here on the loop
        with no coroutine (the hot path: most commands); None for any other type, which
        `run` then places (nothing is run or learned here then)."""
        ruleset = job.ruleset
        key = (ruleset.name, str(job.command.get("type", "")))
        if not self._light(key):
            return None
        meter.last = meter.collected = 0.0
        try:
            self.on_loop += 1
            return _timed_on_loop(self.decide, job, meter)
        finally:
            # As `run` does: admission is charged all of it, the type judged without the
            # collections.
            meter.seconds += meter.last
            self._learn(key, meter.last - meter.collected)

    async def run(self, job: RulesJob, meter: WorkMeter) -> list[Struct]:
        """The events the rules decide for `job` (server/rules_job.py); the CPU seconds
        they took are added to `meter`."""
        ruleset = job.ruleset
        key = (ruleset.name, str(job.command.get("type", "")))
        meter.last = meter.collected = 0.0
        try:
            if self._light(key):
                self.on_loop += 1
                return _timed_on_loop(self.decide, job, meter)
            pool = self._pool
            heavy = self.estimates.get(key, 0.0) > HEAVY_SECONDS
            if heavy and pool is not None and self._portable(ruleset):
                from concurrent.futures.process import BrokenProcessPool  # in with the pool

                try:
                    events, error, meter.last = await asyncio.get_running_loop().run_in_executor(
                        pool, _run_in_process, self.decide, job
                    )
                except BrokenProcessPool:
                    # A worker died (killed, out of memory): this decision runs in a thread,
                    # and the next costly one starts a fresh pool.
                    log.warning("a rules worker process died; starting another at need")
                    if self._pool is pool:
                        self._pool = None
                        pool.shutdown(wait=False, cancel_futures=True)
                else:
                    self.in_process += 1
                    if error is not None:
                        raise error
                    assert events is not None
                    return events
            return await asyncio.to_thread(_timed, self.decide, job, meter)
        finally:
            # Admission is charged all of it; where the type runs next is judged on the
            # rules' own CPU time, without the collections that happened to run in it.
            meter.seconds += meter.last
            self._learn(key, meter.last - meter.collected)

    async def actions(self, ruleset: Ruleset[Any], game: Game, role: Role) -> list[WireAction]:
        """The role's legal actions now (a `state` frame's), off the event loop the same
        way: listing them on a large map costs as much as an opponent's turn."""
        key = (ruleset.name, "(legal actions)")
        meter = WorkMeter()
        try:
            pool = self._pool
            heavy = self.estimates.get(key, 0.0) > HEAVY_SECONDS
            if self._light(key):
                self.on_loop += 1
                return _timed_actions(ruleset, game, role, meter)
            if heavy and pool is not None and self._portable(ruleset):
                from concurrent.futures.process import BrokenProcessPool  # in with the pool

                with contextlib.suppress(BrokenProcessPool):  # then in a thread
                    found, meter.last = await asyncio.get_running_loop().run_in_executor(
                        pool, _actions_by_name, ruleset.name, game, role
                    )
                    self.in_process += 1
                    return found
            return await asyncio.to_thread(_timed_actions, ruleset, game, role, meter)
        finally:
            self._learn(key, meter.last)

    def _light(self, key: tuple[str, str]) -> bool:
        """Whether this command type runs on the event loop (LIGHT_SECONDS)."""
        return self.runs.get(key, 0) >= LIGHT_AFTER and self.peaks.get(key, 0.0) <= LIGHT_SECONDS

    def _learn(self, key: tuple[str, str], seconds: float) -> None:
        """Rise at once to a costly run, fall back slowly."""
        runs = self.runs[key] = self.runs.get(key, 0) + 1
        if runs > 1:
            faded = PEAK_FADE * self.peaks.get(key, 0.0)
            self.peaks[key] = seconds if seconds > faded else faded  # max(), inline
        before = self.estimates.get(key, 0.0)
        estimate = self.estimates[key] = (
            seconds if seconds > before else 0.7 * before + 0.3 * seconds
        )
        if estimate > HEAVY_SECONDS:
            self._start_pool()

    def close(self) -> None:
        """Stop the worker processes (pending decisions are cancelled)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
