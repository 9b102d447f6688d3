"""The Downtown solo tables, one module per table, each a frozen structure with its citation."""
