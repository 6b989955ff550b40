"""The rules of time, in one module: turn time, time banks and what comes back after a turn,
quiet hours, time away, when reminders and the daily digest go, and when a turn runs out;
pure functions of plain data (a ``TableClock``, a ``WaitRow``, a ``PlayerRow``, a moment),
which the service calls. To change a timer's rule, change it here.

Games last days. Each awaited human seat has a job in the database (a ``wait``: since when
it waits, how many reminders it has had, and ``due``, the next moment something is due for
it; ``bot.service.jobs``). The functions here say when that is; the bot's one loop
(``bot.discord.loop``) sleeps until the earliest due job (read through an index, never a
scan), has the service do what is due (``TableService.tend``: a stand-in's move, a reminder
or a digest to send) and hands the result to the desk. Everything it knows lives in the
database, so a restart loses nothing: a job whose moment passed while the bot was down is
simply due at once.

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
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot import words
from bot.records import PlayerRow, WaitRow
from rules.core import quote

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
BANK_TURNS = 3  # a bank set with a turn time holds this many turns to start with
LONGEST = 30 * DAY  # the longest turn time, or bank to start with
SHORTEST = 10 * MINUTE  # the shortest turn time


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
        raise ValueError(words.say("clocks.not_a_zone", typed=quote(name, 40)))
    return zone


def check_quiet(start: int, end: int) -> int:
    """How many hours quiet hours from ``start`` to ``end`` o'clock last; ``ValueError``
    with a sentence for hours that are not hours of a day or for more than ``QUIET_CAP``."""
    if not (0 <= start <= 23 and 0 <= end <= 23):
        raise ValueError(words.say("clocks.not_hours"))
    hours = quiet_length(start, end)
    if hours > QUIET_CAP:
        raise ValueError(words.say("clocks.quiet_cap", cap=QUIET_CAP, from_hour=start,
                                   to_hour=end, hours=hours))
    return hours


def check_away(player: PlayerRow, now: float, days: int) -> float:
    """The days of time away the player has left before taking ``days`` more from ``now``;
    ``ValueError`` with a sentence if they may not."""
    left = away_days_left(player, now)
    if not 1 <= days <= AWAY_CAP or days > left:
        raise ValueError(words.say("clocks.away_cap", cap=AWAY_CAP, days_left=int(left)))
    return left


def may_mention(player: PlayerRow, now: float) -> bool:
    """Whether a player whose DMs are closed may be mentioned in a channel instead at
    ``now`` (at most once in ``MENTION_GAP``)."""
    return player.mentioned is None or now - player.mentioned >= MENTION_GAP


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


# --------------------------------------------------------------------------- a table's clock


@dataclass(frozen=True)
class TableClock:
    """A table's clock: a time per turn (``turn_time``; None: no limit), or with
    ``bank_start`` a time bank per player (``bank_add`` back after each turn); and whether
    awaited players are reminded."""

    turn_time: float | None = None
    bank_start: float | None = None
    bank_add: float = 0.0
    reminders: bool = True

    @property
    def banked(self) -> bool:
        return self.bank_start is not None


def bank_of(clock: TableClock, held: float | None) -> float:
    """A seat's time bank when its wait begins, as its seat row holds it (``held``; None:
    full until first used), never above the table's start."""
    assert clock.bank_start is not None
    return clock.bank_start if held is None else min(held, clock.bank_start)


def allowance(clock: TableClock, held: float | None) -> float | None:
    """The clock time a wait of a seat has: the turn time, or with a time bank the
    seat's bank (None: no limit)."""
    return bank_of(clock, held) if clock.banked else clock.turn_time


def banked(bank: float, used: float, moved: bool, start: float, add: float) -> float:
    """A seat's time bank after a wait that used ``used`` seconds of its clock: what was
    used comes off (never below nothing), and when the seat ``moved`` to end its turn (a
    stand-in's move counts) the per-turn amount ``add`` goes in, never above ``start``."""
    left = max(0.0, bank - used)
    return min(start, left + add) if moved else left


def spent(clock: TableClock, held: float | None, used: float, moved: bool) -> float:
    """A seat's bank after a wait of it that used ``used`` seconds ends (``banked``)."""
    assert clock.bank_start is not None
    return banked(bank_of(clock, held), used, moved, clock.bank_start, clock.bank_add)


def bank_left(clock: TableClock, held: float | None, wait: WaitRow | None, now: float,
              player: PlayerRow) -> float | None:
    """A seat's bank at ``now`` (None: the table has no bank): less what the clock of
    its ``wait`` (if it is awaited) has used."""
    if not clock.banked:
        return None
    bank = bank_of(clock, held)
    return bank if wait is None else max(0.0, bank - used(wait, now, player))


def rebanked(held: float | None, start: float | None) -> float | None:
    """A seat's bank once the table's start is ``start``: never above it; none without a
    bank."""
    return None if start is None or held is None else min(held, start)


def settled(clock: TableClock, *, turn_time: float | None, keep_time: bool,
            reminders: bool | None, kind: str | None, bank: float | None,
            add: float | None) -> TableClock:
    """A table's clock after the opener's change (``bot.service.clocks.settings``): the
    turn time (unless ``keep_time``), reminders, and the kind of clock, 'per-turn' or
    'bank' (None: as it was, or a bank if one is given). A bank's start and what comes
    back are, unless given, as they were, else ``BANK_TURNS`` turn times deep (at most
    ``LONGEST``) and a turn time back, else ``BANK_START`` and ``BANK_ADD``. ``ValueError``
    with a sentence for a bank given to a clock per turn."""
    if kind == "per-turn" and (bank is not None or add is not None):
        raise ValueError(words.say("clocks.bank_per_turn"))
    new_time = clock.turn_time if keep_time else turn_time
    new_reminders = clock.reminders if reminders is None else reminders
    if not (kind == "bank" or (kind is None and (clock.banked or bank is not None
                                                  or add is not None))):
        return TableClock(new_time, None, 0.0, new_reminders)
    start = bank or clock.bank_start or (
        min(BANK_TURNS * new_time, LONGEST) if new_time else BANK_START)
    back = add if add is not None else (
        clock.bank_add if clock.banked else new_time or BANK_ADD)
    return TableClock(new_time, start, back or 0.0, new_reminders)


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


def due_now(wait: WaitRow, allowance: float | None, reminders: bool, player: PlayerRow,
            now: float) -> Literal["stand-in", "reminder"] | None:
    """What is due for a wait at ``now``: its turn ran out (a computer player stands in),
    a reminder, or nothing (its next moment is to be stored)."""
    end = deadline(wait, allowance, player)
    if end is not None and end <= now:
        return "stand-in"
    at = reminder_at(wait, allowance, reminders, player)
    return "reminder" if at is not None and at <= now else None


def reminded(wait: WaitRow, allowance: float | None, player: PlayerRow) -> WaitRow:
    """``wait`` once the reminder due now has gone (``reminder_step``: a digest reader's
    skipped ones count as gone)."""
    step = reminder_step(wait, allowance, player)
    return replace(wait, reminded=(wait.reminded if step is None else step) + 1)


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
    raise ValueError(words.say("clocks.not_an_hour", typed=quote(text, 24)))


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
        if SHORTEST <= seconds <= LONGEST:
            return seconds
        raise ValueError(words.say("clocks.turn_time_range"))
    raise ValueError(words.say("clocks.not_a_turn_time", typed=quote(text, 24)))


def parse_bank(bank: str | None, add: str | None) -> tuple[float | None, float | None]:
    """A time bank's start and what a turn gives back, as typed ('3d', '12h'; the amount
    back may be '0'); None where not given. ``ValueError`` with a sentence otherwise."""
    start = None
    if bank is not None:
        start = parse_duration(bank)
        if start is None:
            raise ValueError(words.say("clocks.bank_amount"))
    back = None
    if add is not None:
        back = (0.0 if add.strip().lower() in ("0", "none", "off", "nothing")
                else parse_duration(add))
    return start, back


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
