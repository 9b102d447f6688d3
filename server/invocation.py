"""Running the `umpire` subcommand that server/cli.py parsed: settings from the environment,
the extra rulesets, the event loop, and every expected failure as one line and an exit code.

Imported only once the arguments are parsed, so `umpire --help` and a usage error never pay
for pydantic (the settings) or rich (the error line).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import Callable
from typing import Any

from umpire.engine import registry
from umpire.events.errors import GameNotFound, UmpireError
from umpire.events.terminal_text import shown, terminal
from umpire.server.config import Settings, SettingsError, from_env
from umpire.server.public_address import running_gateway, websocket_address

err_console = terminal(stderr=True)


def load_extra_rulesets(settings: Settings) -> None:
    """Register rulesets named in UMPIRE_EXTRA_RULESETS (module:ATTR)."""
    for spec in settings.extra_rulesets:
        registry.load_module(spec)


def gateway_url(settings: Settings) -> str:
    """The websocket address of this installation's gateway, for a client command: the
    running `umpire serve`'s of this data directory (its --host and --port included,
    server/public_address.py), else UMPIRE_HOST:UMPIRE_PORT's."""
    running = running_gateway(settings.data_dir)
    if running is not None:
        return websocket_address(running)
    return f"ws://{settings.host}:{settings.port}/ws"


def run(args: argparse.Namespace, handler: Callable[..., Any], *, client: bool) -> int:
    """Run `handler`: a store command's with (settings, args), a client command's
    (server/cli.py `Subcommand`) with (args, the gateway's URL). Its exit code; an
    UmpireError or a bad setting is one red line on stderr and exit code 2."""
    try:
        overrides: dict[str, Any] = {"data_dir": args.data_dir}
        if args.cmd == "serve":
            overrides.update(host=args.host, port=args.port, workers=args.workers)
        settings = from_env(**overrides)
        load_extra_rulesets(settings)
        result = handler(args, gateway_url(settings)) if client else handler(settings, args)
        if asyncio.iscoroutine(result):
            result = asyncio.run(result)
        return int(result)
    except (UmpireError, SettingsError) as exc:
        code = getattr(exc, "code", "settings")
        # A plain UmpireError's code is "error" itself: "error (error): ..." says nothing.
        kind = "" if code == UmpireError.code else f" ({code})"
        said = str(exc)
        if code == GameNotFound.code and not client:
            # A newcomer's usual cause: a mistyped id, or another store (data directory,
            # REDIS_URL, prefix) than the one that made the game.
            said += "; umpire games lists the games of this store"
        err_console.print(f"[red]error[/]{kind}: {shown(said)}")
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`umpire log --json | head`): stop quietly, as tools killed
        # by SIGPIPE do, and keep the interpreter's final flush from raising again.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
