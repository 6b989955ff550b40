"""The daily digest without Discord: when it is due (``scheduler.next_digest``: the local
hour, moved out of quiet hours and time away, DST-safe, never twice a local day), which
reminders it stands for, how it fits one message (``history.daily_text``), its rows in the
store on both engines (claimed through an index), and the service recording it before it
goes. The end-to-end test on SimCord is ``tests/test_digest_discord.py``."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot import history, scheduler
from bot.records import Job, PlayerRow, WaitRow
from bot.scheduler import DAY, HOUR, MINUTE, next_digest, reminder_at
from bot.service import TableService
from bot.service.table import TableError
from bot.store.engine import CLAIM
from tests.conftest import NEW_YEAR, Clock
from tests.pg import AnyStore, Database

pytestmark = pytest.mark.engines  # its tests of ``store`` run on both engines

PARIS = ZoneInfo("Europe/Paris")
GAME = "cube-conquest"


def local(moment: float, zone: ZoneInfo = PARIS) -> datetime:
    return datetime.fromtimestamp(moment, zone)


def run(player: PlayerRow, start: float, days: int) -> list[float]:
    """The digests one after another from ``start``, each recorded as sent when due."""
    sent, after = [], start
    for _ in range(days):
        at = next_digest(player, after)
        assert at is not None
        sent.append(at)
        player, after = replace(player, digest_sent=at), at
    return sent


# --------------------------------------------------------------------------- when


def test_the_digest_comes_at_the_local_hour_once_a_day() -> None:
    player = PlayerRow(1, digest_hour=8, digest_zone="Europe/Paris")
    # New Year 00:00 UTC is 01:00 in Paris: the first is at 08:00 Paris that morning.
    assert next_digest(player, NEW_YEAR) == NEW_YEAR + 7 * HOUR
    sent = run(player, NEW_YEAR, 5)
    assert [local(t).hour for t in sent] == [8] * 5
    assert len({local(t).date() for t in sent}) == 5
    # Set after today's hour: tomorrow. No digest: None.
    assert next_digest(player, NEW_YEAR + 9 * HOUR) == NEW_YEAR + DAY + 7 * HOUR
    assert next_digest(PlayerRow(1), NEW_YEAR) is None


def test_the_zone_is_the_digests_else_the_quiet_hours_else_utc() -> None:
    assert scheduler.digest_zone(PlayerRow(1, timezone="Asia/Tokyo")).key == "Asia/Tokyo"
    assert scheduler.digest_zone(PlayerRow(1, timezone="Asia/Tokyo",
                                           digest_zone="Europe/Paris")).key == "Europe/Paris"
    assert scheduler.digest_zone(PlayerRow(1)).key == "UTC"
    assert next_digest(PlayerRow(1, digest_hour=8), NEW_YEAR) == NEW_YEAR + 8 * HOUR


def test_quiet_hours_and_time_away_move_it_to_their_end() -> None:
    # Quiet 22:00 to 09:00 in Paris covers an 08:00 digest: it comes at 09:00.
    quiet = PlayerRow(1, quiet_from=22, quiet_to=9, timezone="Europe/Paris", digest_hour=8)
    sent = run(quiet, NEW_YEAR, 4)
    assert [local(t).hour for t in sent] == [9] * 4
    assert len({local(t).date() for t in sent}) == 4
    # A 23:00 digest in quiet hours 22:00 to 07:00 comes at 07:00 the next morning, one a
    # day, never skipping a day.
    late = PlayerRow(1, quiet_from=22, quiet_to=7, timezone="Europe/Paris", digest_hour=23)
    sent = run(late, NEW_YEAR + 12 * HOUR, 4)
    assert [local(t).hour for t in sent] == [7] * 4
    assert [(b - a) for a, b in itertools.pairwise(sent)] == [DAY] * 3
    # Away three days from New Year's morning: the next digest is when they are back.
    back = NEW_YEAR + 3 * DAY + 5 * HOUR + 17 * MINUTE
    away = PlayerRow(1, digest_hour=8, digest_zone="UTC", absences=((NEW_YEAR, back),))
    assert next_digest(away, NEW_YEAR) == back
    assert next_digest(replace(away, digest_sent=back), back) == NEW_YEAR + 4 * DAY + 8 * HOUR
    assert not scheduler.digest_ready(away, NEW_YEAR + DAY)
    assert scheduler.digest_ready(away, back)


def test_never_twice_on_one_local_day() -> None:
    player = PlayerRow(1, digest_hour=8, digest_zone="Europe/Paris")
    today = NEW_YEAR + 7 * HOUR  # 08:00 in Paris
    sent = replace(player, digest_sent=today)
    assert not scheduler.digest_ready(sent, today + 10 * HOUR)
    assert scheduler.digest_ready(sent, today + DAY)
    # The hour moved to later the same day: not again today, tomorrow at the new hour.
    evening = replace(sent, digest_hour=20)
    assert next_digest(evening, today + HOUR) == today + DAY + 12 * HOUR
    # Quiet hours that end after midnight push one digest into the next day; the next
    # one is on the day after, not twice on that day.
    pushed = PlayerRow(1, quiet_from=23, quiet_to=6, timezone="Europe/Paris",
                       digest_hour=23, digest_zone="Europe/Paris")
    days = [local(t).date() for t in run(pushed, NEW_YEAR, 6)]
    assert len(set(days)) == 6


@pytest.mark.parametrize("hour", [2, 8])
def test_summer_time_changes_give_one_digest_a_day(hour: int) -> None:
    """Paris goes to summer time on 29 March 2026 (02:00 is skipped) and back on
    25 October (02:00 comes twice): one digest a local day, at the hour (a skipped hour
    when the clocks jump)."""
    player = PlayerRow(1, digest_hour=hour, digest_zone="Europe/Paris")
    for first in (datetime(2026, 3, 27, 12, tzinfo=PARIS), datetime(2026, 10, 23, 12,
                                                                     tzinfo=PARIS)):
        sent = run(player, first.timestamp(), 5)
        days = [local(t).date() for t in sent]
        assert len(set(days)) == 5 and days == sorted(days)
        assert all(local(t).hour in (hour, 3) for t in sent), [local(t) for t in sent]
        assert [local(t).hour for t in sent].count(hour) >= 4
    # The day of the change to summer time the 08:00 digest is 23 hours after the last.
    spring = run(PlayerRow(1, digest_hour=8, digest_zone="Europe/Paris"),
                 datetime(2026, 3, 27, 12, tzinfo=PARIS).timestamp(), 2)
    assert spring[1] - spring[0] == DAY - HOUR


def test_hours_as_typed() -> None:
    assert [scheduler.parse_hour(t) for t in ("8", "08", "8:00", "18h", "0", "23")] == [
        8, 8, 8, 18, 0, 23]
    assert scheduler.parse_hour("off") is None
    for bad in ("24", "8:30", "-1", "eight", "", "123"):
        with pytest.raises(ValueError, match="is not an hour"):
            scheduler.parse_hour(bad)


# --------------------------------------------------------------------------- reminders


def test_a_digest_stands_for_the_daily_and_half_time_reminders() -> None:
    plain = PlayerRow(1)
    digest = PlayerRow(1, digest_hour=8)
    wait = WaitRow(1, 0, NEW_YEAR)
    # No turn time: daily reminders without a digest, none with one.
    assert reminder_at(wait, None, True, plain) == NEW_YEAR + DAY
    assert reminder_at(wait, None, True, digest) is None
    # A turn time of 10 days: 50%, 80%, 95% without; only 80% and 95% with.
    assert reminder_at(wait, 10 * DAY, True, plain) == NEW_YEAR + 5 * DAY
    assert reminder_at(wait, 10 * DAY, True, digest) == NEW_YEAR + 8 * DAY
    assert scheduler.reminder_step(wait, 10 * DAY, digest) == 1
    after_80 = replace(wait, reminded=2)
    assert reminder_at(after_80, 10 * DAY, True, digest) == NEW_YEAR + 9.5 * DAY
    assert reminder_at(replace(wait, reminded=3), 10 * DAY, True, digest) is None


# --------------------------------------------------------------------------- the text


def awaiting(n: int, *, lines: str = "", deadline: float | None = None,
             since: float = NEW_YEAR) -> history.Awaiting:
    def text(limit: int) -> str:
        assert limit > 0
        return history.cut(lines, limit)
    return history.Awaiting(1000 + n, "Game night", "Cube Conquest", "Ann (Blue)",
                            ("Bob (Red)",) if n % 2 else (), since, deadline, text)


def test_the_digest_fits_one_message_most_pressing_first() -> None:
    assert history.daily_text([]) == ""
    long = "\n".join(f"`#{n}` <t:1767225600:R> Red (Bob) moved c{n} to d{n}." for n in
                     range(60))
    tables = [awaiting(n, lines=long, since=NEW_YEAR + n * HOUR) for n in range(3)]
    tables.append(awaiting(3, lines=long, deadline=NEW_YEAR + 9 * DAY))
    text = history.daily_text(tables)
    assert len(text) <= history.LIMIT
    assert text.startswith("**Your daily digest**: 4 tables wait for you.")
    order = [int(m) for m in re.findall(r"<#(\d+)>", text)]
    assert order == [1003, 1000, 1001, 1002]  # the turn time first, then the longest wait
    assert text.count("> `#") > 4 and "left out" not in text
    assert "with Bob (Red)" in text and f"runs out <t:{int(NEW_YEAR + 9 * DAY)}:R>" in text
    assert "(Game night)" in text
    # Seven tables (a group playing five games at once, and two more): each with lines.
    seven = history.daily_text([awaiting(n, lines=long, since=NEW_YEAR + n) for n in range(7)])
    assert len(seven) <= history.LIMIT and seven.count("> `#0`") == 7
    # Forty tables: as many of their first lines as fit, most pressing first, and the
    # rest counted (their since-lines give way to the tables themselves).
    many = history.daily_text([awaiting(n, lines=long, since=NEW_YEAR + n) for n in range(40)])
    assert len(many) <= history.LIMIT
    shown = [int(m) for m in re.findall(r"<#(\d+)>", many)]
    assert 5 < len(shown) < 40 and shown == list(range(1000, 1000 + len(shown)))
    assert f"and {40 - len(shown)} more tables waiting for you, left out to fit" in many
    assert many.rstrip().endswith("/me digest at:off stops this digest.")


def test_a_cut_never_splits_a_timestamp() -> None:
    text = "moved <t:1767225600:R> and then <t:1767229200:R> again"
    for limit in range(20, len(text)):
        cut = history.cut(text, limit)
        assert len(cut) <= limit and cut.endswith("\u2026")
        assert re.sub(r"<t:\d+:R>", "", cut).count("<t:") == 0, cut


# --------------------------------------------------------------------------- the store


async def test_digest_rows_are_claimed_once_and_leave_the_quiet_hours_alone(
        store: AnyStore) -> None:
    await store.members.set_player(PlayerRow(1, 22, 7, "Europe/Paris"))
    for user, hour, zone, due in ((1, 8, None, NEW_YEAR + 7 * HOUR),
                                  (2, 9, "Asia/Tokyo", NEW_YEAR + HOUR), (3, 9, None, None)):
        await store.members.set_digest(user, hour, zone)
        await store.jobs.set_digest_due(user, due)
    assert await store.jobs.next_due() == NEW_YEAR + HOUR
    one = await store.members.player(1)
    assert (one.quiet_from, one.timezone, one.digest_hour, one.digest_zone,
            one.digest_due) == (22, "Europe/Paris", 8, None, NEW_YEAR + 7 * HOUR)
    await store.members.set_player(replace(one, quiet_from=23))  # the digest stays as it was
    assert (await store.members.player(1)).digest_due == NEW_YEAR + 7 * HOUR
    assert await store.jobs.claim(NEW_YEAR) == []
    assert await store.jobs.claim(NEW_YEAR + 8 * HOUR) == [
        Job("digest", 2, 0, NEW_YEAR + HOUR), Job("digest", 1, 0, NEW_YEAR + 7 * HOUR)]
    assert await store.jobs.claim(NEW_YEAR + 8 * HOUR) == []  # claimed
    assert (await store.members.player(2)).digest_due == NEW_YEAR + 8 * HOUR + CLAIM
    await store.jobs.set_digest_due(2, NEW_YEAR + DAY, sent=NEW_YEAR + 8 * HOUR)
    two = await store.members.player(2)
    assert (two.digest_due, two.digest_sent) == (NEW_YEAR + DAY, NEW_YEAR + 8 * HOUR)
    await store.members.set_digest(2, None, None)  # off
    await store.jobs.set_digest_due(2, NEW_YEAR + 2 * DAY)  # a digest on its way stays off
    assert (await store.members.player(2)).digest_due is None


async def test_the_tables_waiting_for_a_player_in_every_server(store: AnyStore) -> None:
    for n, (guild, players) in enumerate([(1, (7, 8)), (2, (7, 9)), (3, (8, 9))]):
        row = await store.tables.create_game(500 + n, guild, GAME, {}, players[0], "x",
                                             now=NEW_YEAR)
        await store.seats.add(row.id, 1, players[1], "y", "human")
        await store.tables.start_game(row.id, 1, "{}", now=NEW_YEAR)
        seats = (0, 1) if n == 2 else (n,)  # the third awaits both its seats
        await store.jobs.set_waits(row.id, [WaitRow(row.id, s, NEW_YEAR - n * HOUR)
                                       for s in seats])
    found = await store.tables.waiting_for(7)
    assert [(g.guild_id, w.seat) for g, w in found] == [(1, 0)]  # guild 2 awaits 9's seat
    assert [(g.guild_id, w.seat) for g, w in await store.tables.waiting_for(8)] == [(3, 0)]
    assert [(g.guild_id, w.since) for g, w in await store.tables.waiting_for(9)] == [
        (3, NEW_YEAR - 2 * HOUR), (2, NEW_YEAR - HOUR)]


async def test_finding_due_digests_and_a_players_tables_reads_indexes(store: AnyStore,
                                                                      database: Database
                                                                      ) -> None:
    if database.engine != "sqlite":
        pytest.skip("the plan is SQLite's (PostgreSQL chooses by the table's size)")
    plans = {}
    for name, sql in (
            ("due", "SELECT kind, owner_id, part, due FROM jobs WHERE due IS NOT NULL "
                    "AND due <= 1 ORDER BY due LIMIT 100"),
            ("next", "SELECT MIN(due) FROM jobs WHERE due IS NOT NULL"),
            ("seats", "SELECT s.game_id FROM seats s CROSS JOIN jobs w WHERE w.kind = 'wait' "
                      "AND w.owner_id = s.game_id AND w.part = s.seat AND s.user_id = 7")):
        rows = await store.db.execute_fetchall(f"EXPLAIN QUERY PLAN {sql}")
        plans[name] = " ".join(str(r[-1]) for r in rows)
    assert "jobs_due" in plans["due"] and "SCAN jobs" not in plans["due"]
    assert "jobs_due" in plans["next"]
    assert "seats_by_user" in plans["seats"]


# --------------------------------------------------------------------------- the service


async def test_the_setting_says_when_and_refuses_bad_input(service: TableService,
                                                           clock: Clock) -> None:
    assert "You take no daily digest" in await service.digest(1, None)
    told = await service.digest(1, "8")
    assert "8:00, UTC time (you gave no time zone, so UTC" in told
    assert f"<t:{int(NEW_YEAR + 8 * HOUR)}:f>" in told
    assert "the warnings at 80% and 95% of a turn time still come" in told
    await service.quiet(1, 22, 7, "Europe/Paris")  # the digest follows the quiet zone
    told = await service.digest(1, None)
    assert "8:00, Europe/Paris time:" in told and f"<t:{int(NEW_YEAR + 7 * HOUR)}:f>" in told
    for at, zone, said in (("25", None, "'25' is not an hour"),
                           ("8", "Mars/Olympus", "is not a time zone I know")):
        with pytest.raises(TableError, match=said):
            await service.digest(1, at, zone)
    assert (await service.store.members.player(1)).digest_hour == 8  # unchanged
    assert "Asia/Tokyo" in await service.digest(1, "9", "Asia/Tokyo")
    assert "Asia/Tokyo" in await service.digest(1, "10")  # the zone given stays
    assert "is off" in await service.digest(1, "off")
    player = await service.store.members.player(1)
    assert (player.digest_hour, player.digest_due) == (None, None)
    assert "Asia/Tokyo" in await service.digest(1, "7")  # on again: the zone given stays


async def test_a_digest_is_recorded_before_it_goes_and_skips_an_empty_day(
        service: TableService, clock: Clock) -> None:
    await service.open(700, 1, 201, "Ann", GAME)
    await service.join(700, 202, "Bob")
    await service.start(700, 201, seed=1)
    waiting = [u for u, _ in await service.waiting(700)]
    other = 201 if waiting == [202] else 202
    for user in (201, 202):
        await service.digest(user, "8", "UTC")
    clock.t = NEW_YEAR + 8 * HOUR
    assert sorted((j.kind, j.owner_id) for j in await service.due(clock.t)) == [
        ("digest", 201), ("digest", 202)]
    service.name_servers(lambda guild: f"Server {guild}")
    tended = await service.tend(Job("digest", waiting[0]))
    assert tended is not None and tended.channel_id == 700
    assert "1 table waits for you" in tended.text and "(Server 1)" in tended.text
    assert "Since the game began" in tended.text or "Since your last move" in tended.text
    player = await service.store.members.player(waiting[0])
    assert (player.digest_sent, player.digest_due) == (clock.t, NEW_YEAR + DAY + 8 * HOUR)
    assert await service.tend(Job("digest", waiting[0])) is None  # not twice today
    # Nothing waits for the other player: nothing is sent, and tomorrow it is looked at again.
    assert await service.tend(Job("digest", other)) is None
    player = await service.store.members.player(other)
    assert (player.digest_sent, player.digest_due) == (None, NEW_YEAR + DAY + 8 * HOUR)
    assert await service.next_due() is not None
