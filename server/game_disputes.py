"""Rules disputes on a store (issue 40; docs/audit.md "Disputes"): file one, find it at once
or when the game reveals what it rests on, list them.

The pure part is engine/disputes.py: which seq may be disputed, under which reading, and
the finding re-made from the log. Here the log is read, the dispute checked (a refusal
writes nothing), and `DisputeFiled` then `DisputeFound` appended as system batches of their
own, each with the expected version, so that a concurrent command costs a retry, never an
interleaved batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from msgspec import Struct

from umpire.engine.disputes import (
    AMEND,
    SEAL_COMMAND_ID,
    Dispute,
    RulingRefused,
    amendment,
    amendment_is_blind,
    check_dispute,
    check_ruling,
    check_seal,
    codec_decoded,
    dispute_command_id,
    disputes_of,
    find,
    finding_command_id,
    ruling_command_id,
)
from umpire.engine.game import Game, ruleset_of
from umpire.engine.replay import log_finally_revealed
from umpire.engine.roles import Role
from umpire.engine.ruleset import Ruleset
from umpire.events.envelope import Envelope, check_game_id
from umpire.events.errors import GameNotFound, UmpireError, VersionConflict
from umpire.events.store import AppendResult, Credential, Store
from umpire.events.types import DisputeFiled, DisputeFound, DisputeRuled, ExportSealed
from umpire.server.work_meter import WorkMeter

ATTEMPTS = 20  # appends retried on a concurrent writer before giving up

T = TypeVar("T")


def _metered(meter: WorkMeter | None, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`work(*args, **kwargs)` in the thread it is called in, its CPU seconds added to
    `meter`: a dispute's re-made lines are charged what they took (server/admission.py
    `remake_cost`), as a command's rules are."""
    started = time.thread_time()
    try:
        return work(*args, **kwargs)
    finally:
        if meter is not None:
            meter.seconds += time.thread_time() - started


class Filed(Struct, frozen=True, kw_only=True):
    """A dispute filed: its id (the seq of its DisputeFiled) and its finding, None while
    it is pending reveal."""

    id: int
    finding: DisputeFound | None = None


class GameDisputes:
    """Disputes over the store of `Games` (server/games.py), which supplies these."""

    __slots__ = ()

    store: Store  # set by Games.__init__
    remaking: asyncio.Lock  # set by Games.__init__: one re-make at a time

    if TYPE_CHECKING:  # Games' own (server/games.py) and GameCache's (server/game_cache.py)

        async def _append(
            self,
            ruleset: Ruleset[Any],
            game: Game,
            events: list[Struct],
            command_id: str,
            credential: Credential | None = None,
        ) -> AppendResult: ...
        async def load(self, game_id: str) -> tuple[Ruleset[Any], Game]: ...
        def _forget(self, game_id: str) -> None: ...

    async def _log(self, game_id: str) -> tuple[Ruleset[Any], list[Envelope], list[Struct]]:
        check_game_id(game_id)
        envelopes = await self.store.read(game_id)
        if not envelopes:
            raise GameNotFound(f"no game {game_id!r}", game_id=game_id)
        ruleset = ruleset_of(envelopes[0])
        return ruleset, envelopes, codec_decoded(ruleset, envelopes)

    async def _append_at(
        self,
        game_id: str,
        head: int,
        event: Struct | list[Struct],
        command_id: str,
        credential: Credential | None = None,
    ) -> AppendResult:
        """Append one system batch (one event, or an amending ruling's events) to a game
        whose log ends at `head` (VersionConflict if it no longer does); with `credential`
        the append itself refuses it if that credential was revoked (Unauthorized)."""
        ruleset, game = await self.load(game_id)
        if game.meta.seq != head:
            self._forget(game_id)
            ruleset, game = await self.load(game_id)
            if game.meta.seq != head:
                raise VersionConflict(
                    f"game {game_id!r} moved on", expected=head, actual=game.meta.seq
                )
        events = event if isinstance(event, list) else [event]
        return await self._append(ruleset, game, events, command_id, credential)

    async def dispute(
        self,
        game_id: str,
        *,
        role: Role,
        seq: int,
        claim: str,
        reading: str = "",
        value: str = "",
        credential: Credential | None = None,
        meter: WorkMeter | None = None,
    ) -> Filed:
        """File a dispute of event `seq` by `role` (DisputeRefused and the like, nothing
        written, when it may not be), then its finding if it can be made now. With
        `credential` (the disputer's), the filing is refused if it was revoked; the finding,
        the server's answer to a dispute filed, is not. `meter` is given the CPU seconds
        the finding's re-made lines took (none for a refused dispute)."""
        for _ in range(ATTEMPTS):
            ruleset, envelopes, decoded = await self._log(game_id)
            _, value = check_dispute(
                ruleset, decoded, who=role, seq=seq, claim=claim, reading=reading, value=value
            )
            filed = DisputeFiled(who=role.value, seq=seq, claim=claim, reading=reading,
                                 value=value, waits_on_secrets=role is Role.SPECTATOR,
                                 blind=True)  # fmt: skip
            head = len(envelopes)
            try:
                appended = await self._append_at(
                    game_id, head, filed, dispute_command_id(head + 1), credential
                )
            except VersionConflict:
                self._forget(game_id)
                continue
            if appended.duplicate:
                # Another dispute, read at the same head, took this seq first: its id is
                # ours (ids are by seq), and the store answered its batch. Read again. On
                # main (operator 10) this one was answered as filed, under the other's id,
                # and never written.
                self._forget(game_id)
                continue
            break
        else:
            raise VersionConflict(f"game {game_id!r} is busy: retry", expected=-1, actual=-1)
        found = await self._find(game_id, ruleset, [*envelopes], [*decoded, filed], head + 1, meter)
        return Filed(id=head + 1, finding=found)

    async def _find(
        self,
        game_id: str,
        ruleset: Ruleset[Any],
        envelopes: Sequence[Envelope],
        decoded: Sequence[Struct],
        dispute: int,
        meter: WorkMeter | None = None,
    ) -> DisputeFound | None:
        """Append the finding on `dispute` if it can be made now (None: pending reveal);
        its re-making's CPU seconds added to `meter`."""
        filed = decoded[dispute - 1]
        assert isinstance(filed, DisputeFiled)
        revealed = log_finally_revealed(envelopes)
        # Re-making a game's rest twice is the rules' work: off the event loop, as commands,
        # and one at a time (`remaking`): a long game's takes seconds of a thread.
        async with self.remaking:
            finding = await asyncio.to_thread(
                _metered, meter, find, ruleset, envelopes, decoded, dispute, filed,
                revealed=revealed,
            )  # fmt: skip
        if finding is None:
            return None
        for _ in range(ATTEMPTS):
            _, now, now_decoded = await self._log(game_id)
            if any(d.id == dispute and d.finding is not None for d in disputes_of(now_decoded)):
                return next(d.finding for d in disputes_of(now_decoded) if d.id == dispute)
            try:
                await self._append_at(game_id, len(now), finding, finding_command_id(dispute))
            except VersionConflict:
                self._forget(game_id)
                continue
            return finding
        return None  # still pending: the next reveal or dispute finds it

    async def find_pending(self, game_id: str) -> list[DisputeFound]:
        """Find every dispute held pending reveal that the log now lets be found."""
        ruleset, envelopes, decoded = await self._log(game_id)
        if not log_finally_revealed(envelopes):
            return []
        found = []
        for dispute in disputes_of(decoded):
            if dispute.finding is None:
                made = await self._find(game_id, ruleset, envelopes, decoded, dispute.id)
                if made is not None:
                    found.append(made)
        return found

    async def find_pending_quietly(self, game_id: str) -> None:
        """`find_pending` after a command that ended the game: the command is appended
        already, so a failure here must not turn it into an error (the next dispute or
        `umpire disputes` finds them)."""
        with contextlib.suppress(UmpireError):
            await self.find_pending(game_id)

    async def rule(
        self,
        game_id: str,
        *,
        role: Role,
        dispute: int,
        ruling: str,
        credential: Credential | None = None,
        meter: WorkMeter | None = None,
    ) -> int:
        """Rule on a found dispute (RulingRefused or MayNotRule, nothing written, when the
        ruling may not be made); the seq of the DisputeRuled appended. With `credential`
        (the ruler's), refused if it was revoked. `meter` is given the CPU seconds an
        amending ruling's re-made line took."""
        for _ in range(ATTEMPTS):
            ruleset, envelopes, decoded = await self._log(game_id)
            found = check_ruling(ruleset, decoded, dispute=dispute, ruling=ruling, role=role)
            event = DisputeRuled(dispute=dispute, ruling=ruling, by=role.value)
            batch: list[Struct] = [event]
            if ruling == AMEND:
                # The game's rest re-made under the reading: the rules' work, off the loop,
                # one at a time as a finding's, and metered. Before the final reveal the
                # amended line may rest on nothing hidden, as a blind finding (engine/
                # disputes.py `amendment_is_blind`): that check is a re-make too.
                async with self.remaking:
                    if not log_finally_revealed(envelopes) and not await asyncio.to_thread(
                        _metered, meter, amendment_is_blind, ruleset, envelopes, decoded, found
                    ):
                        raise RulingRefused(
                            f"dispute {dispute} may not be amended before the game's final "
                            "reveal: the line from the disputed decision on (the commands "
                            "played since it among them), re-applied under the reading, reads "
                            "a secret of the game, so the amended line would show what the "
                            "secret gives under the reading; uphold closes the dispute",
                            dispute=dispute,
                        )
                    made = await asyncio.to_thread(
                        _metered, meter, amendment, ruleset, envelopes, decoded, found
                    )
                batch.extend(made)
            head = len(envelopes)
            try:
                appended = await self._append_at(
                    game_id, head, batch, ruling_command_id(dispute), credential
                )
            except VersionConflict:
                self._forget(game_id)
                continue
            if appended.duplicate:
                # Another ruling on this dispute came first: read again, and `check_ruling`
                # says it is ruled (on main this one was answered as made).
                self._forget(game_id)
                continue
            return head + 1
        raise VersionConflict(f"game {game_id!r} is busy: retry", expected=-1, actual=-1)

    async def seal(self, game_id: str) -> int:
        """Seal an ended game's log (SealRefused, ExportIsSealed: nothing written): after
        `ExportSealed` nothing may follow. The seq it was appended at."""
        # A spectator's open dispute stays open in the sealed log: answered first, where it
        # still waits on its finding, as nothing may follow the seal.
        await self.find_pending_quietly(game_id)
        for _ in range(ATTEMPTS):
            _, envelopes, decoded = await self._log(game_id)
            check_seal(decoded)
            head = len(envelopes)
            try:
                await self._append_at(game_id, head, ExportSealed(head=head), SEAL_COMMAND_ID)
            except VersionConflict:
                self._forget(game_id)
                continue
            return head + 1
        raise VersionConflict(f"game {game_id!r} is busy: retry", expected=-1, actual=-1)

    async def disputes(self, game_id: str) -> tuple[Ruleset[Any], list[Dispute]]:
        """Every dispute of a game, with its finding if made."""
        ruleset, _, decoded = await self._log(game_id)
        return ruleset, disputes_of(decoded)
