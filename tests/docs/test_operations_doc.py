"""docs/operations.md against the code: the settings and their defaults
(server/config.py), the command line (server/arguments.py and the client commands), the
/metrics families (server/metrics.py), the data directory's files, and the limits the
docs state as figures against the constants that set them."""

from __future__ import annotations

import argparse
import re

import pytest

from tests.support.doc_text import DOC_FILES, read, section, table_rows, ticked, where
from tests.support.project_modules import REPO
from umpire.engine.commands import MAX_TAKEBACK_DEPTH
from umpire.events import append_batch, backoff, redis_store
from umpire.server import (
    admission,
    config,
    data_dir,
    delivery,
    embedded,
    game_feed,
    head_checkpoints,
    nesting,
    public_address,
    receipt_keys,
    receipts_file,
    replay_cache,
    store_access,
    supervisor,
    view_digests,
    views,
    workers,
)
from umpire.server.arguments import build_parser
from umpire.server.cli import subcommands


def shown(value: object) -> str:
    """A setting's default as the settings table writes it."""
    if value is None:
        return "unset"
    if value == ():
        return "empty"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, float) and value.is_integer():
        return f"`{int(value)}`"
    if isinstance(value, tuple):
        return f"`{','.join(map(str, value))}`"
    return f"`{value}`"


# Defaults the code computes at start, as the table says them.
COMPUTED = {
    "UMPIRE_DATA_DIR": "`~/.local/share/umpire`",
    "UMPIRE_WORKERS": "one per core, at most 8",
}
# The Python client's own variables, in the same table.
CLIENT_SIDE = {"UMPIRE_GATEWAY_UIDS", "UMPIRE_TRUST_GATEWAY_AT"}


def test_the_settings_table_is_server_config() -> None:
    rows = {
        ticked(row[0])[0]: row[1]
        for row in table_rows(section(read("operations.md"), "Settings"))
        if ticked(row[0])
    }
    variables = set(config.ENV.values())
    assert set(rows) - CLIENT_SIDE == variables, (
        f"docs/operations.md's settings: missing {sorted(variables - set(rows))}, "
        f"not settings {sorted(set(rows) - CLIENT_SIDE - variables)}"
    )
    client_source = "".join(path.read_text() for path in (REPO / "clients").glob("*.py"))
    for name in CLIENT_SIDE:
        assert name in client_source, f"{name} is in the settings table but no client reads it"
    for field, name in config.ENV.items():
        default = config.Settings.model_fields[field].default
        want = COMPUTED.get(name) or shown(default)
        assert rows[name] == want, f"{name}: the table says {rows[name]}, the code {want}"


def parsers() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser by its name (`store check` for a store command's)."""
    extra = subcommands()
    parser = build_parser((name, each.help, each.add_arguments) for name, each in extra.items())
    found: dict[str, argparse.ArgumentParser] = {}

    def walk(prefix: str, node: argparse.ArgumentParser) -> None:
        for action in node._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    nested = any(isinstance(a, argparse._SubParsersAction) for a in child._actions)
                    if nested:
                        walk(f"{prefix}{name} ", child)
                    else:
                        found[f"{prefix}{name}"] = child

    walk("", parser)
    return found


def test_the_command_line_table_is_the_parser() -> None:
    rows = {
        ticked(row[0])[0]: row[1]
        for row in table_rows(section(read("operations.md"), "The command line"))
        if ticked(row[0])
    }
    commands = parsers()
    assert sorted(rows) == sorted(commands), "docs/operations.md's command table and the parser"
    for name, parser in commands.items():
        options = {o for a in parser._actions for o in a.option_strings} - {"-h", "--help"}
        written = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", rows[name]))
        assert written == options, (
            f"`umpire {name}`: the table has {sorted(written - options)} that it does not "
            f"take, and leaves out {sorted(options - written)}"
        )


def test_a_command_line_in_the_docs_is_one_the_parser_takes() -> None:
    commands = parsers()
    wrong = []
    for doc in DOC_FILES:
        text = doc.read_text()
        for match in re.finditer(r"`umpire ((?:store )?[a-z]+)((?: [^`]*)?)`", text):
            name, rest = match.groups()
            if name not in commands:
                if name.split()[0] not in {command.split()[0] for command in commands}:
                    wrong.append(f"{where(doc.name, text, match.start())}: umpire {name}")
                continue
            options = {o for a in commands[name]._actions for o in a.option_strings} | {
                "--data-dir"
            }
            for option in re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", rest):
                if option not in options:
                    wrong.append(f"{where(doc.name, text, match.start())}: umpire {name} {option}")
    assert not wrong, "command lines the parser refuses:\n" + "\n".join(wrong)


def test_every_metric_family_is_in_the_table() -> None:
    source = (REPO / "server" / "metrics.py").read_text()
    families = set(re.findall(r'"(umpire_[a-z_]+)"', source))
    assert len(families) > 30, "the metric families were not found: the pattern is broken"
    body = section(read("operations.md"), "Metrics")
    named = {
        re.sub(r"\{.*", "", name)
        for row in table_rows(body)
        for name in ticked(row[0])
        if name.startswith("umpire_")
    }
    assert named == families, (
        f"docs/operations.md's metrics: missing {sorted(families - named)}, "
        f"not families {sorted(named - families)}"
    )


def figures(value: float) -> set[str]:
    """A figure as the docs may write it: 2,048 or 2048; 0.1; 15."""
    if float(value).is_integer():
        return {f"{value:,.0f}", f"{value:.0f}"}
    return {f"{value:g}"}


# (doc, its words with {} for the figure, the constant that sets it)
LIMITS = [
    ("protocol.md", "deeper than {} levels", nesting.MAX_DEPTH),
    ("architecture.md", "past {} levels", nesting.MAX_DEPTH),
    ("security.md", "past {} levels", nesting.MAX_DEPTH),
    ("architecture.md", "last {} events", game_feed.WINDOW),
    ("operations.md", "the last {} events into memory", game_feed.WINDOW),
    ("operations.md", "It now reads {} events a read", game_feed.REFRESH_PAGE),
    ("operations.md", "({} events a read, worked", delivery.STREAM_PAGE),
    ("operations.md", "worked {} at a time", delivery.CATCH_UP_PAGE),
    ("operations.md", "listings ({} games a pipeline)", views.LIST_PAGE),
    ("operations.md", "kept every {} events", replay_cache.EVERY),
    ("operations.md", "{} at most in all", replay_cache.MAX_CHECKPOINTS),
    ("operations.md", "a cache of {} answers", replay_cache.MAX_ANSWERS),
    ("architecture.md", "at most {} kept", view_digests.KEPT_VIEWS),
    ("architecture.md", "(up to {}; a larger turn", append_batch.MAX_BATCH),
    ("architecture.md", "`WaitingConnectionPool`, {} connections", redis_store.POOL_SIZE),
    ("architecture.md", "XREAD BLOCK {} ms", redis_store.TAIL_BLOCK_MS),
    ("architecture.md", "backoff for up to {} s", redis_store.RESHARD_PATIENCE),
    ("scale-out.md", "`RESHARD_PATIENCE` = {} s", redis_store.RESHARD_PATIENCE),
    ("operations.md", "| `create` | {}, and one", admission.CREATE_COST),
    ("architecture.md", "({}, `MAX_TAKEBACK_DEPTH`)", MAX_TAKEBACK_DEPTH),
    ("operations.md", "{} s doubling to a", backoff.FIRST_SECONDS),
    ("operations.md", "doubling to a {} s cap", backoff.CAP_SECONDS),
    ("operations.md", "with backoff ({} s, doubling", supervisor.FIRST_DELAY),
    ("operations.md", "doubling to {} s while it keeps dying", supervisor.MAX_DELAY),
    ("operations.md", "dying within {} s of a start", supervisor.STABLE_SECONDS),
    ("operations.md", "takes it up within {} seconds", receipt_keys.CURRENT_SECONDS),
    ("operations.md", "is restarted, after {} s and doubling", workers.FIRST_DELAY),
    ("operations.md", "up to {} s while it keeps dying (reset", workers.MAX_DELAY),
    ("operations.md", "(reset after {} s alive)", workers.STABLE_SECONDS),
    ("operations.md", "a worker that takes over {} s is killed", workers.DRAIN_SECONDS),
]


@pytest.mark.parametrize(("doc", "words", "value"), LIMITS, ids=[f"{d}:{w}" for d, w, _ in LIMITS])
def test_a_limit_the_docs_state_is_the_codes(doc: str, words: str, value: float) -> None:
    text = " ".join(read(doc).split())
    said = {words.format(shown) for shown in figures(value)}
    assert any(each in text for each in said), f"docs/{doc} should say {said} (the code's figure)"


def test_the_data_directory_table_names_the_files_umpire_makes() -> None:
    body = section(
        read("operations.md"),
        "The embedded store: one Valkey per data directory, authenticated, supervised",
    )
    listed = {ticked(row[0])[0] for row in table_rows(body) if ticked(row[0])} - {"file"}
    store = store_access.STORE_DIR
    made = {
        data_dir.LOCK_FILE,
        data_dir.USERS_FILE,
        data_dir.SECRET_FILE,
        store_access.URL_FILE,
        f"{store}/{embedded.CONFIG_FILE}",
        f"{store}/{embedded.SOCKET_FILE}",
        f"{store}/{embedded.LOG_FILE}",
        f"{store}/appendonlydir/",  # Valkey's own name for the AOF's folder
        head_checkpoints.FILE,
        f"{receipts_file.FOLDER}/",
        f"{workers.RUN_DIR}/",
        public_address.GATEWAY_FILE,
    }
    assert listed == made, f"missing {sorted(made - listed)}, not made {sorted(listed - made)}"
