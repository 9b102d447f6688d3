"""server/rules_job.py: a command's rules job is one value, and it crosses to a worker
process (server/rules_pool.py) by pickling, with its ruleset named rather than copied."""

from __future__ import annotations

import pickle

from umpire.engine import registry
from umpire.engine.game import Game, GameMeta
from umpire.engine.roles import Role
from umpire.server.rules_job import RulesJob


def test_a_rules_job_pickles_with_its_ruleset_by_name() -> None:
    ruleset = registry.get("counter")
    meta = GameMeta(game_id="g1", ruleset="counter", ruleset_version="1", seed_commitment="c",
                    client_seed="s", seq=4)  # fmt: skip
    job = RulesJob(ruleset, Game(meta, None), {"type": "Add", "amount": 1}, [[6]], b"s" * 32,
                   Role.PLAYER, "n1", b"h" * 32)  # fmt: skip
    data = pickle.dumps(job)
    # The ruleset travels as its name (the worker loads it): its code is not in the bytes.
    assert len(data) < 1_000, len(data)
    back = pickle.loads(data)
    assert back == job and back.ruleset is ruleset
