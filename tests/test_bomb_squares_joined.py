"""Bomb Squares' joined moves: several steps named in one command where nothing is drawn,
rolled or shown between them ('meeple e5 done', 'switch e5', 'landmine f5', 'from e5 to
f5'). Each is legal exactly when its steps are, one after the other; it does what the steps
do one by one; and steps that may not be joined are refused with a sentence saying why."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from rules import IllegalMove
from rules.bomb_squares import INDEX, Steps, card_code
from rules.core import normalize
from tests.test_bomb_squares import GAME, C, K, M, battle, card, force, play, refused, table


def dumped(state: Any) -> str:
    return json.dumps(GAME.dump(state), sort_keys=True)


def same_as_steps(state: Any, seat: int, joined: str, *steps: str) -> Any:
    """``joined`` is listed, and playing it gives exactly the state and the sentences of
    ``steps`` played one by one."""
    assert joined in GAME.legal_moves(state, seat)
    after, texts = play(state, seat, joined)
    one_by_one, step_texts = play(state, seat, *steps)
    assert dumped(after) == dumped(one_by_one)
    assert texts == step_texts
    return after


def meeple_step(**fields: Any) -> Any:
    """A turn's meeple step: a red meeple drawn, two cards that take it."""
    state = table(phase="meeple", pending=M["red"], meepled=False, then="act", **fields)
    card(state, "e5", "green", 3, bomb="red", meeples=1, meeple="red")
    card(state, "f5", "blue", 2)
    return state


def test_the_meeple_joins_how_the_dice_step_begins() -> None:
    state = meeple_step(deck=[card_code(C["red"], 1)])
    legal = GAME.legal_moves(state, 0)
    for cell in ("e5", "f5"):
        assert {f"meeple {cell} roll yellow", f"meeple {cell} done",
                f"meeple {cell} second card"} <= set(legal)
    assert legal.index("clear e5" if "clear e5" in legal else "redraw meeple") < \
        legal.index("meeple e5 done")  # the single steps first
    after = same_as_steps(state, 0, "meeple f5 done", "meeple f5", "done")
    assert after.turn == 1
    same_as_steps(state, 0, "meeple e5 roll yellow", "meeple e5", "roll yellow")
    same_as_steps(state, 0, "meeple e5 second card", "meeple e5", "second card")


def test_the_joined_meeple_is_read_however_it_is_typed() -> None:
    state = meeple_step()
    for text in ("meeple f5 done", "Meeple f5, then done.", "meeple on f5 and pass",
                 "f5 done", "meeple f5 end"):
        assert GAME.parse(state, 0, normalize(text)) == "meeple f5 done", text


def test_a_meeple_that_fills_an_attacker_joins_roll_not_done() -> None:
    state = meeple_step()
    card(state, "e5", "green", 2, bomb="red", meeples=1, meeple="red")
    card(state, "g5", "red", 1, bomb="green")
    legal = GAME.legal_moves(state, 0)
    assert "meeple e5 roll" in legal and "meeple e5 done" not in legal
    assert "meeple f5 done" in legal and "meeple f5 roll" not in legal  # e5 stays open
    force(state, 6, 6, 1)
    after = same_as_steps(state, 0, "meeple e5 roll", "meeple e5", "roll")
    assert after.phase == "rolled"
    refused(state, 0, "meeple e5 done", IllegalMove,
            "After 'meeple e5': An attack is possible, so the turn cannot end without one: "
            "roll the dice, or skip them for a second square card or a bomb switch where you "
            "may. The dice step: type 'roll', 'second card', 'switch' (1 of 3), 'landmine' (1 "
            "of 3; costs 2 crystals), 'tower' (1 of 3; costs 2 crystals), 'airplane' (costs 5 "
            "crystals) or 'buy meeple g5' (costs 1 crystal).")


def test_a_lone_meeple_step_stays_the_tables_to_make() -> None:
    state = table(phase="meeple", pending=M["red"], meepled=True, then="act")
    card(state, "e5", "green", 3, bomb="red", meeples=1, meeple="red")
    assert GAME.legal_moves(state, 0) == ["meeple e5"]  # one move: the table makes it


def test_a_meeple_that_wins_the_game_joins_nothing() -> None:
    state = meeple_step(crystals=[72, 5])
    card(state, "e5", "green", 3, bomb="red", meeples=2, meeple="red")  # one short
    legal = GAME.legal_moves(state, 0)
    assert "meeple e5" in legal and not any(m.startswith("meeple e5 ") for m in legal)
    after, _texts = play(state, 0, "meeple e5")
    assert GAME.outcome(after) is not None


def test_switch_names_its_bomb_at_once() -> None:
    state = table()
    card(state, "e5", "red", 2, bomb="red")
    card(state, "f5", "blue", 2, bomb="blue")
    legal = GAME.legal_moves(state, 0)
    assert {"switch", "switch e5", "switch f5"} <= set(legal)
    after = same_as_steps(state, 0, "switch e5", "switch", "switch e5")
    assert after.phase == "switch" and after.source == 40
    after, _texts = play(after, 0, "with f5")
    assert after.bomb[40] == C["blue"] and after.turn == 1


def test_a_landmine_and_a_tower_are_bought_and_laid_at_once() -> None:
    state = table(crystals=[10, 10])
    card(state, "e5", "green", 3, bomb="red", meeples=1, meeple="red")
    assert GAME.costs(state, 0)["landmine e5"] == "costs 2 crystals"
    after = same_as_steps(state, 0, "landmine e5", "landmine", "landmine e5")
    assert after.crystals[0] == 8 and after.mine[40] and after.phase == "act"
    after = same_as_steps(state, 0, "tower e5", "tower", "tower e5")
    assert after.crystals[0] == 8 and after.tower[40] and after.phase == "act"
    spent = table(crystals=[10, 10], bought_now=["landmine"])
    card(spent, "e5", "green", 3, bomb="red", meeples=1, meeple="red")
    refused(spent, 0, "landmine e5", IllegalMove, "Only one landmine a turn.")


def test_moving_meeples_names_the_first_move_with_its_card() -> None:
    state = table(phase="rolled", dice=[1, 1, 2, 0])
    card(state, "e5", "green", 4, meeples=3, meeple="red")
    card(state, "f5", "red", 3)
    card(state, "g5", "red", 3)
    legal = GAME.legal_moves(state, 0)
    assert {"from e5", "from e5 to f5", "from e5 to g5"} <= set(legal)
    after = same_as_steps(state, 0, "from e5 to g5", "from e5", "to g5")
    assert after.meeples[42] == 1 and after.phase == "rolled"
    refused(state, 0, "from e5 to h5", IllegalMove,
            "After 'from e5': There is no card on h5. After the roll: type 'done', 'to f5' "
            "(1 of 2) or 'reroll red' (1 of 7; costs 1 crystal).")


def test_steps_with_a_draw_between_them_are_refused_with_why() -> None:
    start = table(phase="start", deck=[card_code(C["red"], 1)])
    card(start, "e5", "green", 6)
    refused(start, 0, "draw place e4", IllegalMove,
            "'place e4' cannot be named with 'draw': the square card is drawn only after it, "
            "so you choose what follows then. Play 'draw' first.")
    placing = table(phase="place", held=[card_code(C["red"], 1), -1])
    card(placing, "e5", "green", 6)
    refused(placing, 0, "place e4 bomb e5", IllegalMove,
            "'bomb e5' cannot be named with 'place e4': the bomb is drawn only after it, so "
            "you choose what follows then. Play 'place e4' first.")
    bombing = table(phase="bomb", pending=C["red"])
    card(bombing, "e5", "green", 6)
    refused(bombing, 0, "bomb e5 meeple e5", IllegalMove,
            "'meeple e5' cannot be named with 'bomb e5': the meeple is drawn only after it, "
            "so you choose what follows then. Play 'bomb e5' first.")
    acting = table()
    card(acting, "e5", "green", 6, bomb="red", meeples=1)
    refused(acting, 0, "roll yellow from e5", IllegalMove,
            "'from e5' cannot be named with 'roll yellow': the dice are rolled only after it, "
            "so you choose what follows then. Play 'roll yellow' first.")
    refused(acting, 0, "done roll", IllegalMove,
            "'done' ends your turn, so 'roll' cannot follow it.")


def test_steps_not_listed_together_are_played_one_by_one() -> None:
    state = meeple_step(crystals=[10, 10])
    card(state, "g5", "blue", 2, meeples=1, meeple="red")
    assert "meeple e5" in GAME.legal_moves(state, 0)
    refused(state, 0, "meeple e5 buy meeple g5", IllegalMove,
            "'meeple e5' and 'buy meeple g5' are not joined in one move here: play "
            "'meeple e5', then 'buy meeple g5'.")


CHECKS_A_KIND = 25  # joined moves of each kind checked (every kind soon appears)


def test_every_joined_move_in_random_games_is_its_steps_one_by_one() -> None:
    """Over random games: each listed joined move's steps are legal in turn, the first shows
    nothing new, and playing it equals playing them (state and sentences)."""
    seen: Counter[str] = Counter()  # joined moves checked, by their steps' first words
    for players, seed in ((2, 21), (3, 22)):
        rng = random.Random(seed)
        state = GAME.new(players, seed)
        for _ in range(4000):
            if GAME.outcome(state) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(state)))
            moves = GAME.moves(state, seat)
            joined = [(m, d) for m, d in moves.items() if isinstance(d, Steps)]
            for move, detail in joined:
                kind = " ".join(single.split()[0] for single in detail.steps)
                if seen[kind] >= CHECKS_A_KIND:
                    continue
                seen[kind] += 1
                assert GAME._reveals(state, detail.steps[0]) == "", move
                assert GAME.parse(state, seat, move) == move
                after, _texts = play(state, seat, move)
                steps_state = state
                for single in detail.steps:
                    if single not in GAME.moves(steps_state, seat):  # a skip card fired
                        assert detail.steps[0] == "no buy" and steps_state.turn != seat
                        break
                    steps_state, _ = GAME.play(steps_state, seat, single)
                assert dumped(after) == dumped(steps_state), move
            state, _ = GAME.play(state, seat, rng.choice(list(moves)))
    assert {"meeple done", "switch switch", "landmine landmine", "from to", "from fly",
            "tower tower", "meeple roll", "meeple second", "no draw"} <= set(seen), seen


# --------------------------------------------------------------------------- issue 38


def test_the_next_players_own_move_answers_the_sale_with_no_buy() -> None:
    """At a sale, the player whose turn comes next may start it at once: 'draw' (or a
    placement, or 'sell') says 'no buy' and then does it, when the others have answered.
    'buy' and 'no buy' stay offered: the shop is skipped, never taken away."""
    state = table(3, phase="start", for_sale=[[K["bomb"], K["skip"], K["stop"]], [K["bomb"]], []],
                  deck=[card_code(C["red"], 1)] * 5)
    card(state, "e5", "red", 6)
    state, _ = play(state, 0, "sell")
    assert "draw" not in GAME.legal_moves(state, 1)  # Player 3 has not answered yet
    assert GAME.legal_moves(state, 2) == ["buy", "no buy"]  # not the next player
    state, _ = play(state, 2, "no buy")
    legal = GAME.legal_moves(state, 1)
    assert legal[:2] == ["buy", "no buy"] and "draw" in legal and "sell" in legal
    after = same_as_steps(state, 1, "draw", "no buy", "draw")
    assert after.turn == 1 and after.phase == "place" and after.held[1] >= 0
    assert GAME.parse(state, 1, normalize("no buy, then draw")) == "draw"
    assert GAME.costs(state, 1).get("draw") is None


def test_a_lose_a_turn_card_stops_the_move_after_no_buy() -> None:
    """The list does not tell whether a 'lose a turn' card is armed against the next
    player: 'draw' is offered either way, and one that fires ends the move at 'no buy'."""
    state = table(2, phase="start", for_sale=[[K["bomb"], K["skip"], K["stop"]], []],
                  deck=[card_code(C["red"], 1)] * 5)
    card(state, "e5", "red", 6)
    state, _ = play(state, 0, "sell")
    armed = GAME.load(GAME.dump(state))
    armed.armed = [[0, K["skip"], 1]]
    assert GAME.legal_moves(state, 1) == GAME.legal_moves(armed, 1)
    after, texts = play(armed, 1, "draw")
    assert "Player 2 does not buy." in texts and after.turn == 0 and after.held[1] < 0
    assert any("loses this turn" in t for t in texts)


def test_a_held_card_placed_for_a_price_at_a_sale_says_its_price() -> None:
    state = table(2, phase="start", for_sale=[[K["bomb"], K["skip"], K["stop"]], []],
                  held=[-1, card_code(C["red"], 4)], crystals=[5, 5])
    card(state, "e5", "red", 3)
    state, _ = play(state, 0, "sell")
    costs = GAME.costs(state, 1)
    assert costs["place e4"] == "costs 1 crystal" and costs["draw"] == \
        "sets your held card aside"
    after, texts = play(state, 1, "place e4")
    assert after.crystals[1] == 4 and after.sections[INDEX["e4"]] == 4
    assert "Player 2 does not buy." in texts


def test_the_challengers_own_move_says_no_challenge() -> None:
    """A won attack asks the next player whether to challenge; their own turn's first move
    ('draw') answers 'no challenge' and then draws. 'challenge' stays offered."""
    state = battle(2, red=6, crystals=[5, 10])
    state.deck = [card_code(C["red"], 1)] * 5
    state, _ = play(state, 0, "attack f5 from e5")
    force(state, 6)
    state, _ = play(state, 1, "bet 1")  # furthest by 5: toughness 5, below power 6
    assert state.phase == "challenge"
    legal = GAME.legal_moves(state, 1)
    assert legal[:2] == ["challenge", "no challenge"] and "draw" in legal
    assert GAME.notes(state, 1)["draw"] == "does not challenge"
    after = same_as_steps(state, 1, "draw", "no challenge", "draw")
    assert after.turn == 1 and after.phase == "place"
    assert GAME.parse(state, 1, normalize("no challenge then draw")) == "draw"
    assert GAME.notation_hint(state, 1).startswith(
        "The won attack: challenge it, or start your turn at once (that does not challenge)")


def test_the_meeple_and_the_extra_meeple_that_fills_its_card_in_one_command() -> None:
    """'meeple e5 buy meeple e5 roll': the drawn meeple, the bought one of its colour that
    fills the card (nothing drawn blind) and the roll its filled bomb now allows; offered
    while the bag holds one more of the colour, and played as the three steps are."""
    state = meeple_step(crystals=[10, 10])
    card(state, "g5", "red", 1, bomb="green")
    state.meeple_bag = [0, 0, 1, 0]  # the drawn red one is out of the bag: one red left
    legal = GAME.legal_moves(state, 0)
    assert "meeple e5 buy meeple e5 roll" in legal
    assert "meeple e5 buy meeple e5 done" not in legal  # e5's bomb can then attack g5
    assert "meeple f5 buy meeple f5 done" in legal  # blank f5 takes the red meeple first
    force(state, 6, 1, 1)
    after = same_as_steps(state, 0, "meeple e5 buy meeple e5 roll", "meeple e5",
                          "buy meeple e5", "roll")
    assert after.crystals[0] == 10 - 1 + 3 and after.phase == "rolled"
    state.meeple_bag = [0, 0, 0, 0]
    assert not any(" buy " in m for m in GAME.legal_moves(state, 0))


def test_a_refusal_inside_steps_named_together_says_after_once() -> None:
    """Three steps named together, the last refused: one 'After' naming the steps before."""
    state = meeple_step()
    card(state, "e5", "green", 3, bomb="red", meeples=1, meeple="red")
    card(state, "g5", "red", 1, bomb="green")
    assert "meeple e5 buy meeple e5 roll" in GAME.legal_moves(state, 0)
    refused(state, 0, "meeple e5 buy meeple e5 done", IllegalMove,
            "After 'meeple e5' and 'buy meeple e5': An attack is possible, so the turn "
            "cannot end without one: roll the dice, or skip them for a second square card or "
            "a bomb switch where you may. The dice step: type 'roll', 'second card', 'switch' "
            "(1 of 3), 'landmine' (1 of 3; costs 2 crystals), 'tower' (1 of 3; costs 2 "
            "crystals) or 'airplane' (costs 5 crystals).")


def test_a_word_of_another_step_names_the_step_even_on_an_empty_place() -> None:
    """'with d4' or 'landmine d4' at the meeple step is refused for the step, not for the
    place having no card (which would suggest 'with e5' might do); a word of this step on
    an empty place still says there is no card."""
    state = meeple_step()
    hint = "The meeple drawn: type 'meeple e5' (1 of 14) or 'redraw meeple' (costs 1 crystal)."
    for text in ("with d4", "landmine d4", "tower d4", "with e5"):
        refused(state, 0, text, IllegalMove,
                f"You can't '{text}' now: your turn is at placing the meeple you drew. {hint}")
    refused(state, 0, "meeple d4", IllegalMove, f"There is no card on d4. {hint}")
