"""The ruleset kit: the pieces every ruleset under engine/rulesets/ builds its Decider from.

- `citation.citations(seed)`: the ruleset's `cite`, "<seed file> <rule>";
- `turn.Turn`: one command's decision in progress (state, dice, events so far; `emit`,
  `roll`, `cite`, `check_opponent_entry`); each ruleset subclasses it once, as
  `<Name>Turn` in its own `turn.py`;
- `fold.fold`: evolve folded over a list of events (tests; procedures read `turn.state`);
- `dispatch.Dispatch`: the one table from command type to handler, from which the
  ruleset's command types are derived;
- `decider.decider`: the ruleset's `decide`, made from its dispatch and its Turn class;
- `seed_table.SeedTable`: a printed table with its citation, the shape of a row's
  citation (`row_cite`), and lookups (by roll, by label) that return the value and the
  exact citation of the row (and column) read;
- `hidden_roll.redact_hidden_roll`: what a player or spectator sees of a hidden roll;
- `labels.Labels`: the view in the rules' words (each field's label, the names of its
  coded values), declared once per ruleset as `Ruleset.labels`.

engine.decision.Decision stays the base of every opponent decision event. docs/rulesets.md
("The ruleset kit") shows how a ruleset uses these.
"""
