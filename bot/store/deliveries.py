"""What the channels have been told (``store.deliveries``): the versions posted (a game's
``announced`` and the ``posted`` versions beyond a gap), the outbox's tables, each game's
live turn message, and the end notice of a game ended with /game end until it is told."""

from __future__ import annotations

from typing import NamedTuple

from bot.records import GameRow
from bot.store.engine import Repository
from bot.store.rows import GAMES, game_row


class TurnMessage(NamedTuple):
    """The channel message that tells of a game's turn under way, and the first version
    it tells of."""

    message_id: int
    since: int


class Deliveries(Repository):
    """``games.announced``, ``posted``, ``turn_messages`` and ``games.end_note``."""

    async def unannounced(self) -> list[GameRow]:
        """Tables whose latest state version has not been announced yet, or whose end
        (/game end) has not been told (the outbox)."""
        rows = await self.seam.rows(
            f"{GAMES} WHERE (announced < version AND status IN ('playing', 'over', 'ended')) "
            "OR end_note IS NOT NULL ORDER BY id")
        return [game_row(row) for row in rows]

    def mark_delivered(self, game_id: int, version: int) -> None:
        """The game's ``version`` was posted (that version alone: one before it may be on
        its way still, or lost with a process that stopped); ``announced`` moves up over
        every version posted without a gap. Written in batches (``engine.Marks``): a crash in
        between means a reply is posted twice after the restart, never that one is lost."""
        self.seam.marks.deliver(game_id, version)

    async def posted(self, game_id: int) -> set[int]:
        """The game's versions posted beyond ``announced`` (one before them was not, yet)."""
        rows = await self.seam.rows(
            "SELECT p.version FROM posted p JOIN games g ON g.id = p.game_id "
            "WHERE p.game_id = ? AND p.version > g.announced", (game_id,))
        return {r[0] for r in rows}

    async def turn_message(self, game_id: int) -> TurnMessage | None:
        """The game's live turn message in its channel; None before the first is posted."""
        rows = await self.seam.rows(
            "SELECT message_id, since FROM turn_messages WHERE game_id = ?", (game_id,))
        return TurnMessage(*rows[0]) if rows else None

    async def set_turn_message(self, game_id: int, message_id: int, since: int) -> None:
        """A new turn message tells of the game's turn from version ``since`` on."""
        await self.seam.write(
            "INSERT INTO turn_messages (game_id, message_id, since) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id, "
            "since = excluded.since", (game_id, message_id, since))

    async def end_note(self, game_id: int) -> str | None:
        """The end notice of a game ended with /game end, until its channel is told."""
        rows = await self.seam.rows("SELECT end_note FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None

    async def told_end(self, game_id: int) -> None:
        await self.seam.write("UPDATE games SET end_note = NULL WHERE id = ?", (game_id,))
