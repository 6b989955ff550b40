"""The contract with the real Discord (tests/contract.py) catches what Discord would refuse,
naming the request and the field; every SimCord environment of the tests is checked."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands

from bot.app import create_bot
from bot.discord.client import StartRefused
from bot.discord.limits import mention_problems, message_problems
from bot.store import Store
from tests import contract
from tests.test_discord import fixed_deal, play_on, seat_two, world  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parent.parent
CHANNEL, MESSAGE, ALICE = "1456074443980800015", "1456074443980800048", 1456074443980800016
BOARD = "attachment://board.png"


def turn(**changes: Any) -> dict[str, Any]:
    """A turn message as the bot posts it: a V2 container with its text, the board and a
    row of buttons, pinging Alice only."""
    body: dict[str, Any] = {
        "components": [{"type": 17, "accent_color": 3964919, "components": [
            {"type": 10, "id": 1, "content": "Red (bob) places a cube on d5."},
            {"type": 12, "items": [{"media": {"url": BOARD}, "description": "The board."}]},
            {"type": 10, "id": 2, "content": f"Your turn, <@{ALICE}>."},
            {"type": 1, "components": [
                {"type": 2, "style": 1, "label": "Your moves", "custom_id": "br:moves:1"},
                {"type": 2, "style": 2, "label": "Your hand", "custom_id": "br:hand:1"}]}]}],
        "flags": 1 << 15, "tts": False,
        "allowed_mentions": {"parse": [], "users": [ALICE]},
        "attachments": [{"id": 0, "filename": "board.png", "description": "The board."}]}
    body.update(changes)
    return body


def post(body: Any, path: str = f"/channels/{CHANNEL}/messages", method: str = "POST",
         params: dict[str, Any] | None = None) -> simcord.HttpLogEntry:
    return simcord.HttpLogEntry(method, path, params or {}, body, None)


def failure(*requests: simcord.HttpLogEntry) -> str:
    """The contract's failure message for ``requests`` (it must fail)."""
    with pytest.raises(AssertionError) as failed:
        contract.check(requests)
    return str(failed.value)


def test_the_bots_turn_message_keeps_the_contract() -> None:
    contract.check([post(turn()),
                    post(turn(), method="PATCH", path=f"/channels/{CHANNEL}/messages/{MESSAGE}")])


def test_a_v2_message_with_content_names_the_field() -> None:
    said = failure(post(turn(content="Your turn!")))
    assert f"POST /channels/{CHANNEL}/messages: $.content: a Components V2 message may not " \
           "have content" in said


def test_an_attachment_without_its_file_names_the_component() -> None:
    said = failure(post(turn(attachments=[])))
    assert (f"POST /channels/{CHANNEL}/messages: $.components[0].components[1].items[0]"
            f".media.url: {BOARD} names no file in $.attachments") in said
    # An edit that shows the board lists it, even one the message already has.
    edit = turn()
    del edit["attachments"]
    said = failure(post(edit, method="PATCH", path=f"/channels/{CHANNEL}/messages/{MESSAGE}"))
    assert f"PATCH /channels/{CHANNEL}/messages/{MESSAGE}: $.components[0]" in said
    # A kept attachment, as discord.py sends it (Attachment.to_dict), counts by its name.
    kept = turn(attachments=[{"id": 1456074443980800099, "filename": "board.png",
                              "size": 10, "url": "https://cdn/board.png"}])
    contract.check([post(kept, method="PATCH",
                         path=f"/channels/{CHANNEL}/messages/{MESSAGE}")])
    unnamed = turn(attachments=[{"id": "1456074443980800099"}])
    assert "kept attachments 1456074443980800099 carry no filename" in failure(post(unnamed))


def test_a_custom_id_of_101_characters_names_the_button() -> None:
    body = turn()
    body["components"][0]["components"][3]["components"][1]["custom_id"] = "x" * 101
    said = failure(post(body))
    assert (f"POST /channels/{CHANNEL}/messages: $.components[0].components[3].components[1]"
            ".custom_id: 101 characters; Discord allows 1-100.") in said


def test_an_unknown_route_fails() -> None:
    said = failure(post(None, method="GET", path=f"/channels/{CHANNEL}/turns"))
    assert f"GET /channels/{CHANNEL}/turns: Discord's API has no such operation" in said
    said = failure(post({}, path="/channels/general/messages"))
    assert "POST /channels/general/messages: path parameter channel_id" in said
    said = failure(post(turn(), params={"wait": "true"}))
    assert "query parameter 'wait' is not one POST /channels/{channel_id}/messages takes" \
        in said


def test_a_body_failing_the_schema_names_the_field_and_the_keyword() -> None:
    body = turn()
    body["components"][0]["components"][3]["components"][0]["style"] = 9
    body["allowed_mentions"]["parse"] = ["nobody"]
    said = failure(post(body))
    assert (f"POST /channels/{CHANNEL}/messages: $.components[0].components[3].components[0]"
            ".style: 9 is not valid under any of the given schemas") in said
    assert "$.allowed_mentions.parse[0]: 'nobody' is not valid" in said
    said = failure(post({"type": 4, "data": {"content": 7}},
                        path="/interactions/1456074443980800001/tok/callback"))
    assert "POST /interactions/1456074443980800001/tok/callback: $.data.content: 7 is not " \
           "of type 'string', 'null' (type: [\"string\", \"null\"])" in said
    said = failure(post({"content": "hi", "flags": "x"}))  # named, not a crash of the check
    assert f"POST /channels/{CHANNEL}/messages: $.flags: 'x' is not" in said


def test_too_long_a_description_fails_the_command_registration() -> None:
    command = {"name": "game", "description": "Open a table.", "type": 1, "options": [
        {"name": "replace", "type": 1, "description": "x" * 107}]}
    said = failure(post([command], method="PUT", path="/applications/1234/commands"))
    assert ("PUT /applications/1234/commands: /game replace: the description is 107 "
            "characters; Discord allows 1-100.") in said


def test_autocomplete_answers_and_legacy_messages_have_their_limits() -> None:
    answer = {"type": 8, "data": {"choices": [{"name": f"m{i}", "value": f"m{i}"}
                                              for i in range(26)]}}
    said = failure(post(answer, path="/interactions/1456074443980800001/tok/callback"))
    assert "POST /interactions/1456074443980800001/tok/callback: $.data.choices has 26 " \
           "choices; Discord allows 25." in said
    row = {"type": 1, "components": [{"type": 2, "style": 2, "label": "l" * 81,
                                      "custom_id": f"c{i}"} for i in range(6)]}
    legacy = {"content": "x" * 2001, "components": [row] * 6,
              "allowed_mentions": {"parse": []}}
    problems = message_problems(legacy)
    assert "$.content: 2,001 characters; Discord allows 2,000." in problems
    assert "$.components: 6 action rows; Discord allows 5." in problems
    assert "$.components[0].components: 6 buttons in a row; Discord allows 5." in problems
    assert "$.components[0].components[0].label: 81 characters; Discord allows 80." in problems
    assert any("'c0' is used twice" in p for p in problems)


def test_v2_counts_components_and_text_in_all() -> None:
    texts = [{"type": 10, "content": "t" * 100} for _ in range(41)]
    problems = message_problems(turn(components=[{"type": 17, "components": texts}]))
    assert "$.components: 42 components in all (nested ones counted); Discord allows 40." \
        in problems
    assert "$.components: 4,100 characters of text displays in all; Discord allows 4,000." \
        in problems
    assert message_problems({"components": texts[:2]})[0].startswith(
        "$.flags: layout components")


def test_embeds_and_selects_have_their_limits() -> None:
    embed = {"title": "t" * 257, "description": "d" * 4000, "footer": {"text": "f" * 2049},
             "fields": [{"name": "n", "value": "v" * 1025}]}
    problems = message_problems({"embeds": [embed]})
    assert "$.embeds[0].title: 257 characters; Discord allows 256." in problems
    assert "$.embeds[0].footer.text: 2,049 characters; Discord allows 2,048." in problems
    assert "$.embeds[0].fields[0].value: 1,025 characters; Discord allows 1,024." in problems
    assert "$.embeds: 7,332 characters in all; Discord allows 6,000." in problems
    select = {"type": 3, "custom_id": "s", "placeholder": "p" * 151,
              "options": [{"label": "l", "value": "v" * 101}] * 26}
    problems = message_problems({"components": [{"type": 1, "components": [select]}]})
    assert "$.components[0].components[0].placeholder: 151 characters; Discord allows 150." \
        in problems
    assert "$.components[0].components[0].options: 26 options; Discord allows 25." in problems
    assert "$.components[0].components[0].options[0].value: 101 characters; Discord " \
           "allows 100." in problems


def test_a_message_names_exactly_whom_it_may_ping() -> None:
    assert mention_problems(turn()) == []
    assert mention_problems(turn(allowed_mentions=None))[0].startswith(
        "$.allowed_mentions: missing")
    everyone = mention_problems(turn(allowed_mentions={"parse": ["everyone", "roles"]}))
    assert len(everyone) == 2 and all("the bot pings members only" in p for p in everyone)
    said = failure(post(turn(allowed_mentions={"parse": ["users"]})))
    assert (f"POST /channels/{CHANNEL}/messages: $.components[0].components[2].content: "
            f"<@{ALICE}> would be pinged without being listed") in said
    assert mention_problems(turn(allowed_mentions={"parse": [], "users": [ALICE, 42]})) == [
        "$.allowed_mentions.users: lists 42 to ping, whom the text does not mention."]


def test_letter_only_disagreements_are_excused_in_one_place_with_a_reason() -> None:
    """discord.py sends snowflakes as integers (the attachment's index and the pinged
    user above); the spec says strings. Excused, and only that: a negative one is not."""
    assert [e.keyword for e in contract.EXCUSES] == ["type"]
    assert all(len(e.reason) > 40 for e in contract.EXCUSES)
    contract.check([post(turn())])
    said = failure(post(turn(allowed_mentions={"parse": [], "users": [-1]})))
    assert "$.allowed_mentions.users[0]" in said


def test_the_shortcuts_give_the_plain_validators_verdict() -> None:
    """``contract.Validator`` leaves out the union branches that cannot hold; its verdict
    is Draft 2020-12's over real and broken bodies alike."""
    pointer = "/paths/~1channels~1{channel_id}~1messages/post/requestBody/content/" \
              "application~1json/schema"
    ref = {"$ref": f"{contract.URI}#{pointer}"}
    registry = contract.spec().registry
    fast, plain = (cls(ref, registry=registry) for cls in (contract.Validator,
                                                           contract.Unpruned))
    bodies = [turn()]
    broken = [("type", v) for v in (2.0, 3, 99, True, "2")] + \
        [("style", v) for v in (5, 9, 1.0, None)] + [("label", v) for v in (5, "l" * 81)]
    for key, value in broken:  # a button's type, style or label broken
        body = turn()
        body["components"][0]["components"][3]["components"][1][key] = value
        bodies.append(body)
    verdicts = [(fast.is_valid(b), plain.is_valid(b)) for b in bodies]
    assert all(f == p for f, p in verdicts)
    assert {f for f, _ in verdicts} == {True, False}


async def test_a_session_on_simcord_is_checked_and_a_refused_request_fails_it(
        tmp_path: Path) -> None:
    """A real session keeps the contract (world() checks it at the end), and a command
    description too long makes the environment fail, naming the command."""
    async with world(tmp_path) as w:
        await seat_two(w)
        await play_on(w, random.Random(3), limit=6)
        requests = list(w.env.http_requests)
    assert contract.problems(requests) == []
    assert {r.method for r in requests} >= {"PUT", "POST", "PATCH"}
    store = await Store.open(str(tmp_path / "long.db"), flush_delay=0)
    try:
        bot = create_bot(store)

        async def tally(interaction: discord.Interaction) -> None:
            """A command the bot does not have, described at too great a length."""

        bot.tree.add_command(app_commands.Command(name="tally", description="t" * 107,
                                                  callback=tally))
        # The bot now refuses to start with it (boardroom check's limits); the contract
        # catches the registration it would have sent.
        with pytest.raises(StartRefused, match=re.escape(
                "/tally: the description is 107 characters; Discord allows 1-100, so the bot "
                "stopped before asking Discord anything")):
            async with contract.run(bot):
                pass
        await bot.load_commands()
        sent = simcord.HttpLogEntry("PUT", "/applications/1/commands", {}, [
            command.to_dict(bot.tree) for command in bot.tree.get_commands()], None)
        with pytest.raises(AssertionError, match=re.escape("PUT /applications/")) as failed:
            contract.check([sent])
        assert "/tally: the description is 107 characters; Discord allows 1-100." in str(
            failed.value)
    finally:
        await store.close()


def test_every_simcord_environment_of_the_tests_is_checked() -> None:
    """No test or benchmark starts SimCord around the contract: ``contract.run``, or an
    ``Env`` whose requests go to ``contract.check``."""
    unchecked = []
    for path in [*ROOT.glob("tests/*.py"), *ROOT.glob("benchmarks/*.py")]:
        if path.name in ("contract.py", "test_contract.py"):
            continue
        text = path.read_text(encoding="utf-8")
        if "simcord.run(" in text or ("simcord.Env(" in text
                                      and "contract.check(" not in text):
            unchecked.append(path.name)
    assert unchecked == []
