"""The tournament of computer players and rule-based players (``benchmarks/computers.py``),
its tuner's bookkeeping, and the rule-based players themselves: every one plays legal moves
to a game's end and shares nothing with the computer's search."""

from __future__ import annotations

import ast
import inspect
import random
from typing import Any

import pytest

import rules
from benchmarks import computers
from benchmarks.people import people


def first_legal(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    return legal[0]


def test_interval_is_wilsons() -> None:
    low, high = computers.interval(20, 40)
    assert (round(low, 3), round(high, 3)) == (0.352, 0.648)
    low, high = computers.interval(40, 40)
    assert high == 1.0 and round(low, 3) == 0.912
    assert computers.interval(0, 0) == (0.0, 1.0)


def test_a_match_counts_points_moves_by_kind_and_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(computers, "people", lambda: {"battle-tiles": {"first": first_legal}})
    played = computers.play(computers.Match("battle-tiles", ("easy", "first"), seed=3))
    assert sum(played.points) == pytest.approx(1.0)
    assert set(played.kinds) == {"easy", "first"}
    assert sum(sum(k.values()) for k in played.kinds.values()) == played.moves
    assert played.cpu["easy"] and "first" not in played.cpu  # people are not timed
    again = computers.play(computers.Match("battle-tiles", ("easy", "first"), seed=3))
    assert again.points == played.points and again.moves == played.moves  # seeds fixed


def test_pairings_alternate_seats_and_score_each_side() -> None:
    pairs = computers.pairings(["hard", "normal", "keeper"], "hard", mirror=False)
    assert pairs == [("hard", "normal"), ("hard", "keeper")]
    todo = computers.matches("battle-tiles", 2, 4, pairs)
    assert [m.seats for m in todo[:2]] == [("hard", "normal"), ("normal", "hard")]
    assert len({m.seed for m in todo}) == 8
    later = computers.matches("battle-tiles", 2, 4, pairs, first=100)  # other deals
    assert [m.seats for m in later] == [m.seats for m in todo]
    assert {m.seed for m in later} == {m.seed + 100 for m in todo}
    results = [computers.Played(m, (1.0, 0.0)) for m in todo[:4]]  # seat 1 always wins
    assert computers.score(results, "hard", "normal") == (2.0, 4)
    three = computers.pairing_seats("a", "b", 3, 2)
    assert three.count("a") == 1 and three.index("a") == 1  # the lone seat moves round


def test_each_game_is_told_with_its_seed_seats_and_winner() -> None:
    match = computers.Match("battle-tiles", ("expert", "plays safe"), seed=203)
    assert computers.told(computers.Played(match, (0.0, 1.0), moves=25)) == (
        "  seed 203: expert | plays safe: plays safe (seat 2) wins, 25 moves")
    assert "a tie" in computers.told(computers.Played(match, (0.5, 0.5), moves=25))
    assert "a draw" in computers.told(computers.Played(match, (0.5, 0.5), capped=True))
    ended = computers.Played(match, (1.0, 0.0), moves=24, scores=(7, 3), ending="points")
    assert computers.told(ended).endswith("wins, 24 moves (points, 7 to 3)")


def test_ratings_put_the_winner_first() -> None:
    todo = computers.matches("battle-tiles", 2, 6, [("a", "b")])
    results = [computers.Played(m, tuple(1.0 if n == "a" else 0.0 for n in m.seats))
               for m in todo]
    rated = computers.ratings(results)
    assert rated["a"] > rated["b"]


PEOPLE = [(game_id, name) for game_id, found in sorted(people().items()) for name in found]


@pytest.mark.parametrize(("game_id", "name"), PEOPLE)
def test_rule_based_players_play_legal_moves_to_the_end(game_id: str, name: str) -> None:
    played = computers.play(computers.Match(game_id, (name, "easy"), seed=11))
    assert not played.capped and sum(played.points) == pytest.approx(1.0)
    assert sum(played.kinds[name].values()) > 0


@pytest.mark.parametrize(("game_id", "name"), PEOPLE)
def test_rule_based_players_share_nothing_with_the_search(game_id: str, name: str) -> None:
    module = inspect.getmodule(people()[game_id][name])
    tree = ast.parse(inspect.getsource(module))  # type: ignore[arg-type]
    imported = {a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for a in node.names}
    imported |= {node.module or "" for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)}
    assert not {m for m in imported if m.startswith(("rules", "bot"))}, imported
    called = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not called & {"evaluate", "policy", "determinize", "choose", "moves"}


def test_every_game_has_rule_based_players() -> None:
    assert set(people()) <= set(rules.GAMES)


def test_the_tuner_keeps_a_weight_change_only_when_it_wins(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    from benchmarks import tune
    game = rules.GAMES["battle-tiles"]
    monkeypatch.setattr(game, "weights", {"edge": 2.0, "lead": 0.0})
    tried: list[dict[str, float]] = []

    def duel(game_id: str, level: str, current: dict[str, float],
             candidate: dict[str, float], *rest: Any) -> float:
        tried.append(candidate)
        return 0.6 if candidate["edge"] < current["edge"] else 0.4  # a smaller edge wins

    monkeypatch.setattr(tune, "duel", duel)
    weights, accepted = tune.tune("battle-tiles", "normal", 4, 0.5, 1, 0.55, None, 1)
    assert weights == {"edge": 1.0, "lead": 0.0}
    assert [a["weight"] for a in accepted] == ["edge"]
    assert tried[:2] == [{"edge": 3.0, "lead": 0.0}, {"edge": 1.0, "lead": 0.0}]
    assert tried[2:] == [{"edge": 1.0, "lead": 0.5}, {"edge": 1.0, "lead": -0.5}]
    played = computers.play(computers.Match(
        "battle-tiles", ("normal~a", "normal~b"), seed=5,
        weights=(("normal~a", (("edge", 1.0),)), ("normal~b", (("edge", 9.0),)))))
    assert set(played.kinds) == {"normal~a", "normal~b"}
