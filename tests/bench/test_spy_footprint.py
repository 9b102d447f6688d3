"""bench/spy.py puts a sampled stack in the stage of its innermost frame that names one,
and bench/footprint.py finds a server's whole process tree (issue #33 items 1, 4)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from bench import footprint, spy

LOOP = "run (server/app.py:238);BaseEventLoop._run_once (asyncio/base_events.py:1922)"
CALL = f"{LOOP};Connection.run (server/connection.py:79);Session._command (server/session.py:461)"


def test_a_stack_is_the_stage_of_its_innermost_named_frame() -> None:
    append = f"{CALL};Games._append (server/games.py:683);append (events/redis_store.py:300)"
    assert spy.classify(append + ";pack (redis/connection.py:1)") == spy.APPEND
    handoff = f"{CALL};RulesPool.run (server/rules_pool.py:220);to_thread (asyncio/threads.py:25)"
    assert spy.classify(handoff) == spy.HANDOFF
    thread = "_bootstrap (threading.py:1);_worker (concurrent/futures/thread.py:83);"
    in_thread = thread + "_timed (server/rules_pool.py:110);decide (engine/handling.py:5)"
    assert spy.classify(in_thread) == spy.DECIDE
    assert spy.classify(f"{CALL};Connection.offer (server/connection.py:195)") == spy.WRITE
    assert spy.classify(f"{CALL};text_frame (server/framing.py:28)") == spy.FANOUT
    assert spy.classify(f"{CALL};Session._receipt (server/session.py:500)") == spy.ACK
    assert spy.classify(f"{CALL};fold (engine/game.py:1)") == spy.GLUE
    assert spy.classify(f"{LOOP};BaseSelectorEventLoop._write_to_self (x.py:1)") == spy.WAKE
    # waits that a sampler may report as running are left out
    assert spy.classify(thread + "_worker (concurrent/futures/thread.py:81)") is None


def test_the_tree_holds_the_process_and_its_descendants() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys; subprocess.run(['sleep', '60'])"]
    )
    found = [child.pid]
    try:
        deadline = time.monotonic() + 60
        while len(found) < 2 and time.monotonic() < deadline:  # the grandchild starts
            time.sleep(0.05)
            found = footprint.tree(child.pid)
        assert child.pid in found and len(found) == 2, found
        figures = footprint.footprint(child.pid)
        assert figures["parent"]["processes"] == 1 and figures["workers"]["processes"] == 1
        assert figures["tree"]["pss"] > 0
    finally:
        for pid in reversed(found):
            os.kill(pid, signal.SIGKILL)
        child.wait()
