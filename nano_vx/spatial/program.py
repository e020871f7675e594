"""An index of one spatial program (a Graph of any spatial IL): its tensors, streams and
stages by name, each stream's two ends, and the side tables of the later ILs. Every pass and
evaluator of the lane reads a program through it instead of searching the tree."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class End:
    stage: str
    rate: int


class Program:
    def __init__(self, graph):
        self.graph = graph
        self.name = graph.name
        self.tensors = {t.name: t for t in graph.tensors}
        self.streams = {s.name: s for s in graph.streams}
        self.stages = {s.name: s for s in graph.stages}

    def table(self, field: str) -> tuple:
        """A side table of a later IL, empty when the program's IL has none."""
        return getattr(self.graph, field, ())

    @cached_property
    def producers(self) -> dict[str, list[End]]:
        out: dict[str, list[End]] = {}
        for st in self.graph.stages:
            for port in outs(st):
                out.setdefault(port.stream, []).append(End(st.name, port.rate))
        return out

    @cached_property
    def consumers(self) -> dict[str, list[End]]:
        out: dict[str, list[End]] = {}
        for st in self.graph.stages:
            for port in ins(st):
                out.setdefault(port.stream, []).append(End(st.name, port.rate))
        return out

    def producer(self, stream: str) -> End:
        return self.producers[stream][0]

    def consumer(self, stream: str) -> End:
        return self.consumers[stream][0]

    @cached_property
    def places(self) -> dict[str, tuple]:
        """Stage -> (site, engine)."""
        return {p.stage: (p.site, p.engine) for p in self.table("places")}

    @cached_property
    def buffers(self) -> dict:
        return {b.stream: b for b in self.table("buffers")}

    @cached_property
    def groups(self) -> dict:
        return {g.name: g for g in self.table("groups")}

    @cached_property
    def group_of_stream(self) -> dict[str, str]:
        return {s: g.name for g in self.table("groups") for s in g.streams}

    @cached_property
    def handshakes(self) -> dict:
        return {h.buffer: h for h in self.table("handshakes")}

    @cached_property
    def semaphores(self) -> dict:
        return {s.name: s for s in self.table("semaphores")}

    def token_dtype(self, stream: str) -> str:
        return self.streams[stream].dtype

    def stage_dtype(self, stage) -> str:
        """The element type a stage computes in: that of its first output (a store's: its
        tensor's)."""
        if stage._prod == "Store":
            return self.tensors[stage.tensor].dtype
        first = outs(stage)
        return self.streams[first[0].stream].dtype if first else "f64"


def ins(stage) -> tuple:
    if stage._prod == "Store":
        return (stage.input,)
    return getattr(stage, "ins", ())


def outs(stage) -> tuple:
    return getattr(stage, "outs", ())


def flat_ops(ops):
    """The ops of a schedule in order, the bodies of `repeat` once each."""
    for op in ops:
        if op._prod == "Repeat":
            yield from flat_ops(op.body)
        else:
            yield op


def is_copy(stage) -> bool:
    """A scalar stage whose body is one of its parameters (a relay of relay-tokens): its
    firing moves a token and computes nothing."""
    return stage._prod == "Scalar" and stage.body._prod == "Arg"
