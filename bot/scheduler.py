"""Time at the table: when a turn runs out, when to remind, and the one loop that does it.

Games last days. Each awaited human seat has a row in the database (``waits``: since when
it waits, how many reminders it has had, and ``due``, the next moment something is due for
it). The pure functions here say when that is; ``Scheduler`` is the bot's one loop that
sleeps until the earliest ``due`` (read through an index, never a scan), has the service
do what is due (``TableService.tend``: a stand-in's move, or a reminder to send) and hands
the result to the desk. Everything it knows lives in the database, so a restart loses
nothing: a wait whose moment passed while the bot was down is simply due at once.

Rules of time (see ``bot/README.md``):

- A turn's clock runs only while the awaited player is neither in their quiet hours nor
  away (``/me quiet``, ``/me away``), so nobody loses a turn asleep or on holiday. Quiet
  hours are at most 12 a day, time away at most 21 days a year.
- Reminders by DM at 50%, 80% and 95% of the turn time, or, without one, a day after the
  wait began and daily after that (three at most); never in quiet hours or away, never two
  within ``REMINDER_GAP`` for one player (over all their tables).

The clock is injectable: the service and the loop read ``now()`` (seconds since the epoch);
in the bot that is ``discord.utils.utcnow()``, which SimCord's ``env.advance_time`` drives.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.records import PlayerRow, WaitRow

if TYPE_CHECKING:
    from bot.desk import Desk
    from bot.service import TableService

log = logging.getLogger("boardroom.scheduler")

MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0
FRACTIONS = (0.5, 0.8, 0.95)  # of a turn time, when the three reminders go
REMINDERS = 3  # at most, per wait
REMINDER_GAP = 3 * HOUR  # one player gets at most one reminder in this time
MENTION_GAP = DAY  # a player whose DMs are closed is mentioned at most once a day
QUIET_CAP = 12  # hours of quiet a day, at most
AWAY_CAP = 21  # days away a year, at most
YEAR = 365 * DAY
BATCH = 100  # waits tended per read of the database
RETRY = 10 * MINUTE  # a wait whose tending failed is tried again this much later
MAX_SLEEP = DAY  # the loop reads the database at least this often anyway
BACKOFF = 60.0  # after the database refused the loop's read
# In a bot run as several processes the loop also sweeps the outbox this often, for replies
# another process wrote and never posted (it stopped in between); a reply counts as lost
# SWEEP_GRACE seconds after its move. (One process alone has nothing to sweep: its failed
# posts are retried by the desk, and a restart posts what a crash left.)
SWEEP_EVERY = 30.0
SWEEP_GRACE = 30.0


# --------------------------------------------------------------------------- quiet and away


def _zone(name: str | None) -> ZoneInfo | None:
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def check_timezone(name: str) -> ZoneInfo:
    """The zone an IANA name names; ``ValueError`` with a sentence otherwise."""
    zone = _zone(name.strip())
    if zone is None:
        raise ValueError(f"'{name[:40]}' is not a time zone I know; write an IANA name such "
                         "as Europe/Paris, America/New_York or UTC.")
    return zone


def quiet_length(start: int, end: int) -> int:
    """Hours from ``start`` to ``end`` o'clock (over midnight when ``end`` <= ``start``)."""
    return (end - start) % 24


def _pauses(t: float, player: PlayerRow) -> list[tuple[float, float]]:
    """The player's pauses around ``t`` (quiet hours of the days about it, and absences),
    as (start, end) moments, sorted."""
    out = [(a, b) for a, b in player.absences if b > t - DAY]
    zone = _zone(player.timezone)
    if (zone is not None and player.quiet_from is not None and player.quiet_to is not None
            and quiet_length(player.quiet_from, player.quiet_to)):
        today = datetime.fromtimestamp(t, zone).date()
        hours = quiet_length(player.quiet_from, player.quiet_to)
        for shift in (-1, 0, 1, 2):
            day = today + timedelta(days=shift)
            start = _local(day, player.quiet_from, zone)
            out.append((start, start + hours * HOUR))
    return sorted(out)


def _local(day: date, hour: int, zone: ZoneInfo) -> float:
    return datetime(day.year, day.month, day.day, hour, tzinfo=zone).timestamp()


def paused_until(t: float, player: PlayerRow) -> float | None:
    """If ``t`` falls in the player's quiet hours or time away, the moment that ends."""
    end = None
    for _ in range(100):  # pauses that touch chain on
        inside = [b for a, b in _pauses(t if end is None else end, player)
                  if a <= (t if end is None else end) < b]
        if not inside:
            return end
        end = max(inside)
    return end


def unpaused(t: float, player: PlayerRow) -> float:
    """``t``, or the end of the quiet hours or time away it falls in."""
    return paused_until(t, player) or t


def clock_after(since: float, seconds: float, player: PlayerRow) -> float:
    """The moment a turn clock started at ``since`` has run ``seconds``: it stops during
    the player's quiet hours and time away."""
    t, left = since, seconds
    for _ in range(10_000):
        t = unpaused(t, player)
        starts = [a for a, _ in _pauses(t, player) if a > t]
        pause = min(starts, default=math.inf)
        step = min(pause, t + DAY) - t  # at most a day: the pauses are looked up again
        if left <= step:
            return t + left
        left -= step
        t += step
    return t + left


# --------------------------------------------------------------------------- what is due


def deadline(wait: WaitRow, turn_time: float | None, player: PlayerRow) -> float | None:
    """When the seat's turn runs out (None: the table has no turn time)."""
    return None if turn_time is None else clock_after(wait.since, turn_time, player)


def reminder_at(wait: WaitRow, turn_time: float | None, reminders: bool,
                player: PlayerRow) -> float | None:
    """When the wait's next reminder is due (None: no more reminders)."""
    if not reminders or wait.reminded >= REMINDERS:
        return None
    if turn_time is not None:
        at = clock_after(wait.since, turn_time * FRACTIONS[wait.reminded], player)
    else:
        at = wait.since + (wait.reminded + 1) * DAY
    if player.reminded is not None:
        at = max(at, player.reminded + REMINDER_GAP)
    at = unpaused(at, player)
    end = deadline(wait, turn_time, player)
    return None if end is not None and at >= end else at


def next_due(wait: WaitRow, turn_time: float | None, reminders: bool,
             player: PlayerRow) -> float | None:
    """The next moment something is due for a wait: a reminder or the end of the turn."""
    moments = [m for m in (deadline(wait, turn_time, player),
                           reminder_at(wait, turn_time, reminders, player)) if m is not None]
    return min(moments, default=None)


def away_days_left(player: PlayerRow, now: float) -> float:
    """Days of time away the player may still take in the year up to ``now``."""
    used = sum(max(0.0, b - max(a, now - YEAR)) for a, b in player.absences) / DAY
    return max(0.0, AWAY_CAP - used)


def parse_duration(text: str) -> float | None:
    """A turn time as typed: 'off' (None), or minutes, hours or days ('90m', '12h', '2d').
    ``ValueError`` with a sentence for anything else, or for a time under 10 minutes or
    over 30 days."""
    typed = text.strip().lower().replace(" ", "")
    if typed in ("off", "none", "no"):
        return None
    units = {"m": MINUTE, "min": MINUTE, "h": HOUR, "d": DAY}
    number = typed.rstrip("mindh")
    unit = typed[len(number):]
    if number.isdigit() and len(number) <= 5 and unit in units:
        seconds = int(number) * units[unit]
        if 10 * MINUTE <= seconds <= 30 * DAY:
            return seconds
        raise ValueError("A turn time must be between 10 minutes and 30 days (or off).")
    raise ValueError(f"'{text[:24]}' is not a turn time; write off, or minutes, hours or days "
                     "such as 90m, 12h or 2d.")


def duration(seconds: float) -> str:
    """'2d', '12h', '90m': a turn time as players type it."""
    for unit, size in (("d", DAY), ("h", HOUR)):
        if seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{int(seconds // MINUTE)}m"


# --------------------------------------------------------------------------- the loop


class Scheduler:
    """The bot's one loop over the waits: sleep until the earliest due moment the
    database holds, tend what is due, read the next moment, sleep again.

    ``wake(moment)`` is called by the service when a wait gets a due moment; if the loop
    sleeps until later, its sleeping task is cancelled and a new one started (an
    ``asyncio.Event`` would do under a real loop, but a simulated clock cannot advance past
    a bare event wait). ``close`` cancels it, so a stopped bot sends nothing. Given
    ``sweep_every``, it also has the desk post that often what the outbox holds that
    another process lost (``Desk.sweep``).
    """

    def __init__(self, service: TableService, desk: Desk, *,
                 now: Callable[[], float], sweep_every: float | None = None) -> None:
        self.service = service
        self.sweep_every = sweep_every
        self.desk = desk
        self.now = now
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._until = math.inf  # when the sleeping loop wakes
        self._dirty = False  # a wake came while the loop was busy: read again
        self._swept = -math.inf  # when the loop last swept the outbox

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._sleeping = False
            self._task = asyncio.get_running_loop().create_task(self._run(),
                                                                name="boardroom-scheduler")

    def wake(self, moment: float) -> None:
        """Something is due at ``moment``: wake the loop early if it sleeps past it."""
        if self._task is None:
            return
        if not self._sleeping:
            self._dirty = True
        elif moment < self._until:
            self._task.cancel()
            self._task = None
            self.start()

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            delay = BACKOFF
            try:
                self._dirty = False
                await self.tick()
                every = self.sweep_every
                if every is not None and self.now() >= self._swept + every:
                    self._swept = self.now()
                    await self.desk.sweep(SWEEP_GRACE)
                moment = await self.service.next_due()
                if self._dirty:
                    continue
                self._until = math.inf if moment is None else moment
                delay = min(MAX_SLEEP, every or MAX_SLEEP,
                            max(0.0, self._until - self.now()))
            except Exception:
                log.exception("The scheduler could not read what is due; trying again in "
                              "%d s", BACKOFF)
                self._until = self.now() + BACKOFF
            self._sleeping = True
            try:
                await asyncio.sleep(delay)
            finally:
                if asyncio.current_task() is self._task:
                    self._sleeping = False

    async def tick(self) -> int:
        """Tend every wait due by now; how many were tended."""
        done = 0
        while True:
            due = await self.service.due(self.now(), BATCH)
            for wait in due:
                try:
                    await self.desk.tend(wait)
                except Exception:
                    log.exception("Could not tend game %s seat %s; trying again later",
                                  wait.game_id, wait.seat)
                    await self.service.postpone(wait, self.now() + RETRY)
                done += 1
            if len(due) < BATCH:
                return done
