"""The docs say what exists (docs/architecture.md: "This document describes what exists").

Each test reads a claim of docs/*.md that can be checked by machine and is likely to go
stale as the code moves, and checks it against the code: the module map of
docs/architecture.md against the packages, every repository path the docs name, a module
named with one of its names, the wire protocol's messages, fields, error codes and close
codes (docs/protocol.md) against events/wire.py and the code's errors, the export and the
universal events' payloads (docs/audit.md) against what umpire writes, and the settings,
the command line and the /metrics families of docs/operations.md against server/config.py,
server/arguments.py and server/metrics.py, and the headers docs/security.md quotes against
server/http.py, and the Ruleset's fields docs/rulesets.md lists against engine/ruleset.py.
The limits the docs state as figures are the constants that set them.
docs/benchmarks.md is a record of runs, read as history, and is left out.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import re
from collections.abc import Iterator

import msgspec
import pytest

from tests.support.project_modules import REPO
from umpire.engine.commands import MAX_TAKEBACK_DEPTH
from umpire.engine.ruleset import Ruleset
from umpire.events import append_batch, backoff, redis_keys, redis_store, types, wire
from umpire.events.export import envelope_to_line
from umpire.server import (
    admission,
    config,
    data_dir,
    delivery,
    embedded,
    game_feed,
    head_checkpoints,
    nesting,
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
from umpire.server.game_log import ExportHeader
from umpire.server.http import CONTENT_SECURITY_POLICY, SECURITY_HEADERS

DOCS = REPO / "docs"
# Every doc but the record of benchmark runs, whose old entries name what was then.
DOC_FILES = sorted(path for path in DOCS.glob("*.md") if path.name != "benchmarks.md")
ROOTS = "events|engine|server|clients|bench|tests|testing|verifier|docs|examples"


def read(name: str) -> str:
    return (DOCS / name).read_text()


def section(text: str, heading: str) -> str:
    """The text under a heading (any level), up to the next heading of that level or above."""
    match = re.search(rf"^(#+) {re.escape(heading)}\n", text, re.M)
    assert match, f"no heading {heading!r}"
    level = len(match.group(1))
    end = re.compile(rf"^#{{1,{level}}} ", re.M).search(text, match.end())
    return text[match.end() : end.start() if end else len(text)]


def table_rows(text: str) -> Iterator[list[str]]:
    """The body rows of the markdown tables in `text`, as cells (`\\|` kept inside one)."""
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| ---"):
            yield [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]


def ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def unbracketed(text: str) -> str:
    """`text` without what it says in parentheses (innermost first), where a field list
    explains a field."""
    while True:
        shorter = re.sub(r"\([^()]*\)", "", text)
        if shorter == text:
            return text
        text = shorter


def where(doc: str, text: str, at: int) -> str:
    return f"docs/{doc}:{text.count(chr(10), 0, at) + 1}"


# -- docs/architecture.md: the module map --------------------------------------------------

MAPPED = ("events", "engine", "server", "clients", "bench")


def mapped_names(package: str) -> set[str]:
    """The names in the first column of the module tables under "## <package>/ ..."."""
    text = read("architecture.md")
    match = re.search(rf"^## {package}/.*$", text, re.M)
    assert match, f"docs/architecture.md has no section for {package}/"
    body = section(text, match.group(0)[3:])
    return {name for row in table_rows(body) for name in ticked(row[0])} - {"module"}


@pytest.mark.parametrize("package", MAPPED)
def test_the_architecture_map_names_every_module_of_a_package(package: str) -> None:
    named = mapped_names(package)
    folder = REPO / package
    modules = {
        path.name + ("/" if path.is_dir() else "")
        for path in folder.iterdir()
        if (path.suffix == ".py" and path.name != "__init__.py")
        or (path.is_dir() and not path.name.startswith(("_", ".")))
    }
    missing = sorted(modules - named)
    assert not missing, f"docs/architecture.md's {package}/ table does not name {missing}"
    gone = sorted(name for name in named if not (folder / name).exists())
    assert not gone, f"docs/architecture.md's {package}/ table names what is not there: {gone}"


# -- every doc: paths and names ------------------------------------------------------------

PATH = re.compile(rf"(?<![\w./-])(?:umpire/)?((?:{ROOTS})/[\w./-]*[\w/])")


def named_paths() -> Iterator[tuple[str, str]]:
    """(where, path) of every file or folder path from the repository's root in the docs: a
    path ending in a file name with a suffix, or in '/'. A path with a placeholder
    (`<name>`, `*`, `{,6}`) is left out, and so is a rate (`events/s`)."""
    for doc in DOC_FILES:
        text = doc.read_text()
        for match in PATH.finditer(text):
            path = match.group(1).rstrip(".")
            if text[match.end() : match.end() + 1] in "<*{":
                continue
            last = path.rstrip("/").rsplit("/", 1)[-1]
            if path.endswith("/") or "." in last:
                yield where(doc.name, text, match.start()), path


def test_every_path_the_docs_name_exists() -> None:
    paths = list(named_paths())
    assert len(paths) > 300, "the docs' paths were not found: the pattern is broken"
    missing = [f"{at}: {path}" for at, path in paths if not (REPO / path).exists()]
    assert not missing, "the docs name paths that do not exist:\n" + "\n".join(missing)


def test_a_test_the_docs_name_exists() -> None:
    # `tests/x/test_y.py::test_z`, or a test named alone (`test_z`): the docs cite the test
    # that shows a claim, and a renamed test leaves the claim unshown.
    sources = [
        path.read_text()
        for folder in ("tests", "testing", "examples")
        for path in (REPO / folder).rglob("*.py")
    ]
    wrong = []
    for doc in DOC_FILES:
        text = doc.read_text()
        for match in re.finditer(r"((?:tests|testing)/[\w/]+\.py)::(\w+)", text):
            path, name = match.groups()
            source = (REPO / path).read_text() if (REPO / path).is_file() else ""
            if not re.search(rf"def {name}\b|class {name}\b", source):
                wrong.append(f"{where(doc.name, text, match.start())}: {path}::{name}")
        for match in re.finditer(r"`(test_\w+)`", text):
            if not any(f"def {match.group(1)}(" in source for source in sources):
                wrong.append(f"{where(doc.name, text, match.start())}: {match.group(1)}")
    assert not wrong, "tests the docs cite that do not exist:\n" + "\n".join(wrong)


# `events/recorder.py` `seal_batch`: a module and a name it defines.
MODULE_AND_NAME = re.compile(
    rf"`?((?:{ROOTS.replace('|docs', '')})/[\w/]+\.py)`? `([A-Za-z_]\w*)(?:[.(][^`]*)?`"
)


def test_a_name_given_with_its_module_is_defined_there() -> None:
    checked = 0
    wrong = []
    for doc in DOC_FILES:
        text = doc.read_text()
        for match in MODULE_AND_NAME.finditer(text):
            path, name = match.groups()
            source = (REPO / path).read_text()
            checked += 1
            defined = rf"^\s*(?:async\s+)?(?:def|class)\s+{name}\b|^\s*{name}\s*[:=]"
            if not re.search(defined, source, re.M):
                wrong.append(f"{where(doc.name, text, match.start())}: {path} has no {name}")
    assert checked > 20, "no module-and-name pairs found: the pattern is broken"
    assert not wrong, "names the docs place in a module that does not define them:\n" + "\n".join(
        wrong
    )


def test_a_dotted_name_of_the_package_resolves() -> None:
    # `umpire.engine.redaction.is_secret`: an import path and the attributes after it.
    wrong = []
    for doc in DOC_FILES:
        text = doc.read_text()
        for match in re.finditer(
            r"`(umpire\.(?:events|engine|server|clients|testing)(?:\.\w+)+)", text
        ):
            parts = match.group(1).split(".")
            for cut in range(len(parts), 1, -1):
                module_path = REPO / "/".join(parts[1:cut])
                if module_path.with_suffix(".py").is_file() or module_path.is_dir():
                    break
            else:
                cut = 1
            if cut == 1:
                wrong.append(f"{where(doc.name, text, match.start())}: {match.group(1)}")
                continue
            module_file = REPO / "/".join(parts[1:cut])
            source = (
                module_file.with_suffix(".py").read_text()
                if module_file.with_suffix(".py").is_file()
                else (module_file / "__init__.py").read_text()
            )
            for name in parts[cut : cut + 1]:
                if not re.search(rf"\b{name}\b", source):
                    wrong.append(f"{where(doc.name, text, match.start())}: {match.group(1)}")
    assert not wrong, "dotted names the package does not have:\n" + "\n".join(wrong)


# -- docs/protocol.md against events/wire.py -----------------------------------------------


def messages(union: object) -> dict[str, type[msgspec.Struct]]:
    return {str(kind.__struct_config__.tag): kind for kind in union.__args__}  # type: ignore[attr-defined]


CLIENT = messages(wire.ClientMessage)
SERVER = messages(wire.ServerMessage)


def client_table() -> dict[str, list[str]]:
    body = section(read("protocol.md"), "Client → server")
    rows = {ticked(row[0])[0]: row for row in table_rows(body) if ticked(row[0])}
    return rows


def test_the_client_messages_are_events_wires_with_their_fields() -> None:
    rows = client_table()
    assert sorted(rows) == sorted(CLIENT), "docs/protocol.md's client table and the wire differ"
    for tag, (_, fields, _) in rows.items():
        documented = set(ticked(unbracketed(fields)))
        wanted = set(CLIENT[tag].__struct_fields__) - {"type", "id"}
        assert wanted <= documented, f"`{tag}`: the table leaves out {sorted(wanted - documented)}"
        assert documented <= wanted, (
            f"`{tag}`: the table names fields it does not take: {sorted(documented - wanted)}"
        )


def test_each_reply_names_every_field_of_its_message() -> None:
    for tag, (_, _, reply) in client_table().items():
        kind = ticked(reply)[0]
        assert kind in SERVER, f"`{tag}` is answered with `{kind}`, which is no server message"
        fields = set(SERVER[kind].__struct_fields__) - {"type", "id"}
        if kind == "games":  # each game's fields, in braces
            fields = set(wire.GameSummary.__struct_fields__)
        missing = sorted(name for name in fields if not re.search(rf"\b{name}\b", reply))
        assert not missing, f"`{tag}`'s reply `{kind}` leaves out {missing}"


def test_the_event_and_error_frames_list_their_fields() -> None:
    body = section(read("protocol.md"), "Server → client")
    said = re.search(r"`event` frames: (.*?)\. ", body, re.S)
    assert said, "docs/protocol.md no longer lists the `event` frame's fields"
    listed = ticked(unbracketed(said.group(1)))
    assert listed == [f for f in wire.EventFrame.__struct_fields__ if f != "type"]
    said = re.search(r"`error` frames: (.*?)\. ", body, re.S)
    assert said, "docs/protocol.md no longer lists the `error` frame's fields"
    assert set(ticked(said.group(1))) == set(wire.Error.__struct_fields__)
    for kind in SERVER:  # named, or shown as a frame
        said = re.search(rf'`{kind}`|"type": ?"{kind}"', read("protocol.md"))
        assert said, f"docs/protocol.md never names `{kind}`"


# Codes the code raises that no client of the gateway meets, each with why.
NOT_ON_THE_WIRE = {
    # the command line and its files
    "backup_invalid": "umpire store restore",
    "data_dir": "umpire serve and the store commands: the data directory",
    "data_dir_in_use": "umpire store",
    "store_damaged": "umpire serve and umpire store",
    "store_start_failed": "umpire serve",
    "export_refused": "umpire export",
    "invalid_export": "umpire audit --file, import",
    "output_refused": "umpire export -o, proof -o",
    "replay_what": "umpire replay",
    "no_such_line": "umpire replay --line",
    "game_amended": "umpire readjudicate",
    "seal_refused": "umpire export --seal",
    "no_receipts": "umpire receipts, audit",
    "receipts_invalid": "a receipts file",
    "proof_invalid": "umpire proof --check",
    "unsafe_path": "a folder or file another user could plant",
    "nonce_key_invalid": "a client's nonce key file",
    # the audit
    "dice_mismatch": "the audit and replays: recorded dice that do not fit",
    "player_roll": "the audit: a player roll the rules do not allow",
    "grammar": "the audit: the batch grammar",
    # the engine's own, caught before an answer
    "needs_whole_log": "a fold from a cache asks for the whole log",
    "invalid_nonce": "the wire refuses a bad nonce first (`bad_message`)",
    # raised by the Python client itself
    "gateway_not_yours": "the Python client",
    "gateway_owner_unknown": "the Python client",
    "receipt_not_signed": "the Python client",
}


def codes_in_code() -> dict[str, set[str]]:
    """Every error code the project's code names, with the files that name it."""
    found: dict[str, set[str]] = {}
    pattern = re.compile(r'\bcode\s*(?::\s*str\s*)?=\s*"([a-z_]+)"|"code":\s*"([a-z_]+)"')
    for package in ("events", "engine", "server", "clients"):
        for path in (REPO / package).rglob("*.py"):
            for match in pattern.finditer(path.read_text()):
                code = match.group(1) or match.group(2)
                found.setdefault(code, set()).add(str(path.relative_to(REPO)))
    return found


def documented_codes() -> set[str]:
    body = section(read("protocol.md"), "Server → client").split("Codes:", 1)[1]
    return {code for row in table_rows(body) for code in ticked(row[0])} - {"code"}


def test_the_error_codes_are_the_codes_a_client_can_meet() -> None:
    found = codes_in_code()
    assert len(found) > 50, "the code's error codes were not found: the pattern is broken"
    documented = documented_codes()
    unknown = sorted(documented - set(found))
    assert not unknown, f"docs/protocol.md lists codes nothing raises: {unknown}"
    undocumented = {
        code: sorted(files)
        for code, files in found.items()
        if code not in documented and code not in NOT_ON_THE_WIRE
    }
    assert not undocumented, (
        f"codes missing from docs/protocol.md's table (or from NOT_ON_THE_WIRE here, with "
        f"why no client meets them): {undocumented}"
    )
    stale = sorted(set(NOT_ON_THE_WIRE) - set(found))
    assert not stale, f"NOT_ON_THE_WIRE names codes nothing raises: {stale}"


def close_codes(doc: str, heading: str) -> set[int]:
    return {int(row[0]) for row in table_rows(section(read(doc), heading)) if row[0].isdigit()}


def test_the_close_codes_are_the_wires() -> None:
    constants = {value for name, value in vars(wire).items() if name.startswith("CLOSE_")}
    assert close_codes("protocol.md", "Close codes") == constants
    # operations.md's list adds the normal close a client may also see
    assert close_codes("operations.md", "Limits and close codes") == constants | {1000}


# -- docs/operations.md against server/config.py, arguments.py, metrics.py ------------------


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


# -- docs/audit.md against the export and the universal events -----------------------------


def audit_table(after: str) -> dict[str, str]:
    """The first table after `after` in docs/audit.md, first cell's names to the rest."""
    text = read("audit.md")
    start = text.index(after) + len(after)
    rows: dict[str, str] = {}
    for line in text[start:].splitlines():
        if not line.startswith("|"):
            if rows:
                return rows
            continue
        cells = [cell.strip() for cell in line.split("|")[1:-1]]
        for name in ticked(cells[0]):
            rows[name] = " | ".join(cells[1:])
    return rows


def test_the_export_header_is_the_one_umpire_writes() -> None:
    rows = audit_table("Line 1 is a header:")
    assert set(rows) == set(ExportHeader.__struct_fields__)


def test_an_export_line_is_the_one_umpire_writes() -> None:
    rows = audit_table("Every further line is one event, in seq order:")
    written = re.findall(r'^\s+"(\w+)":', inspect.getsource(envelope_to_line), re.M)
    assert set(rows) == set(written)


UNIVERSAL = {
    str(kind.__struct_config__.tag): kind
    for kind in vars(types).values()
    if isinstance(kind, type)
    and issubclass(kind, msgspec.Struct)
    and kind.__struct_config__.tag is not None
}


def test_the_universal_events_fields_are_in_declaration_order() -> None:
    rows = audit_table("**Payloads of the universal events.**")
    assert set(rows) == set(UNIVERSAL), "docs/audit.md's universal events and events/types.py"
    for tag, cell in rows.items():
        kind = UNIVERSAL[tag]
        names = kind.__struct_fields__
        defaults = len(names) - len(kind.__struct_defaults__)
        wanted = [f"{name}{'?' if n >= defaults else ''}" for n, name in enumerate(names)]
        said = re.findall(r"`(\w+)`(\??)", re.sub(r"\{[^{}]*\}", "", unbracketed(cell)))
        assert [name + mark for name, mark in said] == wanted, f"`{tag}` in docs/audit.md"


# -- docs/security.md against server/http.py -----------------------------------------------


def test_the_content_security_policy_is_the_one_served() -> None:
    text = " ".join(read("security.md").split())
    said = re.search(r"`Content-Security-Policy: ([^`]+)`", text)
    assert said, "docs/security.md no longer quotes the Content-Security-Policy"
    assert said.group(1) == CONTENT_SECURITY_POLICY
    for name, value in SECURITY_HEADERS[1:]:
        assert f"`{name}: {value}`" in text, f"docs/security.md does not say `{name}: {value}`"


# -- docs/rulesets.md against engine/ruleset.py --------------------------------------------


def test_the_ruleset_table_is_every_field_in_its_order() -> None:
    body = section(read("rulesets.md"), "The Ruleset")
    table = body[: body.index("\n\n", body.index("| field |"))]
    said = [
        name
        for row in table_rows(table)
        if row[0] != "field" and "read-only" not in row[1]  # a property, not a field
        for name in ticked(row[0])
    ]
    assert said == [field.name for field in dataclasses.fields(Ruleset)]


def test_a_module_the_docs_run_can_be_run() -> None:
    # `python -m umpire.server.publish_schemas`, `python -m bench.hostile`, `python -m bench
    # outage`: a module with a main, and a benchmark `python -m bench` takes by name.
    bench_main = (REPO / "bench" / "__main__.py").read_text()
    wrong = []
    for doc in DOC_FILES:
        text = doc.read_text()
        for match in re.finditer(r"python -m ([a-z_][\w.]*)(?: ([a-z_]+))?", text):
            module, word = match.groups()
            if module in {"pytest", "venv", "pip"}:
                continue
            path = REPO / module.removeprefix("umpire.").replace(".", "/")
            runnable = (path / "__main__.py").is_file() or (
                path.with_suffix(".py").is_file()
                and "__main__" in path.with_suffix(".py").read_text()
            )
            if not runnable:
                wrong.append(f"{where(doc.name, text, match.start())}: python -m {module}")
            elif module == "bench" and word and f'"{word}"' not in bench_main:
                wrong.append(f"{where(doc.name, text, match.start())}: python -m bench {word}")
    assert not wrong, "modules the docs run that do not run so:\n" + "\n".join(wrong)


# -- limits the docs state as figures ------------------------------------------------------


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
    }
    assert listed == made, f"missing {sorted(made - listed)}, not made {sorted(listed - made)}"


def test_the_key_layouts_name_every_key_umpire_writes() -> None:
    keys = redis_keys.game_keys("GAME")
    suffixes = {getattr(keys, name).removeprefix("umpire:{GAME}") for name in keys.__annotations__}
    others = {
        redis_keys.games_index_key(),
        redis_keys.receipt_keys_key(),
        redis_keys.revocations_channel(),
    }
    text = read("architecture.md")
    layout = text[text.index("**Redis layout.**") :].split("\n\n", 1)[0]
    for suffix in sorted(suffixes):  # `umpire:{G}:events`, then `:meta`, ...
        said = f"`umpire:{{G}}{suffix}`" in layout or f"`{suffix}`" in layout
        assert said, f"docs/architecture.md's Redis layout does not name `{suffix}`"
    for name in sorted(others):
        said = f"`{name}`" in text or f"`{name.replace('umpire:', '<prefix>:')}`" in text
        assert said, f"docs/architecture.md does not name `{name}`"
    table = section(read("scale-out.md"), "Key layout and slots")
    listed = {ticked(row[0])[0] for row in table_rows(table) if ticked(row[0])}
    wanted = {f"umpire:{{GAME}}{suffix}" for suffix in suffixes} | others
    assert listed == wanted, "docs/scale-out.md's key table and events/redis_keys.py"
