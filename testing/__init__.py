"""umpire.testing: the tests that run over every installed ruleset, shipped with umpire.

A new ruleset, installed beside umpire as its own package, passes them with no edit to
umpire: `pytest --pyargs umpire.testing -k mygame` (docs/rulesets.md "Tests"). What they
need to know of a ruleset is its own declaration: `Ruleset.openings`, `Ruleset.testing`
(the test profile) and the redaction declarations (`Ruleset.has_secrets`,
`Ruleset.has_hidden_dice`). The fixtures they run on (a real Valkey, a store, a gateway,
the CLI) are the plugin `umpire.testing.fixtures`; what the tests share is under
`umpire.testing.support`.

- contract/: random play to the end through a gateway, legal actions' truth, no secret in
  any frame, every citation names a rule;
- access/: the hash attack, the twin differential (frames, views, listed actions, refusals
  and answers of twin games that differ only in a secret);
- actions/: the legal actions' schemas, offers and the opponent's fields;
- audit/: export and import, the independent verifier, forgeries, sealed secrets;
- fuzz/: the protocol fuzzer.

`umpire.testing.store_contract` is the other contract it ships, a store's rather than a
ruleset's: `StoreContract`, the tests every store of umpire's logs passes (a store's own
tests subclass it with a `store` fixture; events/store.py says how a store plugs in).
"""
