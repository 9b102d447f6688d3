"""The command path of a session (server/session.py): `create`, `command` and `bind_seed`,
and the `created` and `accepted` replies with their receipts. No I/O: the writes are
asked of the driver (server/requests.py `CreateGame`, `Handle`, `BindClientSeed`)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from umpire.engine import registry
from umpire.engine.roles import Role
from umpire.events.errors import UmpireError
from umpire.events.receipt_signature import (
    BatchSignature,
    ReceiptSigner,
    Statement,
    receipt_statement,
)
from umpire.events.wire import (
    Accepted,
    BindSeed,
    Create,
    Created,
    DisputeFiledReply,
    FileDispute,
    Ruled,
    RuleDispute,
    SendCommand,
)
from umpire.server import credentials
from umpire.server.admission import (
    FREE_WORK_SECONDS,
    Bucket,
    dispute_check_cost,
    remake_cost,
    work_cost,
)
from umpire.server.credentials import Unauthorized
from umpire.server.game_records import CommandResult
from umpire.server.requests import (
    BindClientSeed,
    CachedGame,
    CreateGame,
    Dispute,
    DropGrant,
    GameSigner,
    Handle,
    IssueCredentials,
    ReadVersion,
    Rule,
    SignReceipt,
    Steps,
    Wait,
)
from umpire.server.work_meter import WorkMeter

if TYPE_CHECKING:
    # Types only: the session imports this module.
    from umpire.server.session import Shared

# A client's second dispute waits for its first in steps of this (a finding takes from a
# few ms to seconds of a long game's rules).
DISPUTE_WAIT = 0.05
# The credentials slot of a re-sent create: each re-send withdraws the previous one's.
RESENT_CREATE_SLOT = "resent-create"


def game_id_for_create(create_id: str) -> str:
    """The game id a client's create_id stands for: the same create_id always names the
    same game, and the game id (public) does not give the create_id (a secret) away."""
    return "g" + hashlib.sha256(b"umpire-create:" + create_id.encode()).hexdigest()[:16]


class Commands:
    """The session's messages that write to a game's log, and their replies."""

    __slots__ = ()

    # What is read of the session (server/session.py `Session`).
    gw: Shared
    address: str
    budget: Bucket
    grants: dict[str, str]
    now: float

    if TYPE_CHECKING:  # the session's own (server/session.py) and Grants' (server/grants.py)

        def _reply(self, message: Any) -> None: ...
        def admit(self, kind: str, cost: int) -> None: ...
        def _check_grant_room(self, game_id: str | None) -> None: ...
        def _grant(self, game_id: str, role: Role, digest: str) -> None: ...
        def _player_grant(
            self, game_id: str, credential: str | None, request_id: str | None, what: str
        ) -> Steps[str]: ...
        def _player_digest(self, game_id: str, what: str) -> str: ...
        def _role(self, game_id: str) -> Role: ...
        def _still_valid(self, game_id: str) -> Steps[None]: ...

    def _create(self, msg: Create) -> Steps[None]:
        # A create_id names the game, so a re-sent create finds the game it made before
        # (the log's command-id check makes the second append a duplicate). A re-sent
        # create's answer has new credentials (the server keeps only digests, so it cannot
        # send the first ones again) in place of the previous re-send's: the first answer's
        # may be in use and stay, and a game holds at most two pairs from its creates.
        game_id = game_id_for_create(msg.create_id) if msg.create_id else None
        self._check_grant_room(game_id)
        scenario = msg.scenario
        if not msg.setup and scenario is None:
            # No setup at all: the ruleset's default scenario, as `umpire new RULESET` starts.
            scenario = registry.get(msg.ruleset).default_scenario or None
        created = yield CreateGame(
            msg.ruleset,
            msg.setup,
            client_seed=msg.client_seed,  # refused: it must follow the commitment
            client_entropy=msg.client_entropy,
            game_id=game_id,
            scenario=scenario,
            opponent_manual_dice=msg.opponent_manual_dice,
            referee=msg.referee,
        )
        resent = RESENT_CREATE_SLOT if created.duplicate else None
        player, spectator = yield IssueCredentials(created.game_id, resent)
        self._grant(created.game_id, Role.PLAYER, credentials.fingerprint(player)[1])
        self.gw.metrics.games_created += not created.duplicate
        # The receipt of the creation (docs/audit.md 8.1), as every accepted reply has one.
        head_seq, head_hash, state_hash = yield from self._receipt(created.game_id, Role.PLAYER)
        signer = yield from self._signer(created.game_id)
        statement = receipt_statement(
            signer, created.game_id, "created", Role.PLAYER.value, [1], head_seq, head_hash,
            state_hash,
        )  # fmt: skip
        signed = yield from self._sign(signer, statement)
        self._reply(
            Created(
                game_id=created.game_id,
                ruleset=created.ruleset,
                player_credential=player,
                spectator_credential=spectator,
                seed_commitment=created.seed_commitment,
                client_seed=created.client_seed,
                id=msg.id,
                client_entropy=created.client_entropy.value,
                head_seq=head_seq,
                head_hash=head_hash,
                state_hash=state_hash,
                key_id=signer.key_id if signer and signed else "",
                signature=signed.signature if signed else "",
                receipt_key=signer.public_key if signer and signed else "",
                leaf_index=signed.leaf_index if signed else 0,
                tree_size=signed.tree_size if signed else 0,
                proof=signed.proof if signed else [],
                blind=signed.blind if signed else "",
            )
        )

    def _command(self, msg: SendCommand) -> Steps[None]:
        # A credential revoked since it was presented is refused by the append itself.
        if msg.credential:
            digest = yield from self._player_grant(
                msg.game_id, msg.credential, msg.id, "send commands to"
            )
        else:
            digest = self._player_digest(msg.game_id, "send commands to")
        role = Role.PLAYER
        started = self.now
        meter = WorkMeter()
        try:
            result = yield Handle(
                msg.game_id,
                msg.command_id,
                msg.command,
                manual_dice=msg.dice,
                expected_seq=msg.expected_seq,
                role=role,
                digest=digest,
                meter=meter,
                nonce=msg.nonce,
            )
        except Unauthorized:
            yield DropGrant(msg.game_id, digest)
            raise
        finally:
            # The rules' work, accepted or refused, is the sender's (server/admission.py):
            # none is charged up to FREE_WORK_SECONDS (`work_cost` 0), asked here.
            if meter.seconds > FREE_WORK_SECONDS:
                self.gw.admission.charge_work(
                    self.budget, self.address, "command_work", work_cost(meter.seconds), self.now
                )
        self.gw.metrics.observe_command(self.now - started, appended=not result.duplicate)
        signed, statement = result.signed, result.receipt
        if signed is not None and statement is not None:
            # Its receipt signed early, the one `_accepted` would state (server/driver.py
            # `_early_signature` checked the head and the key): no request more.
            reply = _accepted_reply(
                msg.game_id, msg.command_id, result.seqs, result.duplicate, msg.id,
                statement.head_seq, statement.head_hash, statement.state_hash,
                statement.key_id, signed,
            )  # fmt: skip
            self._reply(reply)
            return
        yield from self._accepted(msg.game_id, msg.command_id, result, msg.id, role)

    def _accepted(
        self,
        game_id: str,
        command_id: str,
        result: CommandResult,
        request_id: str | None,
        role: Role,
    ) -> Steps[None]:
        """Answer `accepted` with the receipt of the game's head (docs/audit.md 8.1)."""
        # `_receipt`, `_signer` and `_sign`, inline: each request of a command resumes
        # every generator between the driver and its `yield`, and these three come on
        # every command (the same requests and answers as there).
        try:
            ruleset, game = yield CachedGame(game_id)
        except UmpireError:
            head_seq, head_hash, state_hash = 0, "", ""  # as `_receipt`
        else:
            head_seq, head_hash = game.meta.seq, game.meta.last_hash
            state_hash = self.gw.view_digests.state_hash(ruleset, game, role)
        try:
            signer: ReceiptSigner | None = yield GameSigner(game_id)
        except UmpireError:
            signer = None  # as `_signer`
        seqs = result.seqs  # a new list at each call
        statement = receipt_statement(
            signer, game_id, "accepted", str(role), seqs, head_seq, head_hash, state_hash
        )
        signed: BatchSignature | None = None
        if signer is not None and statement is not None:
            signed = yield SignReceipt(signer, statement)
        reply = _accepted_reply(
            game_id, command_id, seqs, result.duplicate, request_id,
            head_seq, head_hash, state_hash, signer.key_id if signer and signed else "",
            signed,
        )  # fmt: skip
        self._reply(reply)

    def _signer(self, game_id: str) -> Steps[ReceiptSigner | None]:
        """The game's receipt signer; None if the store went away (the command is written:
        its reply goes unsigned rather than as an error) or holds no key for the game."""
        try:
            signer: ReceiptSigner | None = yield GameSigner(game_id)
        except UmpireError:
            return None
        return signer

    def _sign(
        self, signer: ReceiptSigner | None, statement: Statement | None
    ) -> Steps[BatchSignature | None]:
        """A receipt's signature, its leaf index, tree size and proof: the driver signs the
        receipts of one loop turn as one tree (docs/audit.md 8.4). None without a signer
        or a receipt (the reply goes unsigned)."""
        if signer is None or statement is None:
            return None
        signed: BatchSignature = yield SignReceipt(signer, statement)
        return signed

    def _receipt(self, game_id: str, role: Role) -> Steps[tuple[int, str, str]]:
        """The receipt of a reply: the game's head and the state hash of `role`'s view
        there. Taken from the cached game (no round trip on the command path); only a game
        the cache let go of is loaded, and without a store there is no receipt (0, "")."""
        try:
            ruleset, game = yield CachedGame(game_id)
        except UmpireError:
            # The command is written: a store that went away since must not turn its
            # success into an error. The reply goes without a receipt (`view` has one).
            return 0, "", ""
        # The role's view is encoded again only if the state changed (server/view_digests.py).
        state_hash = self.gw.view_digests.state_hash(ruleset, game, role)
        return game.meta.seq, game.meta.last_hash, state_hash

    def _dispute(self, msg: FileDispute) -> Steps[None]:
        """A rules dispute by this connection's role (docs/audit.md "Disputes")."""
        role = self._role(msg.game_id)
        # Writes to the log: a revocation this gateway missed is refused here, as a command
        # is by the append's own credential check.
        yield from self._still_valid(msg.game_id)
        # Its finding re-makes the game's rest twice: as played, and under the claim.
        filed = yield from self._remaking(
            "dispute",
            msg.game_id,
            lambda meter: Dispute(msg.game_id, role, msg.seq, msg.claim, msg.reading,
                                  msg.value, self.grants.get(msg.game_id, ""), meter),
            lambda head: 2 * max(0, head - msg.seq + 1),
        )  # fmt: skip
        finding = None if filed.finding is None else msgspec.to_builtins(filed.finding)
        self._reply(
            DisputeFiledReply(
                game_id=msg.game_id,
                dispute=filed.id,
                seq=msg.seq,
                pending=filed.finding is None,
                finding=finding,
                id=msg.id,
            )
        )

    def _rule(self, msg: RuleDispute) -> Steps[None]:
        """A ruling on a found dispute, by a role that may rule."""
        role = self._role(msg.game_id)
        yield from self._still_valid(msg.game_id)  # as a dispute's
        # An amending ruling re-makes the line (its disputed seq is not known here: its
        # events counted as from the log's first, twice: the blind check and the line).
        seq = yield from self._remaking(
            "rule",
            msg.game_id,
            lambda meter: Rule(msg.game_id, role, msg.dispute, msg.ruling,
                               self.grants.get(msg.game_id, ""), meter),
            lambda head: 2 * head,
        )  # fmt: skip
        ruled = Ruled(game_id=msg.game_id, dispute=msg.dispute, ruling=msg.ruling, seq=seq)
        self._reply(msgspec.structs.replace(ruled, id=msg.id))

    def _remaking(
        self,
        kind: str,
        game_id: str,
        request: Callable[[WorkMeter], Dispute | Rule],
        lines: Callable[[int], int],
    ) -> Steps[Any]:
        """A dispute or ruling (`kind`), the answer to `request`: charged the log it reads
        and checks before the work, so that a client in debt is refused and nothing is
        written, and all a refused one costs. The lines it re-makes (`lines(head)` events)
        are charged once made, into debt, by those events or the CPU they took where that
        is more: a dispute of an early seq of a long game re-runs the rules of every later
        command twice, and its sender waits that work out before its next message is read.
        One at a time a client: marked in flight before any other step, so that no other
        connection of the client passes the wait meanwhile."""
        yield from self._one_dispute_at_a_time()
        self.gw.admission.disputing.add(self.address)
        meter = WorkMeter()
        head = 0
        try:
            head = yield ReadVersion(game_id)
            self.admit(kind, dispute_check_cost(head))
            return (yield request(meter))
        finally:
            self.gw.admission.disputing.discard(self.address)
            if meter.seconds:  # lines were re-made (a refusal before them re-makes nothing)
                self._charge_work(kind, remake_cost(lines(head), meter.seconds))

    def _one_dispute_at_a_time(self) -> Steps[None]:
        """Wait while another dispute or ruling of this client is in flight (on any of
        its connections): its re-make's work is charged once made, and this one is then
        admitted only if the client's budget can pay. On main (operator 10) each of a
        client's connections had one admitted at once on a full bucket, so a client with
        many connections set that many re-makes of a long game going together."""
        while self.address in self.gw.admission.disputing and not self.gw.draining:
            self.gw.admission.paced["dispute"] += 1
            yield Wait(DISPUTE_WAIT)

    def _charge_work(self, kind: str, cost: int) -> None:
        """Charge work already done to this connection and its client, into debt if need
        be (server/admission.py `Admission.charge_work`)."""
        self.gw.admission.charge_work(self.budget, self.address, kind, cost, self.now)

    def _bind_seed(self, msg: BindSeed) -> Steps[None]:
        """The player's seed for the current seed epoch (docs/audit.md (4.1))."""
        digest = yield from self._player_grant(
            msg.game_id, msg.credential, msg.id, "bind a client seed for"
        )
        role = Role.PLAYER
        try:
            result = yield BindClientSeed(msg.game_id, msg.client_seed, role, digest)
        except Unauthorized:
            yield DropGrant(msg.game_id, digest)
            raise
        # The receipt of a command's reply (docs/audit.md "Receipts"): a client that keeps
        # receipts can check the binding later, as it checks its commands.
        yield from self._accepted(msg.game_id, result.command_id, result, msg.id, role)


def _accepted_reply(
    game_id: str,
    command_id: str,
    seqs: list[int],
    duplicate: bool,
    request_id: str | None,
    head_seq: int,
    head_hash: str,
    state_hash: str,
    key_id: str,
    signed: BatchSignature | None,
) -> Accepted:
    """An `accepted` with its receipt of the head (docs/audit.md 8.1, 8.4): signed, or
    with the signature's fields empty when the command's reply goes unsigned."""
    return Accepted(
        game_id=game_id,
        command_id=command_id,
        seqs=seqs,
        duplicate=duplicate,
        id=request_id,
        head_seq=head_seq,
        head_hash=head_hash,
        state_hash=state_hash,
        key_id=key_id,
        signature=signed.signature if signed else "",
        leaf_index=signed.leaf_index if signed else 0,
        tree_size=signed.tree_size if signed else 0,
        proof=signed.proof if signed else [],
        blind=signed.blind if signed else "",
    )
