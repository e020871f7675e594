"""The pipeline: an ordered table of passes whose languages line up and whose required facts
are provided before they are needed."""

from __future__ import annotations

from .passes import Pass


class PipelineError(Exception):
    """Adjacent passes whose languages do not meet, or a fact required before it is made."""


class Pipeline:
    def __init__(self, passes: list[Pass], given: tuple[str, ...] = ()):
        """`given`: the facts the compilation holds before the first pass (the spatial
        lane's target, from the command line)."""
        for a, b in zip(passes, passes[1:]):
            if a.output is not b.input:
                src = b.input.name if b.input else "text"
                raise PipelineError(
                    f"pass {a.name} produces {a.output.name} but the next pass, {b.name}, "
                    f"reads {src}"
                )
        names = [p.name for p in passes]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise PipelineError(f"pass names used twice: {', '.join(sorted(dup))}")
        provided: set[str] = set(given)
        for p in passes:
            missing = [f for f in p.requires if f not in provided]
            if missing:
                raise PipelineError(
                    f"pass {p.name} requires {', '.join(missing)}, which no pass before it "
                    f"provides")
            provided.update(p.provides)
        self.passes = list(passes)

    def __iter__(self):
        return iter(self.passes)

    def __len__(self):
        return len(self.passes)

    def names(self) -> list[str]:
        return [p.name for p in self.passes]

    def get(self, name: str) -> Pass:
        for p in self.passes:
            if p.name == name:
                return p
        raise KeyError(name)

    def languages(self):
        """Every language of the chain, in order, once each."""
        out = []
        for p in self.passes:
            for lang in (p.input, p.output):
                if lang is not None and lang not in out:
                    out.append(lang)
        return out
