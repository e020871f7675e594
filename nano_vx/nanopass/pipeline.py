"""The pipeline: an ordered table of passes whose languages must line up."""

from __future__ import annotations

from .passes import Pass


class PipelineError(Exception):
    """Adjacent passes whose languages do not meet."""


class Pipeline:
    def __init__(self, passes: list[Pass]):
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
