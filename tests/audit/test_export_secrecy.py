"""`umpire export` as another local user would attack it, and as a newcomer reads it: an
operator export holds the secret seed, so its file is the owner's alone; a refusal after a
mid-game reveal says which seed is still secret."""

from __future__ import annotations

import os
import pwd
import stat
from pathlib import Path

from umpire.testing.support.forgery import Cli, counter_game, ended_counter_game, read_lines


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _says(err: str, text: str) -> bool:
    """Whether stderr holds `text`: rich wraps it at the terminal width, within a long
    path too, so spaces are not compared."""
    return text.replace(" ", "") in err.replace(" ", "")


def test_an_operator_export_file_is_readable_by_its_owner_alone(cli: Cli) -> None:
    # Fails on the previous commit: written with the umask's 0644, the seed readable by
    # every local user until the game's reveal.
    game = counter_game(cli, reveal=False)
    path = cli.export(game, "--operator")
    assert len(read_lines(path)[0]["operator_secret"]) == 64
    assert _mode(path) == 0o600


def test_an_operator_export_over_a_readable_file_tightens_it_first(cli: Cli) -> None:
    game = counter_game(cli, reveal=False)
    path = cli.tmp / "existing.jsonl"
    path.write_text("an older, public export\n")
    path.chmod(0o644)
    result = cli("export", game, "--operator", "-o", str(path))
    assert result.code == 0, result.err
    assert _mode(path) == 0o600
    assert read_lines(path)[0]["operator_secret"]
    assert "readable by you alone" in result.err


def test_a_revealed_export_keeps_the_users_umask(cli: Cli) -> None:
    # It holds no secret: meant to be shared and audited by anyone.
    path = cli.export(ended_counter_game(cli))
    assert read_lines(path)[0]["operator_secret"] is None
    assert _mode(path) & 0o044


def test_after_a_mid_game_reveal_the_refusal_names_the_next_seed(cli: Cli) -> None:
    # The previous text said the game "has not revealed its seed, and its log holds rolls
    # hidden from the player" of a game just revealed with no roll since: false twice.
    # A game without hidden rolls or secrets (a sealed one is refused until its end: issue
    # #30 item 4, tests/audit/test_hidden_dice_sealed.py).
    game = cli.new("counter", {"target": 40})
    for command in ({"type": "Push"}, {"type": "Add", "amount": 3}, {"type": "Push"}):
        cli.send(game, command)  # seqs 2-9
    assert cli("reveal", game).code == 0  # seq 10, the game goes on under a new seed
    assert cli.export(game).exists()  # straight after the reveal: every roll is public
    cli.send(game, {"type": "Add", "amount": 1})  # no die rolled
    refused = cli("export", game)
    assert refused.code == 2, refused.err
    text = " ".join(refused.err.split())
    assert "has not revealed the seed committed by its reveal at seq 10" in text, text
    assert "the export must follow the reveal" in text, text
    assert "log holds rolls" not in text


def test_an_operator_export_to_stdout_warns_that_it_holds_the_secret(cli: Cli) -> None:
    # Fails on the previous commit: nothing said so, and `> file` takes the umask.
    game = counter_game(cli, reveal=False)
    result = cli("export", game, "--operator")
    assert result.code == 0, result.err
    assert '"operator_secret":' in result.out.splitlines()[0]
    assert "holds the game's secret seed" in result.err and "-o FILE" in result.err
    public = cli("export", ended_counter_game(cli))
    assert public.code == 0 and "secret" not in public.err


# `-o FILE` as another local user would plant it (server/output_files.py): this machine
# runs with fs.protected_symlinks=0, so a symlink in /tmp redirects the owner's write.


def test_an_export_through_a_planted_symlink_is_refused_and_writes_nothing(cli: Cli) -> None:
    # Fails on the previous commit: the export was written through the link, over the
    # file it points at (here the victim's own file; a new file for a dangling link).
    game = ended_counter_game(cli)
    victim = cli.tmp / "profile"
    victim.write_text("the user's own file\n")
    planted = cli.tmp / "planted.jsonl"
    planted.symlink_to(victim)
    dangling = cli.tmp / "dangling.jsonl"
    dangling.symlink_to(cli.tmp / "created-through-the-link")
    for link in (planted, dangling):
        for extra in ((), ("--operator",)):
            refused = cli("export", game, "-o", str(link), *extra)
            assert refused.code == 2, refused.err
            assert _says(refused.err, f"{link} is not written: it is a symbolic link")
            assert "Traceback" not in refused.err
    assert victim.read_text() == "the user's own file\n"
    assert not (cli.tmp / "created-through-the-link").exists()
    assert planted.is_symlink() and dangling.is_symlink()


def test_an_export_over_another_users_file_is_refused_and_writes_nothing(cli: Cli) -> None:
    # Fails on the previous commit: the file of another account (run as root here, as
    # in a container) was filled with the export, for its owner to read.
    game = counter_game(cli, reveal=False)
    theirs = cli.tmp / "theirs.jsonl"
    theirs.write_text("placed by another user\n")
    nobody = pwd.getpwnam("nobody")
    os.chown(theirs, nobody.pw_uid, nobody.pw_gid)
    theirs.chmod(0o666)
    refused = cli("export", game, "--operator", "-o", str(theirs))
    assert refused.code == 2, refused.err
    said = f"{theirs} is not written: it belongs to another user (uid {nobody.pw_uid})"
    assert _says(refused.err, said), refused.err
    assert theirs.read_text() == "placed by another user\n" and _mode(theirs) == 0o666


def test_an_export_over_a_hard_link_is_refused_and_writes_nothing(cli: Cli) -> None:
    # Where fs.protected_hardlinks=0 another user may link one of the owner's files into
    # a directory of theirs: writing through that name rewrites the owner's file.
    game = ended_counter_game(cli)
    victim = cli.tmp / "profile"
    victim.write_text("the user's own file\n")
    linked = cli.tmp / "linked.jsonl"
    os.link(victim, linked)
    refused = cli("export", game, "-o", str(linked))
    assert refused.code == 2, refused.err
    assert _says(refused.err, f"{linked} is not written: it has 2 hard links"), refused.err
    assert victim.read_text() == "the user's own file\n"


def test_an_export_over_the_users_own_plain_file_replaces_it(cli: Cli) -> None:
    # Today's behaviour for a plain existing file, kept: overwritten whole, mode kept.
    game = ended_counter_game(cli)
    path = cli.tmp / "mine.jsonl"
    path.write_text("x" * 100_000)
    path.chmod(0o640)
    assert cli("export", game, "-o", str(path)).code == 0
    assert read_lines(path)[0]["game_id"] == game and "x" * 10 not in path.read_text()
    assert _mode(path) == 0o640


def test_an_export_through_another_users_symlink_on_the_way_is_refused(cli: Cli) -> None:
    # Fails on the previous commit: only the final component was opened without following
    # a link, so a folder on the way that another account made a link into the owner's
    # own folder took the write there, over the owner's file of that name.
    game = ended_counter_game(cli)
    home = cli.tmp / "home"
    home.mkdir()
    victim = home / "game.jsonl"
    victim.write_text("the user's own file\n")
    planted = cli.tmp / "exports"
    planted.symlink_to(home)
    nobody = pwd.getpwnam("nobody")
    os.lchown(planted, nobody.pw_uid, nobody.pw_gid)
    for given in (planted / "game.jsonl", planted / "." / "new.jsonl"):
        refused = cli("export", game, "-o", str(given))
        assert refused.code == 2, refused.err
        said = f"{given} is not written: 'exports' on its way is a symbolic link of another"
        assert _says(refused.err, said), refused.err
    assert victim.read_text() == "the user's own file\n"
    assert sorted(p.name for p in home.iterdir()) == ["game.jsonl"]


def test_an_export_through_the_users_own_symlinks_on_the_way_is_written(cli: Cli) -> None:
    # The owner's own links (and root's) on the way are followed as before, relative and
    # absolute, with `..` among them.
    game = ended_counter_game(cli)
    real = cli.tmp / "real" / "deeper"
    real.mkdir(parents=True)
    (cli.tmp / "relative").symlink_to("real/deeper/..")
    (cli.tmp / "absolute").symlink_to(real)
    for given in (cli.tmp / "relative" / "deeper" / "a.jsonl", cli.tmp / "absolute" / "b.jsonl"):
        written = cli("export", game, "-o", str(given))
        assert written.code == 0, written.err
    assert read_lines(real / "a.jsonl")[0]["game_id"] == game
    assert read_lines(real / "b.jsonl")[0]["game_id"] == game
    assert cli("export", game, "-o", str(cli.tmp) + "/").code == 2
