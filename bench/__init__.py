"""Benchmarks (not tests): `python -m bench` prints JSON and a readable table."""
