"""A league as JSON and back (``dumps``, ``loads``): the form the service stores it in
(``store.leagues``' ``state``), the same league after a round trip."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from bot.leagues.records import Entry, League, Result, Round, Settings


def to_data(league: League) -> dict[str, Any]:
    """The league as plain data (lists, numbers, strings)."""
    data = asdict(league)
    for result in data["results"]:
        result["forfeited"] = sorted(result["forfeited"])
    return data


def from_data(data: dict[str, Any]) -> League:
    settings = Settings(**data["settings"])
    entries = tuple(Entry(**{**e, "former": tuple(e["former"])}) for e in data["entries"])
    rounds = tuple(Round(r["number"], tuple(tuple(t) for t in r["tables"]), tuple(r["byes"]),
                         r["rematches"]) for r in data["rounds"])
    results = tuple(Result(r["round"], tuple(r["players"]), tuple(r["places"]),
                           None if r["scores"] is None else tuple(r["scores"]),
                           frozenset(r["forfeited"])) for r in data["results"])
    return League(settings, entries, rounds, results)
