"""The dice step and the battle: rolling, moving meeples, declaring an attack, the secret
bets on the green die, the challenge, and the settling.
"""

from __future__ import annotations

from rules.bomb_squares.state import (
    CELLS,
    COLOURS,
    COST,
    DATA,
    DICE,
    KINDS,
    MEEPLES,
    OPPOSITE,
    REWARD,
    SIZE,
    BombState,
    an,
    bomb_of,
    crystals,
    distances,
    draw_from,
    filled,
    gain,
    laid_cards,
    mark,
    pay,
    player,
    plural,
    put_meeple,
    transfer,
)
from rules.bomb_squares.tokens import complete_set
from rules.bomb_squares.turn import check_filled, end_turn, fire, how_full
from rules.core import Event, listing

# --------------------------------------------------------------------------- the dice

FACES = 6  # every die's highest face


def attackers(state: BombState) -> list[int]:
    """Filled cards with a bomb (or a token) that may attack."""
    return [c for c in range(SIZE * SIZE) if bomb_of(state, c) >= 0 and filled(state, c)]


def targets(state: BombState, seat: int, source: int, reach: int) -> list[int]:
    """Cards with the opposite bomb within ``reach`` of ``source``. A card whose token was
    laid this turn is not yet in play; a seat that has laid its tokens may not attack a
    token card."""
    want = OPPOSITE[bomb_of(state, source)]
    # cards are only ever laid beside a card, so without a limit every card is in reach
    near = distances(state, source, reach) if reach < SIZE * SIZE else laid_cards(state)
    return sorted(c for c in near if c != source and bomb_of(state, c) == want
                  and state.token[c] != 2 and not (state.token[c] and state.sets[seat]))


def any_attack(state: BombState, seat: int, reach: int = SIZE * SIZE) -> bool:
    return any(targets(state, seat, a, reach) for a in attackers(state))


def roll(state: BombState, which: tuple[str, ...]) -> None:
    for die in which:
        value = state.forced.pop(0) if state.forced else state.rng().randint(1, FACES)
        state.dice[("red", "blue", "yellow", "green").index(die)] = value


def dice_text(state: BombState, which: tuple[str, ...]) -> str:
    index = {"red": 0, "blue": 1, "yellow": 2, "green": 3}
    return listing([f"{d} {state.dice[index[d]]}" for d in which])


def start_roll(state: BombState, seat: int, which: tuple[str, ...], events: list[Event]
                ) -> None:
    fired = fire(state, seat, KINDS.index("stop"))
    if fired is not None:
        events.append(Event(f"{player(fired)} reveals a 'stop a dice roll' card: "
                            f"{player(seat)}'s roll is stopped and their turn ends.",
                            kind="card", data={"seat": fired, "target": seat}))
        end_turn(state, events)
        return
    roll(state, which)
    state.phase = "rolled"
    mark(state, seat, f"rolled {dice_text(state, which)}", [])
    events.append(Event(f"{player(seat)} rolls {dice_text(state, which)}"
                        f"{in_reach(state, seat)}.", kind="roll",
                        data={"dice": {d: state.dice[n] for n, d in enumerate(DICE)}}))


def in_reach(state: BombState, seat: int) -> str:
    """After red and blue are rolled: '', or that a target in reach must be attacked."""
    blue = state.dice[1]
    if not blue:
        return ""
    if any(targets(state, seat, a, blue) for a in attackers(state)):
        return ": a target is in reach, so an attack must be made (no meeple moves first)"
    return ": no target is in reach of the blue die"


def move_meeple(state: BombState, seat: int, target: int, by_air: bool,
                 events: list[Event]) -> None:
    """One meeple from the source card to ``target``; filling a card stops the moves and,
    when an attack is then possible, rolls every die again but yellow."""
    source = state.source
    colour = state.meeple_colour[source]
    state.meeples[source] -= 1
    state.moved += 1
    how, paid = "moves", ""
    if by_air:
        how, paid = "flies", " (the airplane's first use is free this turn)"
        if state.plane[seat] == 3:
            pay(state, seat, COST["airplane_fuel"])
            paid = f", paying {crystals(COST['airplane_fuel'])} of fuel"
        else:
            state.plane[seat] = 4
    put_meeple(state, target, colour)
    mark(state, seat, f"{how} a meeple {CELLS[source]}-{CELLS[target]}", [source, target])
    events.append(Event(f"{player(seat)} {how} a {MEEPLES[colour]} meeple from "
                        f"{CELLS[source]} to {CELLS[target]}{paid}{how_full(state, target)}.",
                        kind="move",
                        data={"seat": seat, "from": CELLS[source], "to": CELLS[target]}))
    if check_filled(state, seat, target, events):
        state.moving_over = True
        if any_attack(state, seat):
            roll(state, ("red", "blue"))
            events.append(Event(f"A card was filled and an attack is possible: red and blue "
                                f"are rolled again: {dice_text(state, ('red', 'blue'))}"
                                f"{in_reach(state, seat)}.", kind="roll"))


# --------------------------------------------------------------------------- the attack


def declare(state: BombState, seat: int, source: int, target: int,
             events: list[Event]) -> None:
    """The attack is on: every opponent holding crystals bets on the green die, in secret."""
    bets = [0 if s != seat and state.crystals[s] > 0 else -1 for s in range(state.players)]
    state.attack = {"attacker": seat, "from": source, "to": target, "power": state.dice[0],
                    "bets": bets, "green": 0, "toughness": 0, "furthest": [],
                    "won": False}
    mark(state, seat, f"attacks {CELLS[target]} from {CELLS[source]}", [source, target])
    token = (f" (attacking from a token card: a win clears {CELLS[source]} and destroys "
             "its token, which goes back to the supply)" if state.token[source] else "")
    events.append(Event(f"{player(seat)} attacks the {COLOURS[bomb_of(state, target)]} "
                        f"bomb on {CELLS[target]} from {CELLS[source]} with power "
                        f"{state.dice[0]}{token}.", kind="attack",
                        data={"seat": seat, "from": CELLS[source], "to": CELLS[target]}))
    if any(b == 0 for b in bets):
        state.phase = "bets"
        events.append(Event("Every opponent with crystals now bets in secret on the green "
                            "die (1 to 6): 'bet 4' and the like.", kind="attack"))
    else:
        roll_green(state, events)


def roll_green(state: BombState, events: list[Event]) -> None:
    """The green die against the bets: the furthest guess wins 2 crystals and sets the
    toughness (guess minus roll); without bets the roll itself is the toughness."""
    attack = state.attack
    assert attack is not None
    roll(state, ("green",))
    green = attack["green"] = state.dice[3]
    bettors = [s for s, b in enumerate(attack["bets"]) if b > 0]
    if bettors:
        far = max(abs(attack["bets"][s] - green) for s in bettors)
        attack["furthest"] = [s for s in bettors if abs(attack["bets"][s] - green) == far]
        attack["toughness"] = far
        guesses = listing([f"{player(s)} {attack['bets'][s]}" for s in bettors])
        only = len(bettors) == 1  # then the one guess is the furthest, however near
        events.append(Event(f"Green rolls {green}. The bet{'' if only else 's'}: {guesses}. "
                            f"The {'only' if only else 'furthest'} guess is {far} away, so "
                            f"the toughness is {far}.", kind="green",
                            data={"green": green, "bets": attack["bets"]}))
        for s in attack["furthest"]:
            gain(state, s, REWARD["furthest_guess"], "bets",
                  f"for the only guess, the furthest however near ({attack['bets'][s]})"
                  if only else
                  f"for the guess furthest from the green die ({attack['bets'][s]})", events)
    else:
        attack["toughness"] = green
        events.append(Event(f"Green rolls {green}: nobody bets, so the toughness is {green}.",
                            kind="green", data={"green": green}))
    if attack["toughness"] >= attack["power"]:
        events.append(Event(f"Toughness {attack['toughness']} holds against power "
                            f"{attack['power']}: the attack is lost, nothing is cleared, and "
                            "the turn ends.", kind="battle"))
        end_turn(state, events)
        return
    attack["won"] = True
    events.append(Event(f"Toughness {attack['toughness']} is below power {attack['power']}: "
                        "the attack is won, and the turn ends once it is paid.",
                        kind="battle"))
    challenger = (attack["attacker"] + 1) % state.players
    if state.crystals[challenger] >= DATA["challenge_minimum"] and any(state.meeple_bag):
        attack["challenger"] = challenger
        state.phase = "challenge"
        events.append(Event(f"{player(challenger)} may challenge the win (it costs "
                            f"{crystals(CHALLENGE_PRICE)}): 'challenge' or 'no challenge'.",
                            kind="challenge",
                            data={"seat": challenger}))
    else:
        settle(state, events)


CHALLENGE_PRICE = COST["challenge_bank"] + COST["challenge_attacker"]


def challenge(state: BombState, seat: int, events: list[Event]) -> None:
    """1 crystal to the bank, 1 to the attacker, and a meeple drawn: green and blue turn
    the win into a loss (blue also costs 5), red and yellow let it stand (yellow pays 3 and
    an extra meeple)."""
    attack = state.attack
    assert attack is not None
    attacker = attack["attacker"]
    pay(state, seat, COST["challenge_bank"])
    colour = draw_from(state, state.meeple_bag)
    state.meeple_bag[colour] += 1  # shown, then back in the bag
    drawn = MEEPLES[colour]
    events.append(Event(f"{player(seat)} challenges, paying {crystals(CHALLENGE_PRICE)}: "
                        f"{COST['challenge_bank']} to the bank and "
                        f"{COST['challenge_attacker']} to {player(attacker)}, and draws a "
                        f"{drawn} meeple (it goes back in the bag).", kind="challenge",
                        data={"seat": seat, "colour": drawn}))
    transfer(state, seat, attacker, COST["challenge_attacker"], "challenge")
    if drawn in ("green", "blue"):
        text = f"A {drawn} meeple: the battle is lost and nothing is cleared"
        if drawn == "blue":
            lost = min(COST["challenge_blue"], state.crystals[seat])
            pay(state, seat, lost)
            text += f"; {player(seat)} sacrifices {crystals(lost)} to the bank"
        else:
            text += f", and the turn goes to {player(seat)}"
        events.append(Event(text + ".", kind="battle", data={"seat": seat}))
        end_turn(state, events)
        return
    if drawn == "yellow":
        state.bonus[seat] = 1
        events.append(Event(f"A yellow meeple: the win stands, and {player(seat)} will place "
                            "an extra meeple of any colour on their next turn.",
                            kind="challenge", data={"seat": seat}))
        gain(state, seat, REWARD["challenge_yellow"], "challenge",
              "for drawing a yellow meeple in the challenge", events)
    else:
        events.append(Event("A red meeple: the win stands.", kind="challenge"))
    settle(state, events)


def settle(state: BombState, events: list[Event]) -> None:
    """A won attack pays out: crystals for the meeples on the attacked card (a token card:
    its sections and 5 more), its token, 1 more crystal to the furthest guess; both cards
    are cleared."""
    attack = state.attack
    assert attack is not None
    seat, source, target = attack["attacker"], attack["from"], attack["to"]
    token_card = bool(state.token[target])
    sections, meeples = state.sections[target], state.meeples[target]
    earnings = sections + REWARD["token_card"] if token_card else meeples
    colour = state.colour[target]
    named = COLOURS[colour]
    if state.sets[seat]:
        events.append(Event(f"{player(seat)} already holds a set of four, so wins no "
                            f"{named} token.", kind="token", data={"seat": seat}))
    elif token_card or state.token_supply[colour]:
        if not token_card:
            state.token_supply[colour] -= 1
        state.tokens[seat].append(colour)
        events.append(Event(f"{player(seat)} wins {an(named)} token for the attack on the "
                            f"{named} card on {CELLS[target]}" + (
                                ", the token that lay on it" if token_card else "") + ".",
                            kind="token", data={"seat": seat, "colour": named}))
    else:
        events.append(Event(f"No {named} token is left to win.", kind="token"))
    state.token[target] = 0
    events.append(Event(f"{CELLS[source]} and {CELLS[target]} are cleared: "
                        f"{_clearing(state, (source, target))}.", kind="spoils"))
    for cell in (source, target):
        _clear(state, cell)
    why = (f"for the token card on {CELLS[target]} ({sections} sections + "
           f"{REWARD['token_card']})" if token_card else
           f"for the {plural(meeples, 'meeple')} on {CELLS[target]}")
    gain(state, seat, earnings, "attack", why, events)
    for s in attack["furthest"]:
        gain(state, s, REWARD["furthest_guess_won"], "bets",
              "more for the furthest guess, as the attack was won", events)
    if complete_set(state, seat, events):
        return
    end_turn(state, events)


def _clearing(state: BombState, cells: tuple[int, ...]) -> str:
    """What clearing ``cells`` sends where: 'meeples and bombs go back to their bags, a
    lookout tower to the shop, a landmine out of the game'."""
    meeples = sum(state.meeples[c] for c in cells)
    bombs = sum(state.bomb[c] >= 0 for c in cells)
    towers = sum(state.tower[c] for c in cells)
    mines = sum(bool(state.mine[c]) for c in cells)
    parts = [f"{plural(meeples, 'meeple')} and {plural(bombs, 'bomb')} go back to "
             "their bags"]
    if towers:
        parts.append(f"{plural(towers, 'lookout tower')} to the shop")
    if mines:
        parts.append(f"{plural(mines, 'landmine')} out of the game")
    if state.token[cells[0]]:  # the attacker's own token card: its token is destroyed
        parts.append(f"the {COLOURS[state.colour[cells[0]]]} token on {CELLS[cells[0]]} "
                     "back to the supply (it attacked, so its token is destroyed)")
    return listing(parts)


def _clear(state: BombState, cell: int) -> None:
    """Everything on a card goes back for reuse, but a landmine, which leaves the game."""
    if state.meeples[cell]:
        state.meeple_bag[state.meeple_colour[cell]] += state.meeples[cell]
    if state.bomb[cell] >= 0:
        state.bomb_bag[state.bomb[cell]] += 1
    if state.tower[cell]:
        state.towers += 1
    if state.token[cell]:
        state.token_supply[state.colour[cell]] += 1
    state.meeples[cell], state.meeple_colour[cell], state.bomb[cell] = 0, -1, -1
    state.mine[cell], state.tower[cell], state.token[cell] = 0, False, 0
