"""Discord's documented limits on a command registration (bot/discord/limits.py)."""

from __future__ import annotations

import copy
from typing import Any

from bot.discord.limits import choices_problems, command_problems

GAME: dict[str, Any] = {
    "name": "game", "description": "Open a table.", "type": 1, "options": [
        {"name": "new", "description": "Open a table for a game.", "type": 1, "options": [
            {"type": 3, "name": "game", "description": "The game", "required": True,
             "choices": [{"name": "Cube Conquest", "value": "cube-conquest"}]},
            {"type": 3, "name": "options", "description": "Variants", "required": False}]}]}


def test_a_registration_within_the_limits_has_no_problem() -> None:
    assert command_problems([GAME]) == []


def test_a_description_too_long_names_the_subcommand_and_its_length() -> None:
    long = copy.deepcopy(GAME)
    long["options"][0]["description"] = "x" * 107
    assert command_problems([long]) == [
        "/game new: the description is 107 characters; Discord allows 1-100."]


def test_names_are_short_lower_case_words() -> None:
    bad = copy.deepcopy(GAME)
    bad["options"][0]["options"][1]["name"] = "Options"
    bad["options"][0]["name"] = "n" * 33
    problems = command_problems([bad])
    assert any("'Options' must be lower case" in p for p in problems)
    assert any("the name is 33 characters" in p for p in problems)


def test_required_options_come_first_and_choices_are_at_most_25() -> None:
    bad = copy.deepcopy(GAME)
    options = bad["options"][0]["options"]
    options.reverse()
    options[1]["choices"] = [{"name": f"g{i}", "value": f"g{i}"} for i in range(26)]
    problems = command_problems([bad])
    assert any("required option 'game' comes after an optional one" in p for p in problems)
    assert any("26 choices" in p for p in problems)


def test_a_command_counts_its_characters_in_all() -> None:
    big = copy.deepcopy(GAME)
    big["options"][0]["options"][0]["choices"] = [
        {"name": "n" * 100, "value": "v" * 100} for _ in range(21)]
    assert any("4,000" in p for p in command_problems([big]))


def test_autocomplete_answers_are_checked_like_choices() -> None:
    assert choices_problems([{"name": "a" * 101, "value": "a"}], "autocomplete") == [
        "autocomplete: the choice 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' has a name of 101 "
        "characters; Discord allows 1-100."]
    assert choices_problems([{"name": "a", "value": "a"}] * 25, "autocomplete") == []
