"""One package per solo system; each exposes RULESET (engine.ruleset.Ruleset)."""
