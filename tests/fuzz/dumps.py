"""Dumps as fuzz input: every IL of both lanes, in text and JSON, and spatial programs.

A dump is a file the user can edit and give back (`docs/cli.md`, Resuming from a dump), so it
is as untrusted as a program. The corpus is what `--dump-dir --dump-after=all` writes for
a few programs of each lane: every IL's text, every front-end IL's JSON. Mutants of a text
are token edits (`mutations.mutate`); mutants of a JSON dump are edits of its tree, which keep
it JSON so that they reach the checks behind the parser: a value replaced by one of another
sort (a huge number, a string, null, a list, an object), or by a value found elsewhere in the
same dump (a node of one production where another was), or by a number of 5,000 digits, or
a key dropped.
"""

from __future__ import annotations

import copy
import functools
import io
import itertools
import json
import tempfile
from pathlib import Path

from hypothesis import strategies as st

from .mutations import ROOT
from .runner import JSON_DUMP, SPATIAL, SPATIAL_DUMP, TEXT_DUMP, Form

# Each program with how far it goes: to the back end's last IL where native code takes it.
FRONT = (("examples/tour.vx", "emit-mlir"), ("examples/surface/structs_and_tuples.vx", "check"),
         ("examples/correlation/04_freshness_across_the_launch.vx", "emit-mlir"))
SPATIAL_PROGRAMS = tuple(sorted(str(p.relative_to(ROOT))
                                for p in ROOT.glob("examples/spatial/*.sdf")))
# A number of 5,000 digits is written into the text after `json.dumps`, which refuses one.
HUGE = "@a number of 5,000 digits@"
ODD_VALUES = (None, True, -1, 0, 2**64, 1.5, "", "x", "Call", [], [1, 2], {},
              {"node": "Int", "fields": {"value": "1"}}, {"node": "Nope", "fields": {}})


def _dump_all(argv: list[str]) -> dict[str, str]:
    """The files `nano-vx ARGV --dump-dir=D --dump-after=all` writes, by name."""
    from nano_vx.cli import main

    with tempfile.TemporaryDirectory(prefix="vx-fuzz-dumps-") as home:
        status = main([*argv, f"--dump-dir={home}", "--dump-after=all"],
                      stdout=io.StringIO(), stderr=io.StringIO())
        assert status == 0, f"the corpus program {argv} no longer compiles"
        return {p.name: p.read_text() for p in sorted(Path(home).iterdir())}


@functools.cache
def corpus() -> dict[str, tuple[Form, str]]:
    """Name -> (the form it is given in, its text): the dumps and the spatial programs."""
    out: dict[str, tuple[Form, str]] = {}
    for program, action in FRONT:
        path = str(ROOT / program)
        for name, text in _dump_all([path, "--action", action]).items():
            out[f"{program}:{name}"] = (TEXT_DUMP, text)
        for name, text in _dump_all([path, "--action", action, "--dump-format=json"]).items():
            out[f"{program}:{name}"] = (JSON_DUMP, text)
    for program in SPATIAL_PROGRAMS:
        out[program] = (SPATIAL, (ROOT / program).read_text())
        for name, text in _dump_all(["spatial", str(ROOT / program), "--target", "wormhole",
                                     "--no-validate"]).items():
            out[f"{program}:{name}"] = (SPATIAL_DUMP, text)
    return out


def of_form(*forms: Form) -> list[str]:
    return [text for form, text in corpus().values() if form in forms]


# A borrowed value may hold the place it is put in, so each borrow can deepen the tree; json
# (and the reader of a JSON dump) nests one native call per level. A borrow that would make
# the tree deeper than this is skipped.
MAX_BORROWED_DEPTH = 400


def _places(tree):
    """Every place of a JSON tree but the root, as (holder, key, value, depth), without
    recursion and without keeping paths: the corpus holds trees of a million nodes nested
    hundreds deep, whose paths alone would take gigabytes."""
    todo = [(tree, 0)]
    while todo:
        node, depth = todo.pop()
        items = (node.items() if isinstance(node, dict)
                 else enumerate(node) if isinstance(node, list) else ())
        for key, value in items:
            yield node, key, value, depth + 1
            todo.append((value, depth + 1))


def _place(tree, at: int):
    """The place `at` (modulo their number) in _places' order; None for a tree of no places."""
    count = sum(1 for _ in _places(tree))
    return next(itertools.islice(_places(tree), at % count, None)) if count else None


def _depth(tree) -> int:
    return max((depth for *_, depth in _places(tree)), default=0)


def mutate_json(text: str, edits) -> str:
    """`text` after the (edit, at, pick) edits, each on the place `at` points to."""
    tree = json.loads(text)
    for edit, at, pick in edits:
        place = _place(tree, at)
        if place is None:
            break
        holder, key, _, depth = place
        if edit == "drop" and isinstance(holder, dict):
            del holder[key]
        elif edit == "huge":
            holder[key] = HUGE
        elif edit == "borrow":
            value = _place(tree, pick)[2]
            if depth + _depth(value) <= MAX_BORROWED_DEPTH:
                holder[key] = json.loads(json.dumps(value))
        else:
            # a copy: a later edit may land inside it, which must not change the constant
            holder[key] = copy.deepcopy(ODD_VALUES[pick % len(ODD_VALUES)])
    return json.dumps(tree).replace(json.dumps(HUGE), "9" * 5000)


def json_mutants(texts):
    edit = st.tuples(st.sampled_from(("drop", "borrow", "odd", "huge")), st.integers(0, 10**6),
                     st.integers(0, 10**6))
    return st.builds(mutate_json, texts, st.lists(edit, min_size=1, max_size=3))
