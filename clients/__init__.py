"""What connects from outside: the Python client, client CLI commands, the browser viewer.
Clients speak the wire protocol only (events/wire.py holds its types; they never import
server/). The Python client's one name is this package:
`from umpire.clients import UmpireClient, UmpireError`.

The two names load clients/client.py (and websockets) on first use (PEP 562), so the
`umpire` command line can read clients/commands.py for every command without paying for
websockets; `LAZY` is read by tests/test_imports.py as this package's imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from umpire.clients.client import UmpireClient, UmpireError, new_create_id

__all__ = ["UmpireClient", "UmpireError", "new_create_id"]

# Each lazily loaded name and the module that holds it.
LAZY = {
    "UmpireClient": "umpire.clients.client",
    "UmpireError": "umpire.clients.client",
    "new_create_id": "umpire.clients.client",
}


def __getattr__(name: str) -> Any:
    module = LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
