"""A session's credentials (server/session.py): `auth`, `revoke`, the roles a connection's
credentials grant, and its place in the gateway's table of credential holders. No I/O:
the store's answers are asked of the driver (server/requests.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from umpire.engine.roles import Role
from umpire.events.wire import (
    Authenticated,
    Error,
    Revoke,
    Revoked,
    encoder,
)
from umpire.server import credentials
from umpire.server.admission import TooManyGrants
from umpire.server.credentials import Unauthorized
from umpire.server.requests import (
    CredentialHeld,
    DropGrant,
    RevokeCredential,
    Steps,
    VerifyCredential,
)
from umpire.server.subscription import Sink, Subscription

if TYPE_CHECKING:
    # Types only: the session imports this module, and imports no pydantic at run time.
    from umpire.server.config import Settings
    from umpire.server.session import Shared


class Grants:
    """The session's grants: which role each game's credential gave this connection."""

    # The slot set here (`_auth`); the session's others are its own (server/session.py).
    __slots__ = ("operator",)

    operator: bool  # the operator token was presented

    # What is read of the session (server/session.py `Session`).
    gw: Shared
    settings: Settings
    holder: Sink
    roles: dict[str, Role]
    grants: dict[str, str]
    revoked_games: dict[str, None]

    if TYPE_CHECKING:  # the session's own (server/session.py) and Subscriptions'

        def _reply(self, message: Any) -> None: ...
        def mistake(self, code: str, detail: str) -> None: ...
        def unsubscribe(self, game_id: str) -> Subscription | None: ...

    def _auth(self, credential: str, request_id: str | None, reply: bool = True) -> Steps[None]:
        if credentials.is_operator(credential, self.settings.operator_token):
            self.operator = True
            if reply:
                self._reply(Authenticated(game_id="", role="operator", id=request_id))
            return
        game_id, role = yield VerifyCredential(credential)  # one lookup
        self._grant(game_id, role, credentials.fingerprint(credential)[1])
        if reply:
            self._reply(Authenticated(game_id=game_id, role=role.value, id=request_id))

    def _present(self, game_id: str, credential: str, request_id: str | None) -> Steps[None]:
        """`_auth` for a request about `game_id` that carries a credential (a subscribe):
        one for another game is refused before it is granted, so the refused request leaves
        the connection's grants as they were."""
        if credentials.is_operator(credential, self.settings.operator_token):
            yield from self._auth(credential, request_id, reply=False)
            return
        role = yield from self._verified_for(game_id, credential)
        self._grant(game_id, role, credentials.fingerprint(credential)[1])

    def _verified_for(self, game_id: str, credential: str) -> Steps[Role]:
        """The role `credential` gives in `game_id`, granted nothing yet; Unauthorized if
        it is another game's."""
        verified: tuple[str, Role] = yield VerifyCredential(credential)
        granted, role = verified
        if granted != game_id:
            raise Unauthorized(
                f"the credential sent is for game {granted!r}, not {game_id!r}",
                game_id=game_id,
            )
        return role

    def _player_grant(
        self, game_id: str, credential: str | None, request_id: str | None, what: str
    ) -> Steps[str]:
        """The digest of this connection's player credential for `game_id` (presenting
        `credential` first if given); Unauthorized for any other role, naming `what`."""
        if credential:
            # Checked before it is granted: a refused command changes nothing, so a
            # spectator's credential (or one for another game) sent with a player's
            # command leaves the connection's grants as they were.
            yield from self._present_player(game_id, credential, what)
        return self._player_digest(game_id, what)

    def _player_digest(self, game_id: str, what: str) -> str:
        """`_player_grant` of a message that presents no credential (no request: a plain
        call, not a generator, for the commands of a connection that authenticated once)."""
        role = self._role(game_id)
        if role is not Role.PLAYER:
            raise Unauthorized(
                f"a {role.value} may not {what} game {game_id!r}; only the player credential may",
                game_id=game_id,
                role=role.value,
            )
        return self.grants[game_id]

    def _present_player(self, game_id: str, credential: str, what: str) -> Steps[None]:
        """Grant `credential` if it is the player's of `game_id`; Unauthorized otherwise,
        with the connection's grants untouched."""
        if credentials.is_operator(credential, self.settings.operator_token):
            raise Unauthorized(
                f"the operator token may not {what} game {game_id!r}; only the player "
                "credential may",
                game_id=game_id,
                role=Role.REFEREE.value,
            )
        role = yield from self._verified_for(game_id, credential)
        if role is not Role.PLAYER:
            raise Unauthorized(
                f"a {role.value} may not {what} game {game_id!r}; only the player credential may",
                game_id=game_id,
                role=role.value,
            )
        self._grant(game_id, role, credentials.fingerprint(credential)[1])

    def _check_grant_room(self, game_id: str | None) -> None:
        """Refuse a new grant past `max_grants_per_connection` (a held game is no new one)."""
        limit = self.settings.max_grants_per_connection
        if game_id not in self.grants and len(self.grants) >= limit:
            self.mistake("too_many_grants", f"{len(self.grants)} grants")
            raise TooManyGrants(
                f"this connection holds credentials for {limit} games already, the most "
                "it may: use another connection (UMPIRE_MAX_GRANTS_PER_CONNECTION)",
                limit=limit,
            )

    def _grant(self, game_id: str, role: Role, digest: str) -> None:
        if (game_id, digest) in self.gw.revoked:  # revoked while it was being verified
            raise Unauthorized(f"the credential for game {game_id!r} was revoked", game_id=game_id)
        self._check_grant_room(game_id)
        self._forget_grant(game_id)
        self.revoked_games.pop(game_id, None)
        self.roles[game_id] = role
        self.grants[game_id] = digest
        self.gw.holders.setdefault((game_id, digest), set()).add(self.holder)

    def _forget_grant(self, game_id: str) -> None:
        self.roles.pop(game_id, None)
        digest = self.grants.pop(game_id, None)
        if digest is None:
            return
        holders = self.gw.holders.get((game_id, digest))
        if holders is not None:
            holders.discard(self.holder)
            if not holders:
                del self.gw.holders[(game_id, digest)]

    def forget_grants(self) -> None:
        """Leave the gateway's table of credential holders (the connection closed)."""
        for game_id in list(self.grants):
            self._forget_grant(game_id)

    def detach(self) -> None:
        """The connection has ended: let go of it. It holds this session and the session
        names it as the holder, so each keeps the other alive; broken here, both are freed
        when the handler returns instead of at the next full collection, which the
        gateway's collector makes rare (server/collector.py). Call it after `forget_grants`
        (the holder leaves the gateway's tables first); nothing is received after."""
        del self.holder

    def lose_game_now(self, game_id: str) -> Subscription | None:
        """The credential for `game_id` was revoked: drop its role and its subscription at
        once, so the next message is refused and no further event is queued; the
        subscription dropped, for the connection to stop and finish (`Unfollow`)."""
        self._forget_grant(game_id)
        self.revoked_games[game_id] = None
        return self.unsubscribe(game_id)

    def revoked_notice(self, game_id: str, dropped: bool) -> bytes:
        """The unsolicited `credential_revoked` frame (`dropped`: a subscription was)."""
        return encoder.encode(
            Error(
                code="credential_revoked",
                message=f"the credential for game {game_id!r} was revoked"
                + ("; the subscription was dropped" if dropped else ""),
                details={"game_id": game_id, "subscription_dropped": dropped},
            )
        )

    def _still_valid(self, game_id: str) -> Steps[None]:
        """Refuse a command whose credential was revoked since it was presented."""
        digest = self.grants.get(game_id)
        if digest is None:
            return  # operator (referee) access holds no game credential
        if not (yield CredentialHeld(game_id, digest)):
            yield DropGrant(game_id, digest)
            raise Unauthorized(f"the credential for game {game_id!r} was revoked", game_id=game_id)

    def _revoke(self, msg: Revoke) -> Steps[None]:
        if not self.operator:
            raise Unauthorized("only the operator may revoke credentials: auth with its token")
        game_id, digest = credentials.fingerprint(msg.credential)
        holding = len(self.gw.holders.get((game_id, digest), ()))
        # Every holder here has lost the game when the answer comes.
        existed = yield RevokeCredential(msg.credential, game_id, digest)
        self._reply(Revoked(game_id=game_id, existed=existed, dropped=holding, id=msg.id))

    def _role(self, game_id: str) -> Role:
        role = self.roles.get(game_id)
        if role is not None:
            return role
        if self.operator:
            return Role.REFEREE
        if game_id in self.revoked_games:
            raise Unauthorized(f"the credential for game {game_id!r} was revoked", game_id=game_id)
        raise Unauthorized(
            f"no credential for game {game_id!r} on this connection: send 'auth' first",
            game_id=game_id,
        )
