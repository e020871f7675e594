"""Resuming the pipeline from a dump: which passes run, and what they need besides the tree.

A pass reads its input IL and, sometimes, facts earlier passes left in the compilation (the
memory model, the working sets, the `requires` proved at every call). A dump file written
with --dump-dir ends with the rest of the compilation's state at that point, as `//` lines
the tree reader skips:

    // after: check-capacity
    // fact proved_requires: {"scale": [0]}
    // reported by drop-imports: {"severity": "warning", "code": "W1031", ...}

`after:` (or `before:`) names where the dump was taken, so the run resumes with the next pass
(a dump without one starts at the first pass that reads its IL); each `reported by` line is a
diagnostic an earlier pass made, reported again so the resumed run says what the whole run
says, and stops where it stopped. A fact a resumed pass needs is rebuilt from the tree where it
can be: the memory model from the declarations every IL keeps, any fact by running the pass
that provides it when the tree is in that pass's input IL. What cannot be rebuilt from a later
IL (which `requires` z3 proved, once the functions are outlined into kernels) is carried as a
`fact` line.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace

from .diagnostics import Diagnostic, Diagnostics, Label
from .source import Source, Span

_LINE = re.compile(r"^// (after|before|fact [a-z_]+|reported by [a-z-]+): (.*)$", re.M)


class Unresumable(Exception):
    """A run that cannot start where it was asked to: a usage error naming why."""


# -- writing the state ----------------------------------------------------------------------

def _proved_to_json(proved: dict) -> dict:
    return {name: sorted(ix) for name, ix in sorted(proved.items())}


def _proved_from_json(data) -> dict:
    if type(data) is not dict or not all(
            type(ix) is list and all(type(i) is int for i in ix) for ix in data.values()):
        raise ValueError('expected {"function": [requires index, ...], ...}')
    return {name: frozenset(ix) for name, ix in data.items()}


# The facts a dump carries, as JSON both ways: those no later IL rebuilds.
CARRIED = {"proved_requires": (_proved_to_json, _proved_from_json)}


def trailer(ctx, when: str, pass_name: str) -> str:
    """The state lines a dump file ends with: where it was taken, the carried facts that are
    set, and every diagnostic reported so far with the pass that made it."""
    lines = [f"// {when.lower()}: {pass_name}"]
    for fact, (to_json, _) in CARRIED.items():
        value = getattr(ctx, fact)
        if value is not None:
            lines.append(f"// fact {fact}: {json.dumps(to_json(value), sort_keys=True)}")
    for d in ctx.diagnostics.items:
        lines.append(f"// reported by {d.origin}: {json.dumps(d.to_json(), sort_keys=True)}")
    return "".join(line + "\n" for line in lines)


# -- reading it back ------------------------------------------------------------------------

@dataclass
class State:
    """What a dump's state lines say."""

    after: str | None = None
    before: str | None = None
    facts: dict = field(default_factory=dict)
    reported: list[Diagnostic] = field(default_factory=list)


def read_state(source: Source, diagnostics: Diagnostics) -> State | None:
    """The state lines of a dump; one that does not read is E1007 at its line (None)."""
    state = State()
    files: dict[str, Source | None] = {}
    for m in _LINE.finditer(source.text):
        key, value = m.group(1), m.group(2).strip()
        try:
            if key in ("after", "before"):
                setattr(state, key, value)
            elif key.startswith("fact "):
                fact = key[5:]
                if fact not in CARRIED:
                    raise ValueError(f"no fact named '{fact}' is carried; the carried facts "
                                     f"are {', '.join(CARRIED)}")
                state.facts[fact] = CARRIED[fact][1](json.loads(value))
            else:
                state.reported.append(_diagnostic(key[len("reported by "):],
                                                  json.loads(value), files))
        except (ValueError, KeyError, TypeError) as err:
            diagnostics.error("E1007", Span(source, m.start(2), m.end(2)),
                              f"the state line '// {key}:' does not read: {err}")
            return None
    return state


_KNOWN = ("severity", "code", "message", "span", "labels", "notes", "help")


def _diagnostic(origin: str, data: dict, files: dict) -> Diagnostic:
    """A diagnostic from its JSON form; its spans point into the file it was reported in
    when that file can still be read, else it keeps its place as a note."""
    notes = list(data.get("notes", ()))
    span = _span(data.get("span"), files, notes)
    labels = []
    for label in data.get("labels", ()):
        where = _span(label["span"], files, notes)
        if where is not None:
            labels.append(Label(where, label["label"]))
    d = Diagnostic(data["severity"], data["code"], data["message"], span, notes,
                   list(data.get("help", ())), {k: v for k, v in data.items() if k not in _KNOWN},
                   labels)
    d.origin = origin
    return d


def _span(where: dict | None, files: dict, notes: list) -> Span | None:
    if where is None:
        return None
    name = where["file"]
    if name not in files:
        try:
            with open(name, encoding="utf-8") as fh:
                files[name] = Source(name, fh.read())
        except (OSError, UnicodeDecodeError):
            files[name] = None
    source = files[name]
    lines = source.line_starts if source is not None else []
    if where["line"] > len(lines) or where["end_line"] > len(lines):
        notes.append(f"reported at {name}:{where['line']}:{where['column']}")
        return None
    start = lines[where["line"] - 1] + where["column"] - 1
    end = lines[where["end_line"] - 1] + where["end_column"] - 1
    return Span(source, start, max(start, end))


# -- where the run starts -------------------------------------------------------------------

def plan(full, base, language, state: State, *, start_after: str | None = None,
         start_before: str | None = None, names: list[str] | None = None) -> list:
    """The passes to run on a tree of `language` (None: the program's text): `names` exactly,
    else those of `base` (the pipeline the action wants, a prefix of `full`: a back-end dump
    checked or interpreted runs no pass) from the start point on. The start point is --start-after/--start-before, else the dump's own
    `after:`/`before:`, else the first pass that reads `language`."""
    if names is not None:
        chosen = [_named(full, n) for n in names]
        _lines_up(chosen, language)
        return chosen
    passes = list(base)
    if start_after or start_before:
        flag, name = ("--start-after", start_after) if start_after else \
            ("--start-before", start_before)
        p = _named(full, name)
        meets = p.output if start_after else p.input
        if meets is not language:
            what = "produces" if start_after else "reads"
            raise Unresumable(f"{flag}={name}: {name} {what} {_il(meets)}, but the input is "
                              f"in {_il(language)}")
        return passes[passes.index(p) + bool(start_after):] if p in passes else []
    if state.after or state.before:
        p = _named(full, state.after or state.before)
        if (p.output if state.after else p.input) is language and p in passes:
            return passes[passes.index(p) + bool(state.after):]
    for i, p in enumerate(passes):
        if p.input is language:
            return passes[i:]
    return []


def _named(full, name: str):
    try:
        return full.get(name)
    except KeyError:
        raise Unresumable(f"no pass named {name}; the passes are "
                          f"{', '.join(full.names())}") from None


def _lines_up(chosen: list, language) -> None:
    if chosen and chosen[0].input is not language:
        raise Unresumable(f"--passes: {chosen[0].name} reads {_il(chosen[0].input)}, but the "
                          f"input is in {_il(language)}")
    for a, b in zip(chosen, chosen[1:]):
        if a.output is not b.input:
            raise Unresumable(f"--passes: {a.name} produces {_il(a.output)}, but {b.name} "
                              f"reads {_il(b.input)}")


def _il(language) -> str:
    return language.name if language is not None else "the program's text"


# -- the facts the run needs ----------------------------------------------------------------

def _model(tree):
    from .model import build_model

    # Reported once, by check-memory-declarations, in the run that made the dump.
    return build_model(tree.items, Diagnostics())


# Facts every IL from their provider on holds the makings of.
FROM_TREE = {"model": _model}


def rebuild_facts(ctx, tree, language, passes: list, full, carried: dict) -> None:
    """Set every fact `passes` read that none of them provides before: rebuilt from `tree`,
    recomputed by its provider on `tree`, or taken from the dump (`carried`)."""
    needed: list[str] = []
    provided: set[str] = set()
    for p in passes:
        needed += [f for f in p.requires if f not in provided and f not in needed]
        provided.update(p.provides)
    providers = {f: p for p in full for f in p.provides}
    order = [p.name for p in full]
    for fact in sorted(needed, key=lambda f: order.index(providers[f].name)):
        provider = providers[fact]
        if provider.input is language:
            # The provider's other facts come with it: its diagnostics were reported when
            # the dump was made, and are carried in it.
            scratch = replace(ctx, diagnostics=Diagnostics())
            provider(tree, scratch, check=False)
            setattr(ctx, fact, getattr(scratch, fact))
        elif fact in FROM_TREE:
            setattr(ctx, fact, FROM_TREE[fact](tree))
        elif fact in carried:
            setattr(ctx, fact, carried[fact])
        else:
            user = next(p.name for p in passes if fact in p.requires)
            raise Unresumable(f"{user} needs the fact '{fact}', which {provider.name} "
                              f"provides; a {_il(language)} tree does not hold it and the "
                              f"dump does not carry it (a `// fact {fact}: ...` line, as "
                              f"--dump-dir writes after {provider.name})")
