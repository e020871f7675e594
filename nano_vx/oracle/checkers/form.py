"""The form of a certificate (docs/certificate.md, "The schema"): `problem(doc)` is None when
the document follows certificate.schema.json and every name and engine it uses is declared,
else what is wrong and where, in words, before the checks read the document. The schema's
verdict only ever refuses a document, so an accepted certificate does not rest on jsonschema;
the names and engines are checked here in plain Python, since a schema cannot say them."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

if __package__:
    from .replay import flat_ops
else:  # run as a script, beside replay.py
    from replay import flat_ops

SCHEMA_FILE = Path(__file__).with_name("certificate.schema.json")
TYPES = {"integer": "an integer", "number": "a number", "string": "a string",
         "array": "a list", "object": "an object", "boolean": "true or false", "null": "null"}


@lru_cache(maxsize=1)
def _validator():
    import jsonschema  # here, not at the top: `nano-vx` starts without it

    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def problem(doc: dict) -> str | None:
    from jsonschema.exceptions import best_match

    try:
        error = best_match(_validator().iter_errors(doc))
    except RecursionError:
        return "its parts nest deeper than this checker follows"
    except ValueError:  # jsonschema's message shows a number Python will not print
        return "a number in it has more digits than this checker reads"
    if error is not None:
        return _said_of(error)
    return _references(doc) if doc["verdict"] == "admitted" else None


def _said_of(error) -> str:
    """The error at its place: `structure.buffers[2].depth is the string "x", not an
    integer`."""
    where = _path(error.absolute_path)
    kind, want, value = error.validator, error.validator_value, error.instance
    if kind == "required":
        field = next(f for f in want if f not in value)
        return f"'{field}' is missing" + (f" from {where}" if where else "")
    where = where or "the document"
    if kind == "type":
        wanted = [want] if isinstance(want, str) else want
        return f"{where} is {shown(value)}, not {' or '.join(TYPES[t] for t in wanted)}"
    if kind == "const":
        return f"{where} is {shown(value)}, not {json.dumps(want)}"
    if kind == "enum":
        return f"{where} is {shown(value)}, not one of {', '.join(map(json.dumps, want))}"
    if kind in ("minimum", "maximum"):
        return f"{where} is {shown(value)}, {'less' if kind == 'minimum' else 'more'} than {want}"
    if kind in ("minItems", "maxItems"):
        than = "fewer" if kind == "minItems" else "more"
        return f"{where} has {len(value)} items, {than} than {want}"
    return f"{where} is {shown(value)}, which is none of the forms it may take"


def _path(parts) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def shown(value) -> str:
    """A value in a few words: long strings, numbers and lists are summarised."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        digits = int(abs(value).bit_length() * 0.30103) + 1
        return f"the number {value}" if digits <= 20 else f"a number of about {digits} digits"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        if len(value) <= 40:
            return f"the string {json.dumps(value)}"
        return f"a string of {len(value)} characters ({json.dumps(value[:20])}...)"
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    return "an object"


def _references(doc: dict) -> str | None:
    """What the schema cannot say: every buffer, semaphore and group an op or a group names
    is declared in the structure, every engine a buffer or a semaphore names is one of its
    engines, and there is one schedule per engine."""
    st = doc["structure"]
    declared = {kind: {x["name"] for x in st[kind]} for kind in ("buffers", "semaphores",
                                                                  "groups")}
    fields = {"buffer": ("buffers",), "sem": ("semaphores",), "group": ("groups",),
              "into": ("buffers", "groups")}
    uses = [(f"structure.groups[{k}].receivers", ("buffers",), name)
            for k, g in enumerate(st["groups"]) for name in g["receivers"]]
    for e, ops in enumerate(doc["schedules"]):
        for op in flat_ops(ops):  # as deep as the schema followed, so not too deep
            here = f"engine {e}: {op['op']}"
            uses += [(here, fields[f], op[f]) for f in fields if f in op]
            uses += [(here, ("buffers",), b) for b, _ in op.get("takes", []) + op.get("puts", [])]
    for where, kinds, name in uses:
        if not any(name in declared[kind] for kind in kinds):
            what = " or ".join(kind[:-1] for kind in kinds)
            return f"{where} names {shown(name)}, which is no {what} of the structure"
    engines = len(st["engines"])
    ends = [(f"structure.buffers[{k}].{role}", b[role])
            for k, b in enumerate(st["buffers"]) for role in ("producer", "consumer")]
    ends += [(f"structure.semaphores[{k}].waiter", x["waiter"])
             for k, x in enumerate(st["semaphores"]) if x["waiter"] is not None]
    for where, e in ends:
        if e >= engines:
            return f"{where} is engine {e}, but the structure has {engines} engines"
    if len(doc["schedules"]) != engines:
        return f"there are {len(doc['schedules'])} schedules for {engines} engines"
    return None

