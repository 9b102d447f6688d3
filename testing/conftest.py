"""umpire.testing runs on the fixtures of its plugin (a real Valkey, a store, a gateway, the
CLI), also when run alone as `pytest --pyargs umpire.testing`."""

pytest_plugins = ("umpire.testing.fixtures",)
