"""The contract with the real Discord: every request the bot made on SimCord, checked.

SimCord accepts much that Discord refuses, so every SimCord environment the tests make is
run through ``run`` (or ``checked``) here, and at its end every REST request the bot sent
and every interaction response is checked against Discord's own OpenAPI specification
(``tests/discord_api/openapi.json``, a copy of ``specs/openapi.json`` of
``discord/discord-api-spec``; see ``NOTICE.md`` for the commit and how to update it):

1. **The operation exists**: a path template of the specification matches the method and
   path (``/api/v10`` left off), its path parameters fit their schemas (a snowflake is
   digits) and every query parameter is one the operation declares (their values are not
   checked: discord.py sends booleans as 0 and 1, which Discord reads).
2. **The body validates** against the operation's ``application/json`` request schema
   (for a multipart upload, discord.py's ``payload_json``, which SimCord parses), with
   ``jsonschema``'s Draft 2020-12 validator and a ``referencing`` registry holding the
   whole specification, so ``#/components/schemas/...`` resolves.
3. **Discord's documented limits the schema does not carry** (``bot/discord/limits.py``,
   pure functions the bot uses too): command registrations (``command_problems``),
   autocomplete answers (``choices_problems``), every message the bot posts or edits in a
   channel or a DM, as a webhook follow-up or an interaction's response
   (``message_problems``: content, embeds, custom ids, labels, selects, action rows,
   Components V2, ``attachment://`` names) and whom it may ping (``mention_problems``).

Whom a message may ping (``mention_problems``), the rule: every message body that has
text (content, components or embeds; a new message or an edit, in a channel, a DM, an
interaction's answer or a follow-up) carries ``allowed_mentions``; its ``parse`` names
neither ``everyone`` nor ``roles`` and ``roles`` lists none (the bot pings members only);
a member is pinged only by being listed in ``users``: ``parse: ["users"]`` is a failure
wherever the text mentions someone ``<@id>``, since it would ping them unlisted, and
``users`` lists only members the text mentions (a list that drifted from the text). A member
the text mentions and ``users`` does not list is shown as a mention and not pinged: that
is how a turn message names a player without pinging them again.

A kept attachment (``{"id": snowflake, ...}`` in ``attachments`` on an edit) is known by
the filename discord.py sends with it (``Attachment.to_dict``); one without a filename
cannot be matched to an ``attachment://`` name and fails, saying so.

What the specification gets only in letter wrong is excused in ``EXCUSES`` below, and
nowhere else: each excuse names the JSON-schema keyword and the case it excuses, and
why. A check is never switched off wholesale.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import referencing
import simcord
from jsonschema.exceptions import ValidationError, best_match
from referencing.jsonschema import DRAFT202012

from bot.discord.limits import (
    choices_problems,
    command_problems,
    component_problems,
    mention_problems,
    message_problems,
)

SPEC = Path(__file__).parent / "discord_api" / "openapi.json"
URI = "urn:discord-api-spec"  # the specification's base URI in the registry
SHOWN = 12  # problems spelled out in a failure (then "and N more")


# --------------------------------------------------------------------------- excuses


@dataclass
class Excuse:
    """A disagreement with the specification in letter only: a ``keyword``'s error where
    ``applies(schema, instance)``, and why Discord accepts it all the same."""

    keyword: str
    applies: Callable[[Mapping[str, Any], Any], bool]
    reason: str


EXCUSES: tuple[Excuse, ...] = (
    Excuse(
        "type",
        lambda schema, value: schema.get("format") == "snowflake"
        and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 64,
        "A snowflake sent as a JSON integer (discord.py sends user ids in allowed_mentions, "
        "attachment ids and an upload's index as integers); the specification types "
        "snowflakes as strings of digits, and Discord's API takes either."),
)


def _excusing(keyword: str, check: Any) -> Any:
    """``keyword``'s validator function, quiet where an excuse applies."""
    excuses = [e for e in EXCUSES if e.keyword == keyword]

    def validate(validator: Any, value: Any, instance: Any, schema: Mapping[str, Any]
                 ) -> Iterator[ValidationError]:
        for excuse in excuses:
            if excuse.applies(schema, instance):
                return
        yield from check(validator, value, instance, schema)
    return validate


# The specification writes its enums as a oneOf of consts (a component's type among 20)
# and its unions of objects as a oneOf of schemas told apart by their "type" property
# (the seven kinds of a message's component): jsonschema tries every branch, which made a
# turn message cost 9 ms. Two shortcuts keep the validator's own oneOf and anyOf and only
# leave out the branches that cannot hold: a const that differs from the value, and an
# object schema whose required "type" property's enum does not hold the value's type. The
# number of branches that hold is unchanged, so is the verdict (tests/test_contract.py
# compares it with the plain validator); the errors come from the branches that could
# hold, which also makes them name the field that is wrong.

Tag = tuple[str, Any]  # ("const", value) | ("tag", the types' values) | ("any", None)
_tags: dict[int, tuple[Any, list[Tag]]] = {}


def _resolved(schema: Any) -> Any:
    while isinstance(schema, dict) and set(schema) == {"$ref"}:
        schema = spec().resolver.lookup(schema["$ref"]).contents
    return schema


def _tag(branch: Any) -> Tag:
    schema = _resolved(branch)
    if not isinstance(schema, dict):
        return ("any", None)
    if "const" in schema and isinstance(schema["const"], int | str) \
            and not isinstance(schema["const"], bool) \
            and set(schema) <= {"const", "title", "description"}:
        return ("const", schema["const"])
    kind = (schema.get("properties") or {}).get("type")
    if schema.get("type") == "object" and "type" in (schema.get("required") or ()) \
            and isinstance(kind, dict) and isinstance(kind.get("enum"), list):
        return ("tag", tuple(kind["enum"]))
    return ("any", None)


def _may_hold(tag: Tag, instance: Any) -> bool:
    kind, value = tag
    if kind == "const":
        return _equal(instance, value)
    if kind == "tag":
        return isinstance(instance, dict) and "type" in instance \
            and any(_equal(instance["type"], v) for v in value)
    return True


def _equal(a: Any, b: Any) -> bool:
    """Equal as JSON Schema's const and enum see it (1 == 1.0, True != 1)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and bool(a == b)


def _pruning(check: Any) -> Any:
    """oneOf's or anyOf's validator function, given only the branches that may hold."""

    def validate(validator: Any, branches: list[Any], instance: Any,
                 schema: Mapping[str, Any]) -> Iterator[ValidationError]:
        known = _tags.get(id(branches))
        if known is None or known[0] is not branches:
            known = _tags[id(branches)] = (branches, [_tag(b) for b in branches])
        kept = [b for b, t in zip(branches, known[1], strict=True) if _may_hold(t, instance)]
        if not kept:
            yield ValidationError(f"{_short(repr(instance), 80)} is not valid under any of "
                                  f"the given schemas")
            return
        yield from check(validator, kept, instance, schema)
    return validate


_plain = jsonschema.Draft202012Validator.VALIDATORS
Unpruned = jsonschema.validators.extend(  # Draft 2020-12 with the excuses
    jsonschema.Draft202012Validator,
    validators={k: _excusing(k, _plain[k]) for k in {e.keyword for e in EXCUSES}})
Validator = jsonschema.validators.extend(  # and the shortcuts: what the contract uses
    Unpruned, validators={k: _pruning(Unpruned.VALIDATORS[k]) for k in ("oneOf", "anyOf")})


# --------------------------------------------------------------------------- the spec


@dataclass(frozen=True)
class Operation:
    """One operation of the specification: its method, path template and parts."""

    method: str
    template: str
    pointer: str  # JSON pointer of the operation in the specification
    body: Any | None  # the application/json request schema, or None
    body_required: bool
    path_params: dict[str, str]  # name -> JSON pointer of its schema
    query_params: frozenset[str]


class Spec:
    """Discord's specification, its operations by method and validators made once."""

    def __init__(self, path: Path = SPEC) -> None:
        self.document = json.loads(path.read_text(encoding="utf-8"))
        resource = referencing.Resource.from_contents(
            self.document, default_specification=DRAFT202012)
        self.registry: referencing.Registry[Any] = referencing.Registry().with_resource(
            URI, resource).crawl()
        self.resolver = self.registry.resolver(URI)
        # (method, number of segments) -> the templates' segments and operations
        self.routes: dict[tuple[str, int], list[tuple[list[str], Operation]]] = {}
        for template, item in self.document["paths"].items():
            at = "/paths/" + _escape(template)
            shared = [(p, f"{at}/parameters/{i}/schema")
                      for i, p in enumerate(item.get("parameters") or [])]
            for method, op in item.items():
                if method == "parameters":
                    continue
                pointer = f"{at}/{method}"
                params = [*shared, *((p, f"{pointer}/parameters/{i}/schema")
                                     for i, p in enumerate(op.get("parameters") or []))]
                body = op.get("requestBody") or {}
                parts = template.strip("/").split("/")
                self.routes.setdefault((method.upper(), len(parts)), []).append((
                    parts,
                    Operation(method.upper(), template, pointer,
                              (body.get("content") or {}).get("application/json"),
                              bool(body.get("required")),
                              {p["name"]: where for p, where in params
                               if p.get("in") == "path" and "schema" in p},
                              frozenset(p["name"] for p, _ in params
                                        if p.get("in") == "query"))))
        self._validators: dict[str, Any] = {}

    def operation(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation for ``method`` and ``path`` (the most literal template wins, as
        ``/messages/@original`` over ``/messages/{message_id}``) and its path parameters."""
        segments = path.strip("/").split("/")
        best: tuple[int, Operation, dict[str, str]] | None = None
        for template, op in self.routes.get((method, len(segments)), ()):
            args: dict[str, str] = {}
            literals = 0
            for part, segment in zip(template, segments, strict=True):
                if part.startswith("{") and part.endswith("}"):
                    args[part[1:-1]] = segment
                elif part == segment:
                    literals += 1
                else:
                    break
            else:
                if best is None or literals > best[0]:
                    best = (literals, op, args)
        return None if best is None else (best[1], best[2])

    def validator(self, pointer: str) -> Any:
        """A validator of the schema at ``pointer`` in the specification (made once)."""
        found = self._validators.get(pointer)
        if found is None:
            found = self._validators[pointer] = Validator(
                {"$ref": f"{URI}#{pointer}"}, registry=self.registry)
        return found


def _escape(template: str) -> str:
    return template.replace("~", "~0").replace("/", "~1")


@cache
def spec() -> Spec:
    """The specification, read once a process."""
    return Spec()


# --------------------------------------------------------------------------- checking


def problems(requests: Iterable[simcord.HttpLogEntry]) -> list[str]:
    """Every way ``requests`` break the contract, each naming the request and the field."""
    found: list[str] = []
    for request in requests:
        found += [f"{request.method} {request.path}: {p}" for p in request_problems(request)]
    return found


def request_problems(request: simcord.HttpLogEntry) -> list[str]:
    """What Discord would refuse in one request (empty if nothing)."""
    the = spec()
    matched = the.operation(request.method, request.path)
    if matched is None:
        return ["Discord's API has no such operation (no path template of its "
                "specification matches the method and path)."]
    op, args = matched
    found: list[str] = []
    for name, value in args.items():
        pointer = op.path_params.get(name)
        if pointer is not None:
            found += [f"path parameter {name} of {op.template}: {p}"
                      for p in _value_problems(pointer, value)]
    found += [f"query parameter {name!r} is not one {op.method} {op.template} takes."
              for name in request.params if name not in op.query_params]
    body = request.json
    if op.body is None:
        if body is not None:
            found.append(f"a body, where {op.method} {op.template} takes none.")
        return found
    if body is None:
        if op.body_required:
            found.append(f"no body, where {op.method} {op.template} requires one.")
        return found
    key = (op.pointer, json.dumps(body, sort_keys=True))
    known = _bodies.get(key)
    if known is None:  # the same body again (a command registration, a deferral): once
        if len(_bodies) > CACHED:
            _bodies.clear()
        known = _bodies[key] = _schema_problems(op, body) + limit_problems(op, body)
    return found + known


CACHED = 20_000  # bodies whose verdict is kept (then the cache starts again)
_bodies: dict[tuple[str, str], list[str]] = {}


@cache
def _value_problems(pointer: str, value: str) -> list[str]:
    """What the schema at ``pointer`` finds wrong with a path parameter's ``value``."""
    return [_short(e.message) for e in spec().validator(pointer).iter_errors(value)]


def _schema_problems(op: Operation, body: Any) -> list[str]:
    """Where ``body`` breaks the operation's request schema: for each error, the deepest
    one that explains it (in a union, the branch the body meant), its JSON path and the
    keyword it breaks."""
    validator = spec().validator(op.pointer + "/requestBody/content/application~1json/schema")
    found = []
    for error in validator.iter_errors(body):
        deepest = best_match([error])
        keyword = "" if deepest.validator in ("oneOf", "anyOf", "$ref") else \
            f" ({deepest.validator}: {_short(json.dumps(deepest.validator_value), 60)})"
        found.append(f"{deepest.json_path}: {_short(deepest.message)}{keyword}")
    return found


COMMANDS = re.compile(r"^/applications/\{[^}]+\}(/guilds/\{[^}]+\})?/commands$")
MESSAGES = {("POST", "/channels/{channel_id}/messages"): False,
            ("PATCH", "/channels/{channel_id}/messages/{message_id}"): True,
            ("POST", "/webhooks/{webhook_id}/{webhook_token}"): False,
            ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): True,
            ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): True}
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
CHANNEL_MESSAGE, UPDATE_MESSAGE, AUTOCOMPLETE, MODAL = 4, 7, 8, 9
MODAL_TITLE = 45


def limit_problems(op: Operation, body: Any) -> list[str]:
    """The documented limits the schema does not carry (``bot/discord/limits.py``)."""
    if COMMANDS.match(op.template) and op.method in ("PUT", "POST"):
        return command_problems(body if isinstance(body, list) else [body])
    edit = MESSAGES.get((op.method, op.template))
    if edit is not None:
        return _message(body, edit=edit, path="$")
    if (op.method, op.template) != ("POST", CALLBACK):
        return []
    data = body.get("data") or {}
    kind = body.get("type")
    if kind == AUTOCOMPLETE:
        return choices_problems(data.get("choices") or [], "$.data.choices")
    if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
        return _message(data, edit=kind == UPDATE_MESSAGE, path="$.data")
    if kind == MODAL:
        found = [_rebase(p, "$.data") for p in component_problems(
            data.get("components") or [], "$.components")]
        title = str(data.get("title") or "")
        if not 1 <= len(title) <= MODAL_TITLE:
            found.append(f"$.data.title: {len(title)} characters; Discord allows "
                         f"1-{MODAL_TITLE}.")
        return found
    return []


def _message(body: Mapping[str, Any], *, edit: bool, path: str) -> list[str]:
    found = message_problems(body, edit=edit)
    if any(body.get(key) is not None for key in ("content", "components", "embeds")):
        found += mention_problems(body)
    return [_rebase(p, path) for p in found]


def _rebase(problem: str, path: str) -> str:
    return path + problem[1:] if problem.startswith("$") else problem


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def check(requests: Iterable[simcord.HttpLogEntry]) -> None:
    """Fail (``AssertionError``) with every way ``requests`` break the contract. With
    ``BOARDROOM_CONTRACT_TIMES=FILE`` set, each check appends to FILE a line: the number
    of requests checked and the seconds it took (to measure what the contract costs)."""
    began = time.perf_counter()
    requests = list(requests)
    found = problems(requests)
    if os.environ.get("BOARDROOM_CONTRACT_TIMES"):
        with open(os.environ["BOARDROOM_CONTRACT_TIMES"], "a", encoding="utf-8") as out:
            out.write(f"{len(requests)} {time.perf_counter() - began:.4f}\n")
    if found:
        shown = Counter(found)
        lines = [f"  {p}" + (f"  (x{n})" if n > 1 else "") for p, n in shown.items()]
        more = len(lines) - SHOWN
        raise AssertionError(
            f"{len(found)} problem(s) in the requests to Discord (tests/contract.py):\n"
            + "\n".join(lines[:SHOWN]) + (f"\n  ... and {more} more" if more > 0 else ""))


@asynccontextmanager
async def run(bot: Any, **options: Any) -> AsyncIterator[simcord.Env]:
    """``simcord.run(bot, **options)``, and at its end (unless the test already failed)
    the contract checked on every request the bot made."""
    async with simcord.run(bot, **options) as env:
        yield env
    check(env.http_requests)
