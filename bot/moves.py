"""A seat's legal moves as players browse them: what each costs, free moves first, and lists
that narrow word by word.

Every surface that lists moves uses this: ``/play``'s suggestions (25 at most), the move
buttons (10), the terminal's ``moves``. Where more moves match than fit, they are grouped by
the next word a player would type, with how many moves start that way
(``place 1 … 120 moves``), so each word typed narrows the list and the same entries never
come back. Pure functions of the move list; nothing here knows a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.words import say
from rules.core import normalize, quote

PRICE = " · "  # between a move and what it costs, in a label: 'place 4o at a1 · 1 skip: -2'
MORE = " … "  # between the start of several moves and how many: 'place 1 … 120 moves'


@dataclass(frozen=True)
class Entry:
    """One line of a list: a whole move, or the words several moves begin with."""

    text: str  # what the player types: a whole move, or the start of ``count`` moves
    count: int = 1
    cost: str = ""  # what a whole move costs, or every move of a group ('' when free)
    note: str = ""  # what a whole move does, in a few words ('covers c4 c5 d4'), or ''

    @property
    def whole(self) -> bool:
        return self.count == 1

    def label(self, limit: int | None = None) -> str:
        """'place 1 … 120 moves', 'place 4o at a1 · 1 skip: -2', '4o r0 a1 · covers a1 a2
        b1 b2', or the move itself. Within ``limit`` characters (a suggestion's, a
        button's) the note gives way, cut after a word, so that the move and its cost are
        always read whole."""
        if not self.whole:  # with what every move of the group costs, where it is one price
            group = say("moves.group", move=self.text, count=self.count)
            priced = PRICE.join(part for part in (group, self.cost) if part)
            return priced if limit is None or len(priced) <= limit else group
        whole = PRICE.join(part for part in (self.text, self.note, self.cost) if part)
        if limit is None or len(whole) <= limit:
            return whole
        bare = PRICE.join(part for part in (self.text, self.cost) if part)
        room = limit - len(bare) - len(PRICE) - 1  # for the note and its ellipsis
        if room < 8:
            return bare[:limit]
        note = self.note[:room + 1]
        note = (note[:note.rfind(" ")] if " " in note else note[:room]).rstrip(" ,;:") + "…"
        return PRICE.join(part for part in (self.text, note, self.cost) if part)


@dataclass(frozen=True)
class Choices:
    """A seat's legal moves, free ones first (each part in the game's order: that of its
    ``notes`` where it gives them), what the costly ones cost and what each does."""

    moves: list[str] = field(default_factory=list)
    costs: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    why: str = ""  # why there are none, in a sentence (not seated, not awaited, no game)

    @classmethod
    def of(cls, legal: list[str], costs: dict[str, str],
           notes: dict[str, str] | None = None, *, beside: bool = False) -> Choices:
        """``beside`` (the game's ``costly_beside``): a costly move that begins with a free
        move ('meeple e5 buy meeple e5 roll', 'meeple e5') follows the free moves that begin
        so, instead of going after every free move."""
        notes = notes or {}
        known = set(legal)
        order = [m for m in notes if m in known] + [m for m in legal if m not in notes]
        free = [m for m in order if m not in costs]
        if not beside:
            return cls(free + [m for m in order if m in costs], costs, notes)
        rank = {m: i for i, m in enumerate(free)}

        def place(move: str) -> tuple[int, int]:  # after the last free move of its head
            if move in rank:
                return rank[move], 0
            words = move.split()
            head = next((h for n in range(len(words) - 1, 0, -1)
                         if (h := " ".join(words[:n])) in rank), None)
            return (len(free) if head is None else max(
                i for f, i in rank.items() if f == head or f.startswith(head + " ")), 1)
        return cls(sorted(order, key=place), costs, notes)  # stable: ties keep their order

    def entry(self, move: str) -> Entry:
        return Entry(move, 1, self.costs.get(move, ""), self.notes.get(move, ""))

    def matching(self, typed: str) -> list[str]:
        """The moves that begin with what is typed (its last word may be unfinished); if
        none does, those with every typed word at the start of one of theirs."""
        words = normalize(typed).split()
        if not words:
            return list(self.moves)
        begun = [m for m in self.moves if _begins(m.split(), words)]
        if begun:
            return begun
        return [m for m in self.moves
                if all(any(part.startswith(w) for part in m.split()) for w in words)]

    def narrow(self, typed: str, limit: int) -> list[Entry]:
        """At most ``limit`` entries for what is typed: every matching move when they fit,
        else groups by the next word to type (or, when even those are too many, by as many
        of its first letters as fit), each group with its count."""
        found = self.matching(typed)
        if len(found) <= limit:
            return [self.entry(m) for m in found]
        split = [m.split() for m in found]
        depth = _shared(split)
        groups = _groups(found, split, depth, None)
        if len(groups) > limit:
            longest = max(len(words[depth]) for words in split if len(words) > depth)
            groups = next((g for letters in range(longest - 1, 0, -1)
                           if len(g := _groups(found, split, depth, letters)) <= limit),
                          _groups(found, split, depth, 1))
        groups = _opened(groups, limit)
        return [self.entry(moves[0]) if len(moves) == 1 else Entry(text, len(moves),
                                                                  self._shared_cost(moves))
                for text, moves in list(groups.items())[:limit]]

    def _shared_cost(self, moves: list[str]) -> str:
        """What each of ``moves`` costs, where that is one price for them all; else ''."""
        prices = {self.costs.get(m, "") for m in moves}
        return prices.pop() if len(prices) == 1 else ""

    def example(self) -> tuple[str, int] | None:
        """The first words of a move that narrow this list to some of its moves (two or
        more, not all; the fewest words; the first met that leave at most half the list,
        else those that leave the fewest), with how many they leave: a real example for a
        guide or a help line. None when no such words exist."""
        total = len(self.moves)
        for depth in (1, 2, 3):
            starts = dict.fromkeys(" ".join(m.split()[:depth]) for m in self.moves
                                   if len(m.split()) > depth)
            counts = [(words, len(self.matching(words))) for words in starts]
            fit = [(words, n) for words, n in counts if 2 <= n < total]
            # at most half the list where some words do that, else the fewest moves
            half = [(words, n) for words, n in fit if n <= total // 2]
            if half or fit:
                return half[0] if half else min(fit, key=lambda found: found[1])
        return None

    def unfinished(self, typed: str) -> str | None:
        """A sentence for text that only begins several moves ('place 1'), naming what may
        follow; None when it is not the start of any move."""
        words = normalize(plain(typed)).split()
        begun = [m for m in self.moves
                 if words and _begins(m.split(), words, whole=True) and m != " ".join(words)]
        if not begun:
            return None
        nexts = list(dict.fromkeys(m.split()[len(words)] for m in begun
                                   if len(m.split()) > len(words)))
        def said(word: str) -> str:  # with its cost where it ends a costly move
            cost = self.costs.get(" ".join([*words, word]))
            return f"{quote(word, 12)} ({cost})" if cost else quote(word, 12)

        fields = {"typed": quote(" ".join(words), 40), "count": len(begun),
                  "nexts": ", ".join(said(w) for w in nexts[:6]),
                  "example": quote(begun[0], 60)}
        if len(nexts) > 6:
            return say("moves.unfinished_more", more=len(nexts) - 6, **fields)
        return say("moves.unfinished", **fields)


def plain(typed: str) -> str:
    """A move as typed, without what a label adds to it (its cost, or a group's count):
    Discord may send a suggestion's label instead of its value."""
    for mark in (PRICE, MORE):
        typed = typed.split(mark)[0]
    return typed


def _begins(words: list[str], typed: list[str], *, whole: bool = False) -> bool:
    """Whether ``words`` begin with ``typed``, whose last word may be unfinished (unless
    ``whole``)."""
    if len(typed) > len(words):
        return False
    *done, last = typed
    return words[: len(done)] == done and (
        words[len(done)] == last or (not whole and words[len(done)].startswith(last)))


def _shared(split: list[list[str]]) -> int:
    """How many leading words every move shares."""
    n = 0
    while all(len(words) > n and words[n] == split[0][n] for words in split):
        n += 1
    return n


def _opened(groups: dict[str, list[str]], limit: int) -> dict[str, list[str]]:
    """The groups each opened by the word that follows, in place, as long as all of them
    together still fit in ``limit`` ('meeple … 26 moves' beside 'redraw meeple' becomes a
    group a card): the first list says more before anything is typed."""
    while True:
        inner: dict[str, list[str]] = {}
        for text, moves in groups.items():
            depth = len(text.split())
            whole = text.split()[-1] == moves[0].split()[depth - 1]  # not first letters
            inner.update(_groups(moves, [m.split() for m in moves], depth, None)
                         if len(moves) > 1 and whole else {text: moves})
        if len(inner) == len(groups) or len(inner) > limit:
            return groups
        groups = inner


def _groups(found: list[str], split: list[list[str]], depth: int, letters: int | None
            ) -> dict[str, list[str]]:
    """The moves by their first ``depth`` words and the next word (or its first
    ``letters`` letters), in the order first met."""
    groups: dict[str, list[str]] = {}
    for move, words in zip(found, split, strict=True):
        key = words[: depth + 1]
        if letters is not None and len(words) > depth:
            key = [*words[:depth], words[depth][:letters]]
        groups.setdefault(" ".join(key), []).append(move)
    return groups
