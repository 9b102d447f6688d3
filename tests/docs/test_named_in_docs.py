"""What any doc names exists (docs/benchmarks.md, a record of runs, aside): a path of the
repository, a test it cites, a name it places in a module, a dotted name of the package,
a module it runs with `python -m`."""

from __future__ import annotations

import re
from collections.abc import Iterator

from tests.support.doc_text import DOC_FILES, ROOTS, where
from tests.support.project_modules import REPO

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
