"""The reconnect pauses, now in events/backoff.py (the Python client uses them too and
may not import server/); kept here so that the server's importers need not change."""

from umpire.events.backoff import CAP_SECONDS, FIRST_SECONDS, Backoff

__all__ = ["CAP_SECONDS", "FIRST_SECONDS", "Backoff"]
