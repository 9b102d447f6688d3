"""The log: envelope, canonical encoding, hash chain, universal event types and the store.

Nothing here knows a ruleset. `engine` builds on this package; `server` builds on both.
"""
