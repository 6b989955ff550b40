"""The words of Bomb Squares' moves: verbs, aliases and fillers, what each step did, what a
step reveals, prices by verb, and the leads and steps the hints name.
"""

from __future__ import annotations

from rules.bomb_squares.state import COST

# --------------------------------------------------------------------------- the game

DONE = {"draw": "drew a square card", "continue": "had no square card to place",
        "sell": "sold mint tin cards", "keep": "kept the square card back",
        "done": "ended the turn", "second card": "placed a second square card",
        "switch": "switched a bomb", "airplane": "bought an airplane",
        "landmine": "bought a landmine", "tower": "bought a lookout tower"}
DID = {"from": "chose {} to move meeples from", "switch": "picked the bomb on {} to switch",
       "redraw": "redrew the {}", "reroll": "rerolled {}", "card": "played a '{}' card",
       "bonus": "took a bonus {} meeple"}


def done(move: str) -> str:
    """The last move as the picture's header says it: 'drew a square card'."""
    verb, _, rest = move.partition(" ")
    if move in DONE:
        return DONE[move]
    return DID[verb].format(rest) if verb in DID else f"played '{move}'"


VERBS = {"draw", "sell", "continue", "keep", "place", "bomb", "meeple", "redraw", "clear",
         "roll", "done", "second", "switch", "with", "landmine", "tower", "airplane",
         "unmine", "buy", "card", "arm", "bonus", "attack", "from", "to", "fly", "reroll",
         "bet", "challenge", "no", "token"}
ALIASES = {"pass": "done", "end": "done", "plane": "airplane", "mine": "landmine",
           "play": "card", "use": "card", "put": "place", "remove": "unmine", "guess": "bet",
           "lay": "place"}
FILLERS = {"on", "the", "a", "an", "at", "of", "then", "and"}
# How each step is written, for a text that begins one of the step's examples ('buy
# meeple') and leaves out the rest.
FORMS: dict[str, str] = {
    "place": "as 'place d5'", "bomb": "as 'bomb e5'",
    "meeple": "as 'meeple e5'", "clear": "as 'clear e5'",
    "switch": "as 'switch' or 'switch e5'", "with": "as 'with bag' or 'with f6'",
    "landmine": "as 'landmine' or 'landmine e5'",
    "tower": "as 'tower' or 'tower e5'", "unmine": "as 'unmine e5'",
    "from": "as 'from e5'", "to": "as 'to f6'", "fly": "as 'fly f6'",
    "token": "as 'token c3'", "redraw": "as 'redraw bomb' or 'redraw meeple'",
    "second": "as 'second card'", "no": "as 'no buy' or 'no challenge'",
    "buy": "as 'buy' (at a sale) or 'buy meeple e5'", "bonus": "as 'bonus red'",
    "card": "as 'card crystals'", "arm": "as 'arm skip player 2'",
    "attack": "as 'attack f5 from e5'",
    "reroll": "with red, blue or yellow: 'reroll red blue'", "bet": "as 'bet 3'"}
# what the game draws, rolls or shows after a step, so that no choice is named with it
MOST_STEPS = 3  # steps read from one text; the joined moves listed have 2
REVEALS = {"draw": "the square card is drawn", "place": "the bomb is drawn",
           "continue": "the meeple is drawn", "bomb": "the meeple is drawn",
           "redraw": "the new draw is made", "roll": "the dice are rolled",
           "reroll": "the dice are rolled", "second": "the square card is drawn",
           "card": "the card's draw is made", "sell": "the others answer",
           "attack": "the others bet and the green die is rolled",
           "bet": "the green die is rolled", "challenge": "the challenge's meeple is drawn",
           "no": "the others answer", "buy": "the meeple or the card is drawn",
           "with": "the new bomb is drawn"}
ENDS = {"done", "keep"}  # steps that end the turn outright
# answers that the next player's own first move gives by moving on (issue 38), as lists
# say it beside that move
ANSWERS = {"no buy": "buys nothing at this sale", "no challenge": "does not challenge"}


# what a move costs in crystals: the whole move ('landmine' buys one; 'landmine c3' lays it,
# free; 'buy' alone buys at a sale), or any move of a first word ('unmine c3')
PRICES = {"landmine": COST["landmine"], "tower": COST["lookout_tower"],
          "airplane": COST["airplane"], "buy": COST["card_sale"]}
PRICES_BY_VERB = {"redraw": COST["do_over"], "unmine": COST["landmine_removal"]}
LEADS = {"start": "Start your turn", "place": "Your drawn square card",
         "bomb": "The bomb drawn", "meeple": "The meeple drawn", "act": "The dice step",
         "rolled": "After the roll", "switch": "The bomb switch", "sale": "The sale",
         "challenge": "The won attack", "tokens": "Your set of tokens",
         "landmine": "Your landmine", "tower": "Your lookout tower"}

# The step the game is at, for a move of another step: why it is refused now.
STEPS = {"start": "your turn is at its start (draw a square card, or sell, first)",
         "place": "your turn is at placing the square card you drew",
         "bomb": "your turn is at putting the bomb you drew on a card",
         "meeple": "your turn is at placing the meeple you drew",
         "act": "your turn is at the dice step (roll first for an attack or a move of "
                "meeples; or shop, play a bought card or end the turn)",
         "rolled": "your turn is after the roll (attack, or move meeples with the yellow "
                   "die)",
         "switch": "your turn is at the bomb switch (choose the bomb to take)",
         "sale": "the table is at a sale of mint tin cards (everyone answers it first)",
         "bets": "the table is at the bets on the green die (everyone bets first)",
         "challenge": "the table is at the challenge of a won attack",
         "tokens": "your turn is at your set of tokens",
         "landmine": "your turn is at placing the landmine you bought",
         "tower": "your turn is at placing the lookout tower you bought"}
