"""Another local account cannot choose a client's nonces or swap its receipts (red team,
2026-11-29). The Python client and `umpire play` keep their receipts and `nonce.key` in a
folder (clients/receipts.py `ReceiptFiles`; `umpire play` in `<UMPIRE_DATA_DIR>/receipts`).
Before, that folder was used as found: an account that made it first (a data directory
under /tmp) planted its own `nonce.key`, and the client derived every nonce from it, so
that account computed each command's nonce before it was sent; and a symlink it put in
place of a game's receipts file made the client append its receipts to a file of the
account's choosing (here the owner's own private file). Now the folder's path is checked
component by component, made or tightened 0700, and its files opened without following
a symlink and only if they are the owner's (events/private_folder.py)."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.local_user import LocalUser, other_user
from tests.support.processes import REPO, start_gateway
from umpire.clients import UmpireClient
from umpire.clients.receipts import ReceiptFiles, commitment
from umpire.events.nonce_key import KEY_FILE, load_nonce_key
from umpire.events.private_folder import UnsafeComponent
from umpire.events.receipt import Anchor
from umpire.server.embedded import EmbeddedRedis

PLANTED = bytes(31) + b"\xbb"  # the other account's key: it can derive every nonce from it
GAME = "g0123456789abcdef"


@pytest.fixture
def stranger() -> Iterator[LocalUser]:
    with other_user() as user:
        yield user


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A private file of ours."""
    path = tmp_path / "owner-private.txt"
    path.write_text("the owner's own file\n")
    path.chmod(0o600)
    return path


@pytest.fixture
def shared(stranger: LocalUser, victim: Path) -> Iterator[Path]:
    """/tmp/umpire-shared-… made first by the other account, open to everyone (as it would
    make it to be used), with `receipts/` inside holding its key and a symlink named for a
    game's receipts file pointing at a private file of ours."""
    folder = Path(f"/tmp/umpire-shared-{secrets.token_hex(6)}")

    def plant() -> int:
        os.umask(0)
        (folder / "receipts").mkdir(mode=0o777, parents=True)
        (folder / "receipts" / KEY_FILE).write_text(PLANTED.hex() + "\n")
        (folder / "receipts" / f"{GAME}.jsonl").symlink_to(victim)
        return 0

    assert stranger.run(plant) == 0
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def _anchor() -> Anchor:
    return commitment(0, "00" * 32)


def test_a_receipts_folder_another_account_made_is_refused(shared: Path, victim: Path) -> None:
    receipts = ReceiptFiles(shared / "receipts")
    # Before: the planted key came back, and the receipt went into the owner's file.
    with pytest.raises(UnsafeComponent, match=r"belongs to another user \(uid \d+\)") as info:
        receipts.nonce_key()
    assert info.value.code == "unsafe_path" and str(shared) in info.value.message
    with pytest.raises(UnsafeComponent):
        receipts.keep(GAME, _anchor())
    assert victim.read_text() == "the owner's own file\n"


def test_a_planted_key_or_symlink_in_an_own_folder_is_never_used(
    shared: Path, victim: Path, tmp_path: Path
) -> None:
    """A folder of our own into which the other account put a key and a symlink while it
    was open to it (an older client made it 0777, say): neither is used, each is named."""
    mine = tmp_path / "receipts"
    mine.mkdir(mode=0o700)
    planted = shared / "receipts"
    os.link(planted / KEY_FILE, mine / KEY_FILE)  # the other account's file, in our folder
    (mine / f"{GAME}.jsonl").symlink_to(victim)
    with pytest.raises(UnsafeComponent, match="belongs to another user"):
        load_nonce_key(mine)
    with pytest.raises(UnsafeComponent, match="is a symbolic link"):
        ReceiptFiles(mine).keep(GAME, _anchor())
    assert victim.read_text() == "the owner's own file\n"


async def test_umpire_play_in_another_accounts_data_dir_sends_nothing(
    redis_server: EmbeddedRedis, prefix: str, shared: Path
) -> None:
    """The real session: `umpire play` with UMPIRE_DATA_DIR in the other account's folder
    refuses in one line naming it, exit 2, before any command is sent; before, the command
    was accepted with the nonce the planted key gives."""
    gateway, port = start_gateway(redis_server.url, prefix)
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        async with UmpireClient(url) as owner:
            created = await owner.create("counter", {"target": 1000})
            game = created.game_id
            before = (await owner.view(game)).seq
            play = subprocess.run(
                [sys.executable, "-m", "umpire.server.cli", "play", "--url", url],
                input='{"type": "Push"}\n', capture_output=True, text=True, timeout=60,
                cwd=REPO, env={
                    **os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "400",
                    "UMPIRE_EXTRA_RULESETS": "umpire_counter:RULESET",
                    "UMPIRE_CREDENTIAL": created.player_credential,
                    "UMPIRE_DATA_DIR": str(shared),
                },
            )  # fmt: skip
            assert play.returncode == 2, (play.stdout, play.stderr)
            lines = [line for line in play.stderr.splitlines() if line.strip()]
            assert len(lines) == 1 and "Traceback" not in play.stderr, play.stderr
            assert "unsafe_path" in lines[0] and str(shared) in lines[0], lines[0]
            assert (await owner.view(game)).seq == before, "a command was sent"
    finally:
        gateway.terminate()
        gateway.wait(20)
