"""What connects from outside: the Python client, client CLI commands, the browser viewer.

Clients speak the wire protocol only (events/wire.py holds its types; they never import
server/). The Python client's one name is this package:
`from umpire.clients import UmpireClient, UmpireError`.
"""

from umpire.clients.client import UmpireClient, UmpireError, new_create_id

__all__ = ["UmpireClient", "UmpireError", "new_create_id"]
