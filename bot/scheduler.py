"""Time at the table: when a turn runs out and when to remind, as pure functions.

Games last days. Each awaited human seat has a row in the database (``waits``: since when
it waits, how many reminders it has had, and ``due``, the next moment something is due for
it). The functions here say when that is; the bot's one loop (``bot.discord.loop``) sleeps
until the earliest ``due`` (read through an index, never a scan), has the service do what
is due (``TableService.tend``: a stand-in's move, or a reminder to send) and hands the
result to the desk. Everything it knows lives in the database, so a restart loses nothing:
a wait whose moment passed while the bot was down is simply due at once.

Rules of time (see ``bot/README.md``):

- A turn's clock runs only while the awaited player is neither in their quiet hours nor
  away (``/me quiet``, ``/me away``), so nobody loses a turn asleep or on holiday. Quiet
  hours are at most 12 a day, time away at most 21 days a year. Time that has passed is
  charged as the settings were while it passed: a change applies from the moment it is made
  (``rebased``).
- A table's clock is a time per turn, or a time bank per player: a starting amount, less
  the clock time each of the player's waits used, plus an amount after each of their turns,
  never above the start (``banked``). A turn ends when it runs out: the turn time, or
  what the bank held when the turn began. Either way a computer stand-in plays that turn.
- Reminders by DM at 50%, 80% and 95% of the time the turn has (the turn time, or the
  bank), or, without one, a day after the wait began and daily after that (three at most);
  never in quiet hours or away, never two within ``REMINDER_GAP`` for one player (over all
  their tables).
  A player who takes the daily digest gets only the warnings (80% and 95% of the time
  the turn has): the digest stands for the others.
- The daily digest (``/me digest``): at the player's local hour, moved to the end of their
  quiet hours or time away when it falls inside them, never twice on one local day.

The clock is injectable: the service and the loop read ``now()`` (seconds since the epoch);
in the bot that is ``discord.utils.utcnow()``, which SimCord's ``env.advance_time`` drives.
"""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.records import PlayerRow, WaitRow

MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0
FRACTIONS = (0.5, 0.8, 0.95)  # of a turn time, when the three reminders go
WARNING = 0.8  # reminders from this fraction of a turn time on still come with a digest
REMINDERS = 3  # at most, per wait
REMINDER_GAP = 3 * HOUR  # one player gets at most one reminder in this time
MENTION_GAP = DAY  # a player whose DMs are closed is mentioned at most once a day
QUIET_CAP = 12  # hours of quiet a day, at most
AWAY_CAP = 21  # days away a year, at most
YEAR = 365 * DAY
# A time bank, unless the opener says otherwise: three turn times to start with and one
# back after each turn, or without a turn time these.
BANK_START = 3 * DAY
BANK_ADD = DAY


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


def clock_ran(since: float, until: float, player: PlayerRow) -> float:
    """How long a clock started at ``since`` has run by ``until``: the time between them
    outside the player's quiet hours and time away (``clock_after``'s inverse)."""
    t, ran = since, 0.0
    for _ in range(10_000):
        t = unpaused(t, player)
        if t >= until:
            return ran
        starts = [a for a, _ in _pauses(t, player) if a > t]
        stop = min(min(starts, default=math.inf), t + DAY, until)
        ran += stop - t
        t = stop
    return ran


# --------------------------------------------------------------------------- time banks


def banked(bank: float, used: float, moved: bool, start: float, add: float) -> float:
    """A seat's time bank after a wait that used ``used`` seconds of its clock: what was
    used comes off (never below nothing), and when the seat ``moved`` to end its turn (a
    stand-in's move counts) the per-turn amount ``add`` goes in, never above ``start``."""
    left = max(0.0, bank - used)
    return min(start, left + add) if moved else left


# --------------------------------------------------------------------------- what is due
#
# A wait's *allowance* is the clock time its seat has: the table's turn time, or with a
# time bank the seat's bank when the wait began (None: no limit).


def used(wait: WaitRow, until: float, player: PlayerRow) -> float:
    """How much clock time ``wait`` has used by ``until``: what it had run by its mark,
    then what ran since under the player's settings of now."""
    start = wait.since if wait.mark is None else wait.mark
    return wait.ran + (clock_ran(start, until, player) if until > start else 0.0)


def clock_at(wait: WaitRow, seconds: float, player: PlayerRow) -> float:
    """The moment ``wait``'s clock has run ``seconds`` (its mark, if it had by then)."""
    start = wait.since if wait.mark is None else wait.mark
    return clock_after(start, max(0.0, seconds - wait.ran), player)


def rebased(wait: WaitRow, now: float, player: PlayerRow) -> WaitRow:
    """``wait`` with the time up to ``now`` charged under ``player``, the settings in force
    until now: called just before a player changes their quiet hours or time away, so the
    change applies from ``now`` on and never to time that has passed."""
    return replace(wait, ran=used(wait, now, player), mark=now)


def deadline(wait: WaitRow, allowance: float | None, player: PlayerRow) -> float | None:
    """When the seat's turn runs out (None: no limit)."""
    return None if allowance is None else clock_at(wait, allowance, player)


def reminder_step(wait: WaitRow, allowance: float | None, player: PlayerRow) -> int | None:
    """Which reminder of the wait comes next (its index in ``FRACTIONS``, or the days
    after the wait began less one); None: no more. A player who takes the daily digest
    gets no daily reminder and, of a timed turn's, only the warnings (from ``WARNING`` on)."""
    step = wait.reminded
    if player.digest_hour is not None:
        if allowance is None:
            return None
        while step < REMINDERS and FRACTIONS[step] < WARNING:
            step += 1
    return step if step < REMINDERS else None


def reminder_at(wait: WaitRow, allowance: float | None, reminders: bool,
                player: PlayerRow) -> float | None:
    """When the wait's next reminder is due (None: no more reminders): at the fractions
    of the allowance, or daily without one."""
    step = reminder_step(wait, allowance, player)
    if not reminders or step is None:
        return None
    if allowance is not None:
        at = clock_at(wait, allowance * FRACTIONS[step], player)
    else:
        at = wait.since + (step + 1) * DAY
    if player.reminded is not None:
        at = max(at, player.reminded + REMINDER_GAP)
    at = unpaused(at, player)
    end = deadline(wait, allowance, player)
    return None if end is not None and at >= end else at


def next_due(wait: WaitRow, allowance: float | None, reminders: bool,
             player: PlayerRow) -> float | None:
    """The next moment something is due for a wait: a reminder or the end of the turn."""
    moments = [m for m in (deadline(wait, allowance, player),
                           reminder_at(wait, allowance, reminders, player)) if m is not None]
    return min(moments, default=None)


# --------------------------------------------------------------------------- the digest


def digest_zone(player: PlayerRow) -> ZoneInfo:
    """The zone of the player's digest hour: the one given with it, else their quiet
    hours' zone, else UTC."""
    return _zone(player.digest_zone) or _zone(player.timezone) or ZoneInfo("UTC")


def next_digest(player: PlayerRow, after: float) -> float | None:
    """When the player's next daily digest is due, after ``after``: the first local
    ``digest_hour``:00 (in ``digest_zone``) that, moved to the end of the quiet hours or
    time away it falls in, comes after ``after`` and after the last one sent, on another
    local day than the last one. None: the player takes no digest.

    A local hour that a change to summer time skips is read as the moment the clocks jump
    (02:00 is 03:00 that day); one that the change back repeats, as its first time."""
    if player.digest_hour is None:
        return None
    zone = digest_zone(player)
    sent = player.digest_sent
    last = None if sent is None else datetime.fromtimestamp(sent, zone).date()
    day = datetime.fromtimestamp(after, zone).date() - timedelta(days=1)
    for shift in range(AWAY_CAP * 2 + 3):  # time away moves it at most AWAY_CAP days on
        at = unpaused(_local(day + timedelta(days=shift), player.digest_hour, zone), player)
        if at > after and (sent is None or (at > sent and
                                            datetime.fromtimestamp(at, zone).date() != last)):
            return at
    return None


def digest_ready(player: PlayerRow, now: float) -> bool:
    """Whether a digest may go at ``now``: the player takes one, is neither in quiet hours
    nor away, and had none yet on this local day."""
    if player.digest_hour is None or paused_until(now, player) is not None:
        return False
    zone = digest_zone(player)
    return player.digest_sent is None or (
        datetime.fromtimestamp(player.digest_sent, zone).date()
        != datetime.fromtimestamp(now, zone).date())


def parse_hour(text: str) -> int | None:
    """A digest hour as typed: 'off' (None), or a whole hour from 0 to 23 ('8', '08',
    '8:00', '18h'). ``ValueError`` with a sentence for anything else."""
    typed = text.strip().lower().replace(" ", "")
    if typed in ("off", "none", "no", "stop"):
        return None
    number = typed.removesuffix("h").removesuffix(":00")
    if number.isdigit() and len(number) <= 2 and int(number) <= 23:
        return int(number)
    raise ValueError(f"'{text[:24]}' is not an hour; write a whole hour from 0 to 23 (such "
                     "as 8 or 18:00), or off.")


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


def remaining(seconds: float) -> str:
    """'1d 4h', '3h 20m', '45m': clock time left, to the minute (a bank as shown)."""
    minutes = max(0, int(seconds // MINUTE))
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = [f"{days}d"] if days else []
    if hours and len(parts) < 2:
        parts.append(f"{hours}h")
    if minutes and not days:
        parts.append(f"{minutes}m")
    return " ".join(parts) or "0m"
