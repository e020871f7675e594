"""`validate`: the structural rules a spatial program must keep at every IL, so that its
meaning is defined (docs/spatial.md, "What a program means"). Each problem is one sentence naming the item; an
empty list means the program is well formed.

The rules grow with the ILs: every stream has one producer and one consumer and the graph
has no cycle (Sdataflow); every index names a loop (Stiled); every stage has one place on the
mesh (Splaced); every stream has one buffer on its consumer's site (Ssized); a group's streams
come from its stage (Sfused); every buffer has a handshake that fits where its ends are
(Shandshaked); and, in a choreography, every buffer has one producer engine and one consumer
engine and every semaphore one waiting engine, the two rules that make its outcome the same
in every fair order.
"""

from __future__ import annotations

from .program import Program, flat_ops, ins, outs
from .shapes import ShapeError, token_shapes
from .text import OP_WORDS

ARITY = {"matmul_acc": 2, "add": 2, "sub": 2, "mul": 2, "div": 2, "scale": 1, "exp": 1,
         "sum": 1, "max": 1, "transpose": 1}
# The stages a schedule op may name: the evaluators run each op on that kind of stage only.
STAGE_KINDS = {"Read": ("Load",), "Write": ("Store",), "Fire": ("Compute", "Scalar")}


class Problem(str):
    """A problem whose code is not E7002, the code of the others."""

    def __new__(cls, text: str, code: str):
        problem = super().__new__(cls, text)
        problem.code = code
        return problem


def code_of(problem: str) -> str:
    return getattr(problem, "code", "E7002")


def validate(graph, target=None) -> list[str]:
    p = Program(graph)
    problems: list[str] = []
    _names(p, problems)
    _streams(p, problems)
    for st in graph.stages:
        _stage(p, st, problems)
    _operand_types(p, problems)
    if not problems:
        _acyclic(p, problems)
    if not problems:
        try:
            _stored_shapes(p, token_shapes(p), problems)
        except ShapeError as error:
            problems.append(Problem(str(error), error.code))
    if target is not None:
        _element_types(p, target, problems)
    if hasattr(graph, "places"):
        _places(p, target, problems)
    if hasattr(graph, "buffers"):
        _buffers(p, problems)
    if hasattr(graph, "groups"):
        _groups(p, problems)
    if hasattr(graph, "handshakes"):
        _handshakes(p, problems)
        if target is not None:
            _semaphore_engines(p, target, problems)
    if hasattr(graph, "schedules"):
        _schedules(p, target, problems)
    return problems


def _twice(kind: str, names, problems) -> None:
    seen = set()
    for n in names:
        if n in seen:
            problems.append(f"{kind} '{n}' is declared twice")
        seen.add(n)


def _names(p: Program, problems) -> None:
    g = p.graph
    _twice("tensor", [t.name for t in g.tensors], problems)
    _twice("stream", [s.name for s in g.streams], problems)
    _twice("stage", [s.name for s in g.stages], problems)
    for t in g.tensors:
        if not t.shape or any(n <= 0 for n in t.shape):
            problems.append(f"tensor '{t.name}' has shape {list(t.shape)}; every extent must "
                            f"be positive")


def _streams(p: Program, problems) -> None:
    for st in p.graph.stages:
        for port in (*ins(st), *outs(st)):
            if port.stream not in p.streams:
                problems.append(f"stage '{st.name}' names stream '{port.stream}', which is "
                                f"not declared")
            if port.rate < 1:
                problems.append(f"stage '{st.name}' has rate {port.rate} on stream "
                                f"'{port.stream}'; a rate is at least 1")
    for name in p.streams:
        for side, ends in (("producer", p.producers.get(name, [])),
                           ("consumer", p.consumers.get(name, []))):
            if len(ends) != 1:
                who = ", ".join(e.stage for e in ends) or "none"
                problems.append(f"stream '{name}' has {len(ends)} {side}s ({who}); a stream "
                                f"joins one producer to one consumer")


def _stage(p: Program, st, problems) -> None:
    kind = st._prod
    if kind in ("Load", "Store"):
        _access(p, st, problems)
        return
    if kind == "Scalar":
        if len(st.params) != len(st.ins):
            problems.append(f"scalar '{st.name}' has {len(st.params)} parameters for "
                            f"{len(st.ins)} inputs")
        _twice(f"parameter of scalar '{st.name}':", st.params, problems)
        for name in sorted(_args(st.body) - set(st.params)):
            problems.append(f"scalar '{st.name}' uses '{name}' in its body, which is not one "
                            f"of its parameters ({', '.join(st.params)})")
        rates = {port.rate for port in (*st.ins, *st.outs)}
        if len(rates) > 1:
            problems.append(f"scalar '{st.name}' has rates {sorted(rates)}; a scalar stage "
                            f"takes and puts the same number of tokens on every port")
    else:
        want = ARITY[st.op]
        if len(st.ins) != want:
            problems.append(f"compute '{st.name}' ({st.op}) has {len(st.ins)} inputs; "
                            f"{st.op} takes {want}")
        if st.op in ("sum", "max") and st.axis is None:
            problems.append(f"compute '{st.name}' ({st.op}) names no axis")
        if st.op == "scale" and st.factor is None:
            problems.append(f"compute '{st.name}' (scale) names no factor")
        _compute_rates(st, problems)
        _over(st, problems)
    if not st.outs:
        problems.append(f"{kind.lower()} '{st.name}' has no output")


def _args(e) -> set[str]:
    """The parameter names a scalar body uses."""
    if e._prod == "Arg":
        return {e.name}
    return set().union(*(_args(getattr(e, f)) for f in ("a", "b") if hasattr(e, f)))


def _compute_rates(st, problems) -> None:
    in_rates = {port.rate for port in st.ins}
    out_rates = {port.rate for port in st.outs}
    if len(in_rates) > 1:
        problems.append(f"compute '{st.name}' ({st.op}) takes {sorted(in_rates)} tokens on "
                        f"its inputs; every input of one firing has the same rate")
    if st.op in ("matmul_acc", "sum", "max"):
        if out_rates - {1}:
            problems.append(f"compute '{st.name}' ({st.op}) combines its input tokens into "
                            f"one; its outputs have rate 1")
    elif in_rates and out_rates and in_rates != out_rates:
        problems.append(f"compute '{st.name}' ({st.op}) works token by token; its output "
                        f"rate {sorted(out_rates)} must equal its input rate "
                        f"{sorted(in_rates)}")


def _over(st, problems) -> None:
    over = getattr(st, "over", None)
    if over is None:
        return
    if st.op != "matmul_acc":
        problems.append(f"compute '{st.name}' ({st.op}) accumulates over {over} firings; only "
                        f"a matmul_acc sums its products across firings")
    if over < 1:
        problems.append(f"compute '{st.name}' accumulates over {over} firings; it puts its "
                        f"sum every n-th firing, n at least 1")


def _access(p: Program, st, problems) -> None:
    what = st._prod.lower()
    tensor = p.tensors.get(st.tensor)
    if tensor is None:
        problems.append(f"{what} '{st.name}' names tensor '{st.tensor}', which is not "
                        f"declared")
        return
    if st._prod == "Load" and tensor.role == "output":
        problems.append(f"load '{st.name}' reads '{st.tensor}', an output tensor")
    if st._prod == "Store" and tensor.role == "input":
        problems.append(f"store '{st.name}' writes '{st.tensor}', an input tensor")
    for port in (*ins(st), *outs(st)):
        if port.rate != 1:
            problems.append(f"{what} '{st.name}' has rate {port.rate}; a {what} moves one "
                            f"token per firing")
        stream = p.streams.get(port.stream)
        if stream is not None and stream.dtype != tensor.dtype:
            problems.append(f"{what} '{st.name}' joins stream '{stream.name}' of "
                            f"{stream.dtype} to tensor '{tensor.name}' of {tensor.dtype}")
    if not hasattr(st, "tile"):
        return
    rank = len(tensor.shape)
    if len(st.tile) != rank or len(st.index) != rank:
        problems.append(f"{what} '{st.name}' has a tile of rank {len(st.tile)} and an index "
                        f"of rank {len(st.index)} for tensor '{tensor.name}' of rank {rank}")
        return
    for d, (n, t) in enumerate(zip(tensor.shape, st.tile)):
        if t <= 0 or n % t:
            problems.append(f"{what} '{st.name}': tile extent {t} does not divide extent {n} "
                            f"of '{tensor.name}' (dimension {d})")
    loops = {lp.var: lp for lp in st.loops}
    _twice(f"loop variable of {what} '{st.name}':", [lp.var for lp in st.loops], problems)
    for lp in st.loops:
        if lp.step < 1 or lp.start < 0 or lp.stop <= lp.start:
            problems.append(f"{what} '{st.name}': loop {lp.var} in {lp.start}..{lp.stop} "
                            f"step {lp.step} is empty or runs backwards")
    for d, v in enumerate(st.index):
        if v == "0":
            continue
        lp = loops.get(v)
        if lp is None:
            problems.append(f"{what} '{st.name}' indexes dimension {d} by '{v}', which no "
                            f"loop declares")
        elif st.tile[d] > 0 and lp.step > 0:
            # The last point the loop reaches, not stop - 1: a stepped loop may stop short.
            points = range(lp.start, lp.stop, lp.step)
            tiles = tensor.shape[d] // st.tile[d]
            if points and points[-1] >= tiles:
                problems.append(f"{what} '{st.name}': loop {v} reaches tile {points[-1]} of "
                                f"dimension {d}, which has {tiles} tiles")


def _acyclic(p: Program, problems) -> None:
    succ = {name: [p.consumer(port.stream).stage for port in outs(st)]
            for name, st in p.stages.items()}
    state: dict[str, int] = {}
    for root in succ:
        stack = [(root, iter(succ[root]))]
        if state.get(root):
            continue
        state[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                problems.append(f"stages '{nxt}' and '{node}' form a cycle; a cycle without "
                                f"initial tokens never fires")
                return
            elif not state.get(nxt):
                state[nxt] = 1
                stack.append((nxt, iter(succ[nxt])))


def _operand_types(p: Program, problems) -> None:
    """A stage's operands are of one element type, or the stage says which one it converts
    them to (`via`): no type is chosen for it by promotion."""
    for st in p.stages.values():
        if st._prod not in ("Compute", "Scalar") or st.via is not None:
            continue
        typed = [(port.stream, p.streams[port.stream].dtype) for port in st.ins
                 if port.stream in p.streams]
        if len({dtype for _, dtype in typed}) > 1:
            given = ", ".join(f"'{s}' {dtype}" for s, dtype in typed)
            problems.append(f"stage '{st.name}' ({getattr(st, 'op', 'scalar')}) takes "
                            f"operands of different element types ({given}); convert them "
                            f"first, or write `via T` to convert every operand to T")


def _element_types(p: Program, target, problems) -> None:
    """A stage computes in an element type only where the target gives it a rate."""
    for st in p.stages.values():
        if any(port.stream not in p.streams for port in outs(st)[:1]):
            continue  # its type is that of a stream `_streams` reports undeclared
        if st._prod in ("Compute", "Scalar"):
            dtype = p.stage_dtype(st)
            if dtype not in target.rates:
                problems.append(f"stage '{st.name}' computes in {dtype}, which {target.name} "
                                f"has no rate for (it computes in "
                                f"{', '.join(sorted(target.rates))})")


def _stored_shapes(p: Program, shapes, problems) -> None:
    """A store writes its token over its tile (the whole tensor before tiling): the two
    must have one shape."""
    for st in p.stages.values():
        if st._prod != "Store":
            continue
        region = tuple(getattr(st, "tile", p.tensors[st.tensor].shape))
        token = shapes.get(st.input.stream)
        if token is not None and tuple(token) != region:
            what = "tile" if hasattr(st, "tile") else "tensor"
            problems.append(f"store '{st.name}' writes tokens of shape {list(token)} over its "
                            f"{what} of shape {list(region)} in '{st.tensor}'")


def _places(p: Program, target, problems) -> None:
    placed = [pl.stage for pl in p.table("places")]
    _twice("place of stage", placed, problems)
    for name in p.stages:
        if name not in placed:
            problems.append(f"stage '{name}' has no place")
    for pl in p.table("places"):
        if pl.stage not in p.stages:
            problems.append(f"place names stage '{pl.stage}', which is not declared")
        if target is not None:
            r, c = (pl.site + (0, 0))[:2]
            if len(pl.site) != 2 or not (0 <= r < target.rows and 0 <= c < target.cols):
                problems.append(f"stage '{pl.stage}' is placed on site {pl.site}, outside "
                                f"the {target.rows} x {target.cols} mesh of {target.name}")
            if pl.engine not in target.engines:
                problems.append(f"stage '{pl.stage}' is placed on engine '{pl.engine}', "
                                f"which {target.name} does not have")


def _buffers(p: Program, problems) -> None:
    _twice("buffer of stream", [b.stream for b in p.table("buffers")], problems)
    _undeclared("buffer", [b.stream for b in p.table("buffers")], p, problems)
    for name in p.streams:
        b = p.buffers.get(name)
        if b is None:
            problems.append(f"stream '{name}' has no buffer")
            continue
        consumer = _end(p.consumers, name)
        site = p.places.get(consumer, (None,))[0]
        if site is not None and b.site != site:
            problems.append(f"buffer '{name}' is on site {b.site}, but its consumer "
                            f"'{consumer}' is on {site}")
        if b.depth < 0 or b.bytes < 0:
            problems.append(f"buffer '{name}' has depth {b.depth} and {b.bytes} bytes")


def _end(ends: dict, stream: str) -> str | None:
    """The stage at one end of a stream, None when it has none (`_streams` says so)."""
    found = ends.get(stream)
    return found[0].stage if found else None


def _undeclared(item: str, streams, p: Program, problems) -> None:
    for name in streams:
        if name not in p.streams:
            problems.append(f"{item} '{name}' names no declared stream")


def _groups(p: Program, problems) -> None:
    _twice("group", [g.name for g in p.table("groups")], problems)
    _twice("group member stream", [s for g in p.table("groups") for s in g.streams], problems)
    for g in p.table("groups"):
        for s in g.streams:
            if s not in p.streams or _end(p.producers, s) != g.stage:
                problems.append(f"group '{g.name}' lists stream '{s}', which stage "
                                f"'{g.stage}' does not produce")


def _handshakes(p: Program, problems) -> None:
    _twice("handshake of buffer", [h.buffer for h in p.table("handshakes")], problems)
    _undeclared("handshake", [h.buffer for h in p.table("handshakes")], p, problems)
    _twice("semaphore", [s.name for s in p.table("semaphores")], problems)
    for name in p.streams:
        h = p.handshakes.get(name)
        if h is None:
            problems.append(f"buffer '{name}' has no handshake")
            continue
        src = p.places.get(_end(p.producers, name), (None,))[0]
        dst = p.places.get(_end(p.consumers, name), (None,))[0]
        grouped = name in p.group_of_stream
        if h.kind == "fifo" and None not in (src, dst) and src != dst:
            problems.append(f"buffer '{name}' is a fifo between sites {src} and {dst}; a fifo "
                            f"joins two engines of one site")
        if h.kind == "barrier" and not grouped:
            problems.append(f"buffer '{name}' has a barrier handshake but is in no group")
        if grouped and h.kind != "barrier":
            problems.append(f"buffer '{name}' receives a multicast but has a {h.kind} "
                            f"handshake")
        if h.kind in ("semaphore_pair", "barrier") and (h.credit is None or h.data is None):
            problems.append(f"buffer '{name}' ({h.kind}) needs a credit and a data semaphore")
        for sem in (h.credit, h.data):
            if sem is not None and sem not in p.semaphores:
                problems.append(f"buffer '{name}' names semaphore '{sem}', which is not "
                                f"declared")


def _semaphore_engines(p: Program, target, problems) -> None:
    """A handshake's semaphores are waited on and signalled by its producer's and its
    consumer's engines, which the target must let touch them (relay-tokens arranges it)."""
    for h in p.table("handshakes"):
        if h.credit is None or h.buffer not in p.streams:
            continue
        for end, side in ((p.producers, "producer"), (p.consumers, "consumer")):
            stage = _end(end, h.buffer)
            engine = p.places.get(stage, (None, None))[1]
            if engine is not None and engine not in target.semaphore_engines:
                problems.append(
                    f"buffer '{h.buffer}' has a {h.kind} handshake, whose semaphores its "
                    f"{side} '{stage}' would touch from the {engine} engine, but "
                    f"{target.name} lets only {', '.join(target.semaphore_engines)} touch "
                    f"semaphores (relay-tokens gives such a buffer a relay)")


def _schedules(p: Program, target, problems) -> None:
    putters: dict[str, set] = {}
    takers: dict[str, set] = {}
    waiters: dict[str, set] = {}
    _twice("schedule of engine", [f"{s.site} {s.engine}" for s in p.table("schedules")],
           problems)
    for sched in p.table("schedules"):
        who = (sched.site, sched.engine)
        for op in flat_ops(sched.ops):
            kind = op._prod
            for field in ("buffer", "group", "sem", "stage"):
                name = getattr(op, field, None)
                known = {"buffer": p.streams, "group": p.groups, "sem": p.semaphores,
                         "stage": p.stages}[field]
                if name is not None and name not in known and not (
                        field == "buffer" and kind == "Read" and name in p.groups):
                    problems.append(f"schedule {sched.site} {sched.engine}: {OP_WORDS[kind]} "
                                    f"names {field} '{name}', which is not declared")
            stage = p.stages.get(getattr(op, "stage", None))
            if stage is not None and stage._prod not in STAGE_KINDS[kind]:
                problems.append(f"schedule {sched.site} {sched.engine}: {OP_WORDS[kind]} "
                                f"names {stage._prod.lower()} '{stage.name}'; {OP_WORDS[kind]} "
                                f"takes a {' or '.join(k.lower() for k in STAGE_KINDS[kind])}")
            if kind in ("Push", "Send"):
                putters.setdefault(op.buffer, set()).add(who)
            elif kind == "Multicast" and op.group in p.groups:
                for s in p.groups[op.group].streams:
                    putters.setdefault(s, set()).add(who)
            elif kind in ("WaitFront", "Pop"):
                takers.setdefault(op.buffer, set()).add(who)
            elif kind == "Wait":
                waiters.setdefault(op.sem, set()).add(who)
            elif kind == "Barrier" and op.group in p.groups:
                for s in p.groups[op.group].streams:
                    credit = getattr(p.handshakes.get(s), "credit", None)
                    if credit is not None:
                        waiters.setdefault(credit, set()).add(who)
    for table, rule in ((putters, "puts tokens into"), (takers, "takes tokens from"),
                        (waiters, "waits on")):
        for name, engines in sorted(table.items()):
            if len(engines) > 1:
                listed = ", ".join(f"{s} {e}" for s, e in sorted(engines))
                problems.append(f"more than one engine {rule} '{name}' ({listed}); one engine "
                                f"may")
