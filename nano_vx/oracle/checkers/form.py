"""The form of a certificate (docs/certificate.md, "The schema"): `problem(doc)` is None when
the document follows certificate.schema.json and every name and engine it uses is declared,
else what is wrong and where, in words, before the checks read the document. The schema's
verdict only ever refuses a document, so an accepted certificate does not rest on jsonschema;
the names and engines are checked here in plain Python, since a schema cannot say them."""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import chain
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
    """The schema's verdict on the document's `skeleton`, which is its verdict on the whole,
    then the names and engines it uses."""
    bare = skeleton(doc)
    try:
        said = _known_problem(_Value(repr(bare), bare))
    except (RecursionError, ValueError):  # no repr: too deep, or a number too long to print
        said = schema_problem(bare)
    if said is not None:
        return said
    return _references(doc) if doc["verdict"] == "admitted" else None


class _Value:
    """A document known by its value, its repr (which tells apart whatever jsonschema does):
    copies of one certificate that differ only in lists `skeleton` empties, as a test's
    mutants do, are validated once."""

    def __init__(self, key: str, doc):
        self.key, self.doc = key, doc

    def __hash__(self):
        return hash(self.key)

    def __eq__(self, other):
        return self.key == other.key


@lru_cache(maxsize=8)
def _known_problem(value: _Value) -> str | None:
    return schema_problem(value.doc)


def schema_problem(doc) -> str | None:
    from jsonschema.exceptions import best_match

    try:
        error = best_match(_validator().iter_errors(doc))
    except RecursionError:
        return "its parts nest deeper than this checker follows"
    except ValueError:  # jsonschema's message shows a number Python will not print
        return "a number in it has more digits than this checker reads"
    return None if error is None else _said_of(error)


LIMIT = 9007199254740991  # the schema's bound on every integer, 2**53 - 1


def skeleton(doc):
    """The document with every long list of integers that keeps its form (the fit's clauses,
    assignments, positions and refutations, the witness), and the schedules when they keep
    theirs, emptied, in copies of the parts that
    hold them: a certificate is mostly such lists, which jsonschema reads an integer at a
    time, some 10 µs each (0.95 s of a fabric softmax's 1 s check). An empty list is valid wherever a valid one is, and nothing else
    in the schema looks at these lists, so the skeleton's errors are the document's, the same
    errors in the same order: the verdict and its words are unchanged. A list that breaks its
    form stays whole, for jsonschema to say where and how."""
    if not isinstance(doc, dict):
        return doc
    out = dict(doc)
    if type(doc.get("witness")) is list and _lists(doc["witness"], 0, 3):
        out["witness"] = []
    if type(doc.get("schedules")) is list and _valid_schedules(doc["schedules"]):
        out["schedules"] = []
    if type(doc.get("fit")) is list:
        out["fit"] = [_site_skeleton(site) for site in doc["fit"]]
    return out


def _valid_schedules(schedules: list) -> bool:
    """Do the schedules follow the schema's form for them, by jsonschema? They are most of what
    remains of a certificate once its integer lists are emptied (0.12 s of a gemv's 0.14 s),
    and a test's mutants share them: each distinct list is validated once, and, valid, is
    emptied like the integer lists (the schema asks nothing else of them)."""
    try:
        return _schedules_valid(_Value(repr(schedules), schedules))
    except (RecursionError, ValueError):
        return False


@lru_cache(maxsize=8)
def _schedules_valid(value: _Value) -> bool:
    validator = _validator()
    form = validator.schema["else"]["properties"]["schedules"]
    return validator.evolve(schema=form).is_valid(value.doc)


def _site_skeleton(site):
    if not isinstance(site, dict):
        return site
    out = dict(site)
    for key, holds in (("assignment", _literals), ("positions", _positions),
                       ("refutation", _steps)):
        if type(site.get(key)) is list and holds(site[key]):
            out[key] = []
    cnf = site.get("cnf")
    if isinstance(cnf, dict) and type(cnf.get("clauses")) is list and _lists(cnf["clauses"]):
        out["cnf"] = dict(cnf, clauses=[])
    return out


def _literals(values: list, low: int = -LIMIT) -> bool:
    """Every item an integer (a bool is none) within the schema's bounds. Stricter than the
    schema, which takes 2.0 too: such a list only goes to jsonschema whole."""
    return set(map(type, values)) <= {int} and (not values or (
        low <= min(values) and max(values) <= LIMIT))


def _lists(values: list, low: int = -LIMIT, length: int | None = None) -> bool:
    """Every item a list of integers (of `length` items, if given)."""
    return (set(map(type, values)) <= {list}
            and (length is None or set(map(len, values)) <= {length})
            and _literals(list(chain.from_iterable(values)), low))


def _positions(values: list) -> bool:
    return _lists(values, -LIMIT, 3)


def _steps(values: list) -> bool:
    """A refutation: clauses added, and clauses deleted, {"delete": [...]}."""
    deleted = [step.get("delete") for step in values if type(step) is dict]
    added = [step for step in values if type(step) is not dict]
    return _lists(added) and _lists(deleted)


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

