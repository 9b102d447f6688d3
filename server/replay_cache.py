"""Past states for `view` with `at_seq`, from the nearest checkpoint, in small steps.

Folding a game from seq 1 for every scrubber request made one old `view` cost a read of
the whole log: twenty clients asking for seq 6,000 pinned the CPU. Here a gateway keeps
checkpoints of each replayed game every `EVERY` events (built as replays pass them), so
a replay reads and folds at most `EVERY - 1` events once they exist; and a small cache
of answers, so the same question asked again costs one read of one envelope (which
checks that the log still holds the event the answer was made from).

The work is bounded and never holds the event loop for long: events are read and folded
`STEP` at a time with a yield between steps, and only one replay folds at a time (the
others wait their turn, not the loop). Both caches are bounded (least
recently used first out), so memory stays flat under any pattern of requests.

A log that changed under a checkpoint (the store lost acknowledged events and new ones
took their seqs) fails the hash link, and the game's checkpoints are dropped.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from umpire.engine.game import Game, NeedsWholeLog, fold
from umpire.engine.replay import SeqOutOfRange
from umpire.engine.ruleset import Ruleset
from umpire.events.store import EventStore

EVERY = 100  # events between checkpoints
STEP = 25  # events folded between yields to the event loop (~0.5 ms of CPU)
MAX_CHECKPOINTS = 2000  # all games together (a few KB each)
MAX_ANSWERS = 256


class ReplayCache:
    """Checkpoints and answers of past states for one gateway."""

    def __init__(
        self,
        store: EventStore,
        steps: asyncio.Lock | None = None,
        every: int = EVERY,
        max_checkpoints: int = MAX_CHECKPOINTS,
        max_answers: int = MAX_ANSWERS,
    ) -> None:
        self.store = store
        self.every = every
        self.max_checkpoints = max_checkpoints
        self.max_answers = max_answers
        # game id -> {seq: game after that seq}; games in least recently used order
        self.checkpoints: OrderedDict[str, dict[int, Game]] = OrderedDict()
        self.count = 0
        # (game id, seq, role, revealed) -> (hash of event seq, answer)
        self.answers: OrderedDict[tuple[str, int, str, bool], tuple[str, Any]] = OrderedDict()
        self._turn = asyncio.Lock()  # one replay folds at a time
        # Held for each step: shared with the gateway's other heavy work, so the event
        # loop runs at most one heavy step between any two turns of everyone else.
        self.steps = steps or asyncio.Lock()
        self.folded = 0  # events folded (a metric)
        self.hits = 0  # answers served from the cache (a metric)

    def distance(self, game_id: str, at_seq: int, key: tuple[str, int, str, bool]) -> int:
        """How many events a replay to `at_seq` would fold now (0 for a cached answer):
        what admission charges for it."""
        if key in self.answers:
            return 0
        return at_seq - self._nearest_seq(game_id, at_seq)

    def answer(self, key: tuple[str, int, str, bool]) -> tuple[str, Any] | None:
        """A cached answer and the hash of the event it was made after, if any."""
        found = self.answers.get(key)
        if found is not None:
            self.answers.move_to_end(key)
            self.hits += 1
        return found

    def remember(self, key: tuple[str, int, str, bool], event_hash: str, value: Any) -> None:
        """Keep an answer (the least recently used goes first)."""
        self.answers[key] = (event_hash, value)
        self.answers.move_to_end(key)
        while len(self.answers) > self.max_answers:
            self.answers.popitem(last=False)

    def forget(self, game_id: str) -> None:
        """Drop a game's checkpoints and answers (its log changed)."""
        dropped = self.checkpoints.pop(game_id, None)
        self.count -= len(dropped or ())
        for key in [k for k in self.answers if k[0] == game_id]:
            del self.answers[key]

    def _nearest_seq(self, game_id: str, at_seq: int) -> int:
        points = self.checkpoints.get(game_id)
        if not points:
            return 0
        below = at_seq - at_seq % self.every
        while below > 0 and below not in points:
            below -= self.every
        return max(below, 0)

    def _keep(self, game_id: str, game: Game) -> None:
        points = self.checkpoints.setdefault(game_id, {})
        if game.meta.seq not in points:
            points[game.meta.seq] = game
            self.count += 1
        self.checkpoints.move_to_end(game_id)
        while self.count > self.max_checkpoints and self.checkpoints:
            oldest = next(iter(self.checkpoints))
            if oldest == game_id and len(self.checkpoints) == 1:
                # One game alone over the limit: drop its lowest checkpoint.
                low = min(points)
                del points[low]
                self.count -= 1
                continue
            self.count -= len(self.checkpoints.pop(oldest))

    async def game_at(self, game_id: str, ruleset: Ruleset[Any], at_seq: int) -> Game:
        """The folded game after event `at_seq`, from the nearest checkpoint."""
        async with self._turn:
            return await self._fold_to(game_id, ruleset, at_seq)

    async def _fold_to(self, game_id: str, ruleset: Ruleset[Any], at_seq: int) -> Game:
        seq = self._nearest_seq(game_id, at_seq)
        game = self.checkpoints[game_id][seq] if seq else None
        while seq < at_seq:
            # A page of STEP events at a time: decoding a page holds the loop too.
            stop = min(at_seq, seq - seq % self.every + self.every, seq + STEP)
            async with self.steps:
                page = await self.store.read(game_id, seq + 1, stop)
                if len(page) != stop - seq or page[0].seq != seq + 1:
                    raise SeqOutOfRange(
                        f"seq {at_seq} is out of range: game {game_id!r} has fewer events now",
                        game_id=game_id,
                        at_seq=at_seq,
                    )
                if game is not None and page[0].prev_hash != game.meta.last_hash:
                    changed = True  # the log changed under the checkpoint
                else:
                    changed = False
                    try:
                        game = fold(page, game, ruleset)
                    except NeedsWholeLog:  # an amendment returns behind the checkpoint
                        game = fold(await self.store.read(game_id, 1, stop), None, ruleset)
            if changed:
                self.forget(game_id)
                return await self._fold_to(game_id, ruleset, at_seq)
            self.folded += len(page)
            await asyncio.sleep(0)  # let every other client's message through
            assert game is not None
            seq = stop
            if seq % self.every == 0:
                self._keep(game_id, game)
        assert game is not None
        return game
