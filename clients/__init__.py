"""What connects from outside: the Python client, client CLI commands, the browser viewer.

Clients speak the wire protocol only (server/protocol.py describes it; they never import
server internals at run time except the message types).
"""
