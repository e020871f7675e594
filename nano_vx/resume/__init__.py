"""Resuming the pipeline from a dump: which passes run, and what they need besides the tree.

A pass reads its input IL and, sometimes, facts earlier passes left in the compilation (the
memory model, the working sets, the `requires` proved at every call). A dump file written
with --dump-dir ends with the rest of the compilation's state at that point, as `//` lines
the tree reader skips (their format: `nano_vx/dump/state.py`). `after:` (or `before:`) names where the dump was taken, so the run resumes with the next pass
(a dump without one starts at the first pass that reads its IL); each `reported by` line is a
diagnostic an earlier pass made, reported again so the resumed run says what the whole run
says, and stops where it stopped. A fact a resumed pass needs is rebuilt from the tree where it
can be: the memory model from the declarations every IL keeps, any fact by running the pass
that provides it when the tree is in that pass's input IL. What cannot be rebuilt from a later
IL (which `requires` z3 proved, once the functions are outlined into kernels) is carried as a
`fact` line.
"""

from __future__ import annotations

from dataclasses import replace

from ..diagnostics import Diagnostics
from ..dump.state import State


class Unresumable(Exception):
    """A run that cannot start where it was asked to: a usage error naming why."""


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
    from ..model import build_model

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
