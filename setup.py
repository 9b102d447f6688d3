"""The one import package `umpire`: its subpackages are the design card's top-level folders.

`umpire.engine` is engine/, `umpire.events` is events/, `umpire.server` is server/,
`umpire.clients` is clients/ and `umpire.testing` is testing/ (the cross-ruleset tests);
the folders stay at the top of the repository, and an install (editable or not) holds a
single top-level import package. Everything else is in
pyproject.toml.
"""

from setuptools import find_packages, setup

FOLDERS = ("engine", "events", "server", "clients", "testing")

setup(
    packages=[
        f"umpire.{package}"
        for package in find_packages(include=[f"{f}{tail}" for f in FOLDERS for tail in ("", ".*")])
    ],
    package_dir={f"umpire.{folder}": folder for folder in FOLDERS},
)
