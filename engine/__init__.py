"""The rules, pure: dice, hex geometry, the ruleset contract, the fold and the rulesets.

Nothing in engine/ does I/O, reads a clock or uses global randomness
(tests/engine/test_purity.py imports it with those modules blocked).
"""
