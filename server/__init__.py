"""The imperative shell: command handling, gateway, config, embedded Redis and the CLI."""
