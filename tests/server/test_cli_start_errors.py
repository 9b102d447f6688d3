"""A careless operator's start-up mistakes: each is one clear line on stderr and a non-zero
exit status, never a traceback, and leaves no Valkey running (the README's `umpire serve`
and store commands, run as real processes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.embedded_site import cli, environment, run_cli, valkey_pids
from tests.support.serving import Serve
from umpire.server.app import exposure_warning
from umpire.server.config import SettingsError, from_env
from umpire.server.embedded import free_port


def _one_clear_line(code: int, err: str, expected_code: int) -> str:
    assert code == expected_code, err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("command", [("games",), ("serve", "--port", "0")])
@pytest.mark.parametrize("where", ["file", "under_file"])
def test_a_data_dir_that_is_a_file_is_one_clear_line(
    tmp_path: Path, command: tuple[str, ...], where: str
) -> None:
    # Fails without the fix: FileExistsError / NotADirectoryError traceback, exit 1.
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file, not a directory")
    data_dir = blocker if where == "file" else blocker / "data"
    code, _, err = run_cli(data_dir, *command, COLUMNS="400")
    line = _one_clear_line(code, err, 2)
    assert "error (data_dir)" in line and str(data_dir) in line, line
    assert "--data-dir or UMPIRE_DATA_DIR" in line, line


def test_a_data_dir_this_user_cannot_create_is_one_clear_line(tmp_path: Path) -> None:
    # /proc refuses every mkdir, even root's (whom file modes would not stop).
    code, _, err = run_cli(Path("/proc/umpire-data"), "games", COLUMNS="400")
    line = _one_clear_line(code, err, 2)
    assert "cannot be used (no such file or directory)" in line, line


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_host_that_does_not_resolve_is_one_clear_line(tmp_path: Path, workers: str) -> None:
    # Fails without the fix: socket.gaierror traceback, exit 1.
    data_dir = tmp_path / "data"
    code, _, err = run_cli(
        data_dir, "serve", "--host", "256.1.1.1", "--port", str(free_port()),
        UMPIRE_WORKERS=workers,
    )  # fmt: skip
    line = _one_clear_line(code, err, 1)
    assert line.startswith("umpire: cannot listen on 256.1.1.1:"), line
    assert "UMPIRE_HOST or --host" in line, line
    assert valkey_pids(data_dir) == []


def test_a_redis_url_of_no_redis_scheme_is_refused_at_start(tmp_path: Path) -> None:
    # Fails without the fix: every worker died with redis-py's ValueError traceback and
    # was restarted forever. The message must not repeat the URL: it may hold a password.
    code, _, err = run_cli(
        tmp_path / "data", "serve", "--port", str(free_port()),
        REDIS_URL="http://admin:hunter2hunter2@db.example/0", COLUMNS="400", timeout=30,
    )  # fmt: skip
    line = _one_clear_line(code, err, 2)
    assert "REDIS_URL: must start with redis://, rediss:// or unix://" in line, line
    assert "hunter2" not in err and "db.example" not in err


@pytest.mark.parametrize("url", ["redis://h:6379/0", "rediss://u:p@h/0", "unix:///tmp/v.sock"])
def test_redis_urls_of_every_scheme_redis_py_reads_are_accepted(url: str) -> None:
    assert from_env({"REDIS_URL": url}).redis_url == url


def test_a_redis_url_without_scheme_names_the_schemes() -> None:
    with pytest.raises(SettingsError, match="REDIS_URL: must start with redis://"):
        from_env({"REDIS_URL": "127.0.0.1:6379"})


@pytest.mark.parametrize("command", [("games",), ("serve", "--port", "0")])
def test_a_store_port_is_refused_with_where_to_connect(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    # The embedded Valkey has no TCP port (docs/security.md, attack (a)): a setting from
    # before that fixed one is refused in one line naming the socket, never ignored.
    data_dir = tmp_path / "data"
    code, _, err = run_cli(data_dir, *command, UMPIRE_STORE_PORT=str(free_port()), COLUMNS="400")
    line = _one_clear_line(code, err, 2)
    assert line.startswith("error (settings): invalid settings: UMPIRE_STORE_PORT:"), line
    assert "valkey-cli -s <data dir>/redis/valkey.sock" in line, line
    assert valkey_pids(data_dir) == []


def test_a_bad_option_is_named_as_typed_and_a_bad_variable_as_set() -> None:
    # Fails on the previous commit: `serve --port 99999` was reported as UMPIRE_PORT.
    with pytest.raises(SettingsError, match=r"invalid settings: --port: Input should be less"):
        from_env({}, port=99999)
    with pytest.raises(SettingsError, match=r"invalid settings: UMPIRE_PORT: Input should be"):
        from_env({"UMPIRE_PORT": "99999"})
    with pytest.raises(SettingsError, match=r"--data-dir: Input is not a valid path"):
        from_env({}, data_dir=3.5)


def test_a_relative_data_dir_works(tmp_path: Path) -> None:
    # Fails on the previous commit: Valkey changed into its --dir, then found no
    # "rel/redis/valkey.log" from there and exited; every command failed (a traceback
    # before the store_start_failed line).
    process = subprocess.run(
        [sys.executable, "-m", "umpire.server.cli", "--data-dir", "rel", "new", "counter",
         "--json"],
        cwd=tmp_path, env=environment(tmp_path / "unused"), capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert process.returncode == 0, process.stderr
    assert json.loads(process.stdout)["game_id"]
    assert (tmp_path / "rel" / "store.secret").exists()
    assert valkey_pids(tmp_path / "rel") == []


def test_a_data_dir_with_a_quoted_tilde_is_the_home_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert from_env({"UMPIRE_DATA_DIR": "~/games"}).data_dir == tmp_path / "games"


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a directory away")
def test_a_data_dir_owned_by_another_user_is_refused(tmp_path: Path) -> None:
    # Fails on the previous commit: root tightened nobody's directory to 0700 and used it,
    # while nobody, its owner, could still swap redis.url or valkey.conf inside it.
    data_dir = tmp_path / "theirs"
    data_dir.mkdir()
    os.chown(data_dir, 65534, 65534)
    data_dir.chmod(0o777)
    code, _, err = run_cli(data_dir, "games", COLUMNS="400")
    line = _one_clear_line(code, err, 2)
    assert f"{data_dir} belongs to another user (uid 65534)" in line, line
    assert list(data_dir.iterdir()) == []  # nothing written into it


def test_a_second_serve_on_the_port_of_a_serve_with_workers_is_one_clear_line(
    tmp_path: Path,
) -> None:
    # Fails without the fix: the second `umpire serve` bound the port with SO_REUSEPORT
    # beside the first one's workers and served, the kernel handing each server part of
    # the other's clients (their credentials unknown there, their games made in the wrong
    # store). It must refuse to start, as a second single-process serve already did.
    first = Serve(tmp_path / "first")
    second = None
    try:
        second = cli(
            tmp_path / "second", "serve", "--workers", "2", "--port", str(first.port),
            UMPIRE_WORKERS="", COLUMNS="400",
        )  # fmt: skip
        try:
            _, err = second.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"a second umpire serve started on port {first.port}")
        line = _one_clear_line(second.returncode, err, 1)
        assert line.startswith(f"umpire: cannot listen on 127.0.0.1:{first.port}"), line
        assert "is another umpire serving there? Set UMPIRE_PORT or --port" in line, line
        assert valkey_pids(tmp_path / "second") == []
    finally:
        if second is not None and second.poll() is None:
            second.terminate()
            second.communicate(timeout=30)
        first.stop()


@pytest.mark.parametrize("host", ["0.0.0.0", "127.0.0.1"])
def test_serving_beyond_this_machine_warns_that_it_is_plain_http(tmp_path: Path, host: str) -> None:
    # Fails without the fix: `UMPIRE_HOST=0.0.0.0` served plain HTTP to the network with no
    # word said, credentials and moves unencrypted.
    served = Serve(tmp_path / "data", UMPIRE_HOST=host)
    try:
        served.worker_pids()  # the banner is out, and any warning before it
        warned = "beyond this machine, over plain HTTP" in served.output()
    finally:
        out = served.stop()
    assert warned is (host == "0.0.0.0"), out
    if warned:
        assert "terminate TLS at a reverse proxy" in out, out


def test_only_a_loopback_listen_address_goes_without_the_warning() -> None:
    for host in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost", "a.localhost"):
        assert exposure_warning(host) is None, host
    for host in ("0.0.0.0", "::", "192.168.1.5", "example.org"):
        assert f"listening on {host}, beyond this machine" in (exposure_warning(host) or "")
