"""bench/mypyc_build.py: which hot modules a mypyc build may compile, and where it may build
(the build itself, with a C compiler, is tests/bench/test_mypyc_build_compiled.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import mypyc_build
from bench.mypyc_build import CLASS_KEYWORDS, LEFT_OUT, BuildRefused, modules, unfit


def test_every_module_left_out_by_name_is_a_hot_module_of_the_checkout() -> None:
    hot = {f for name in ("engine", "events", "server") for f in _globbed(name)}
    assert set(LEFT_OUT) <= hot


def test_a_module_that_declares_a_struct_with_class_keywords_is_never_compiled() -> None:
    # mypyc drops `frozen=True, tag=...` silently (python/mypy#21938): the compiled event
    # would be mutable and untagged, and its bytes and hash another's.
    assert unfit("engine/rulesets/downtown/events.py") == CLASS_KEYWORDS
    assert "engine/rulesets/downtown/events.py" not in modules("all")


def test_a_set_compiles_only_modules_fit_for_it() -> None:
    chosen = modules("all")
    assert chosen, "no module of the hot path compiles"
    assert all(unfit(f) is None for f in chosen)
    assert "events/append_batch.py" in chosen  # the path's largest share of own Python
    assert modules("none") == []


def test_an_unknown_set_is_refused_naming_the_sets() -> None:
    with pytest.raises(BuildRefused, match="unknown set 'fast': the sets are none, engine"):
        modules("fast")


def test_it_never_builds_into_the_checkout(tmp_path: Path) -> None:
    inside = mypyc_build.REPO / "build-mypyc"
    with pytest.raises(BuildRefused, match="inside the checkout"):
        mypyc_build.copy_tree(inside)
    assert not inside.exists()


def test_it_never_builds_over_a_folder_that_holds_anything(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("kept")
    with pytest.raises(BuildRefused, match="is not empty"):
        mypyc_build.copy_tree(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


def test_the_copy_has_the_installed_layout(tmp_path: Path) -> None:
    root = mypyc_build.copy_tree(tmp_path / "tree")
    assert (root / "umpire" / "__init__.py").exists()
    assert (root / "umpire" / "engine" / "rulesets" / "downtown" / "decide.py").exists()
    assert not list(root.rglob("__pycache__"))


def _globbed(name: str) -> list[str]:
    return [
        str(p.relative_to(mypyc_build.REPO))
        for pattern in mypyc_build.HOT[name]
        for p in mypyc_build.REPO.glob(pattern)
    ]


def test_the_command_refuses_a_keep_folder_in_the_checkout_before_building(
    capsys: pytest.CaptureFixture[str],
) -> None:
    inside = mypyc_build.REPO / "build-mypyc"
    assert mypyc_build.main(["--sets", "all", "--keep", str(inside), "--build-only"]) == 2
    assert "inside the checkout" in capsys.readouterr().err
    assert not inside.exists()
