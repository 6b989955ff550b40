"""A table's seats (``store.seats``): who sits where, taken before the start, freed, and
handed on in play. (A seat's time bank is written with the table's settings and its
waits: ``store.tables.set_settings``, ``store.jobs.set_waits``.)"""

from __future__ import annotations

from bot.records import SeatRow
from bot.store import schema
from bot.store.engine import Repository, Session
from bot.store.errors import SeatTaken

SEATS = f"{schema.SEATS.select(SeatRow)} FROM seats WHERE game_id = ? ORDER BY seat"


class Seats(Repository):
    """``seats``."""

    async def of(self, game_id: int) -> list[SeatRow]:
        """The game's seats, in order."""
        return [SeatRow(*r) for r in await self.seam.rows(SEATS, (game_id,))]

    async def add(self, game_id: int, seat: int, user_id: int | None, name: str,
                  kind: str, level: str | None = None) -> None:
        """Take a seat at an open table; ``SeatTaken`` if the user or the seat is taken."""
        try:
            await self.seam.write(
                "INSERT INTO seats (game_id, seat, user_id, name, kind, level) "
                "VALUES (?, ?, ?, ?, ?, ?)", (game_id, seat, user_id, name, kind, level))
        except self.seam.engine.integrity as error:
            raise SeatTaken(str(error)) from error

    async def remove(self, game_id: int, seat: int) -> None:
        """Free a seat before the start; later seats move up so seats stay 0..n-1."""

        async def remove(session: Session) -> None:
            await session.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?",
                                  (game_id, seat))
            # Two steps so the primary key never sees two rows with one seat number.
            await session.execute("UPDATE seats SET seat = -seat WHERE game_id = ? "
                                  "AND seat > ?", (game_id, seat))
            await session.execute("UPDATE seats SET seat = -seat - 1 WHERE game_id = ? "
                                  "AND seat < 0", (game_id,))

        await self.seam.run(remove, transaction=True)

    async def hand(self, game_id: int, seat: SeatRow) -> None:
        """A seat of a running game changes hands (resigned, or replaced): the row as given."""
        try:
            await self.seam.write(
                "UPDATE seats SET user_id = ?, name = ?, kind = ?, level = ?, handed = ?, "
                "former = ? WHERE game_id = ? AND seat = ?",
                (seat.user_id, seat.name, seat.kind, seat.level, seat.handed, seat.former,
                 game_id, seat.seat))
        except self.seam.engine.integrity as error:
            raise SeatTaken(str(error)) from error
