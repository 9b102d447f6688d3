"""The gateway fixtures of tests/server, for the contract suite."""

from tests.server.conftest import gateway, ws_url  # noqa: F401
