"""benchmarks/conversation.py counts what it says: the mention rule, and a short game on
SimCord whose counts match the channel as members see it."""

from __future__ import annotations

import random
from pathlib import Path

import simcord

from benchmarks.conversation import count, limited, notified, play, table

BOT, ALICE, BOB = 1, 11, 12


def test_a_message_notifies_the_mentioned_users_its_policy_lets_through() -> None:
    text = f"<@{ALICE}> and <@!{BOB}>"
    assert notified({"content": text}) == [ALICE, BOB]  # no policy: Discord's default
    assert notified({"content": text, "allowed_mentions": {"parse": []}}) == []
    assert notified({"content": text, "allowed_mentions": {"parse": ["users"]}}) == [ALICE, BOB]
    only = {"parse": [], "users": [str(BOB)], "replied_user": False}
    assert notified({"content": text, "allowed_mentions": only}, replied_to=ALICE) == [BOB]
    inside = {"components": [{"type": 17, "components": [{"type": 10, "content": text}]}],
              "allowed_mentions": {"users": [str(ALICE)]}}
    assert notified(inside) == [ALICE]


def test_posts_edits_and_answers_are_told_apart() -> None:
    log = [
        simcord.HttpLogEntry("POST", "/channels/5/messages", {}, {"content": f"<@{ALICE}>"}, None),
        simcord.HttpLogEntry("PATCH", "/channels/5/messages/9", {}, {"content": "x"}, None),
        simcord.HttpLogEntry("POST", "/channels/7/messages", {}, {"content": "dm"}, None),
        simcord.HttpLogEntry("PATCH", "/channels/7/messages/8", {}, {"content": "dm"}, None),
        simcord.HttpLogEntry("POST", "/interactions/3/tok/callback", {},
                             {"type": 5, "data": {"flags": 64}}, None),
        simcord.HttpLogEntry("PATCH", "/webhooks/1/tok/messages/@original", {}, {}, None),
        simcord.HttpLogEntry("POST", "/interactions/4/up/callback", {}, {"type": 7}, None),
    ]
    traffic = count(log, channel_id=5, dm_ids={7})
    assert (traffic.posts, traffic.edits, traffic.pings, traffic.dms, traffic.dm_edits,
            traffic.answers) == (1, 2, 1, 1, 1, 1)
    # Discord's global limit counts the channel's and the DMs' requests, not the
    # interaction endpoints (the callbacks, the token's webhook).
    assert traffic.limited == {"channel": 2, "dm": 2}


def test_the_global_limit_counts_what_it_does() -> None:
    assert limited("POST", "/channels/5/messages", 5, {7}) == "channel"
    assert limited("PATCH", "/channels/7/messages/8", 5, {7}) == "dm"
    assert limited("POST", "/users/@me/channels", 5, {7}) == "dm"  # opening a DM channel
    assert limited("GET", "/users/11", 5, {7}) == "look-up"
    assert limited("POST", "/channels/6/messages", 5, {7}) == "other"
    for method, path in (("POST", "/interactions/3/tok/callback"),
                         ("PATCH", "/webhooks/1/tok/messages/@original"),
                         ("POST", "/webhooks/1/tok"),
                         ("PUT", "/applications/1/commands"),  # start-up's, apart
                         ("GET", "/oauth2/applications/@me")):
        assert limited(method, path, 5, {7}) is None


async def test_a_short_game_is_counted_as_the_channel_shows_it(tmp_path: Path) -> None:
    async with table("battle-tiles", 2, 7, images=False) as t:
        played = await play(t, 7, random.Random(1), max_steps=6)
        traffic = t.traffic()
        bot = t.env.bot.user
        assert bot is not None
        public = [m for m in t.channel.history() if m.author.id == bot.id]
        assert played.capped and played.steps == 6 and t.commands == 2 + 1 + 5
        assert 1 <= played.turns <= played.steps and sum(played.per_turn) <= t.commands
        # What members can see: every message the bot created in the channel, and in the
        # players' DMs, is counted once; only seated players are pinged.
        assert traffic.posts == len(public) and traffic.posts >= played.turns
        assert traffic.dms == sum(len(m.user.dm_channel.history()) for m in t.members)
        assert len(traffic.pinged) == traffic.pings >= 1
        # No member is looked up before a DM; each DM channel is opened once at most.
        assert traffic.limited["look-up"] == 0
        opened = [e for e in t.env.http_requests if e.path == "/users/@me/channels"]
        assert len(opened) <= len(t.members)
        assert set(traffic.pinged) <= {m.id for m in t.members}
        # The requests made while a /play ran are those of the game less its setup and
        # start: the lobby, the start message and the first DMs are not a move's.
        alone = t.traffic(t.during)
        assert 0 < sum(alone.limited.values()) < sum(traffic.limited.values())
        assert alone.posts < traffic.posts and alone.limited["channel"] >= 5
