"""What connects from outside: the Python client, client CLI commands, the browser viewer.

Clients speak the wire protocol only (events/wire.py holds its types; they never import
server/).
"""
