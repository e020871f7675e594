"""schedule: Shandshaked -> Schoreographed."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.shandshaked import Shandshaked
from ..languages.schoreographed import Schoreographed
from ..nanopass import Pass
from ..spatial.firings import Stuck, simulate_engines
from ..spatial.ops import accumulating
from ..spatial.program import Program, ins, outs
from ..spatial.reject import SpatialReject

schedule = Pass("schedule", Shandshaked, Schoreographed, """
Give every engine that has stages a schedule: its stages' firings, in an order that finishes
(E7013 when none does).

Which firing comes when is the witness of `firings.simulate_engines`, a run of the graph in
which each engine fires one stage at a time and every buffer keeps to its room (its depth, or
the credits its credit semaphore starts with); a graph with no such run is refused (E7013),
naming each stuck engine, its stage and what it waits for.
Each engine's sequence of firings is compressed: when the sequence is its smallest block
repeated n times it becomes `repeat n { block }`; inside a block, or in a sequence with no
period, a run of k firings of one stage becomes `repeat k { firing }`, and the rest stays a
plain list.

One firing of a stage is these ops, by the handshake of each buffer it touches (a buffer is
named by its stream; k is the port's rate):

1. each input: fifo or valid_ready `wait_front b k`; semaphore_pair or barrier
   `wait <data semaphore of b> k`;
2. each output: fifo or valid_ready `reserve b k`; semaphore_pair `wait <credit semaphore of b>
   k` (a wait on a credit semaphore reserves k slots); barrier `barrier g` once for the
   output's group g;
3. the work: a load `read STAGE b` into its group g when its outputs form one (b = g), else
   one read per output buffer; a compute or scalar stage `fire STAGE`; a store
   `write b STAGE`;
4. each output: fifo `push b k`; valid_ready `send b k`; semaphore_pair `send b k` then
   `signal <data semaphore of b> k`; barrier `multicast g 1` once for the group, then
   `signal <data semaphore of r> 1` for each receiver r of g;
5. each input: `pop b k`, then for a semaphore_pair or barrier `signal <credit semaphore of b>
   k`.

A stage accumulating over n firings (a matmul summing K-blocks) puts its outputs only at
every n-th firing: its other firings are steps 1, 3 and 5 alone, neither claiming nor
putting an output.

A firing waits for all it needs before it works and frees its inputs only after it has put
its outputs, so the witness, taken one firing at a time, is a run of the choreography too; by
the confluence of the token semantics every fair order then finishes the same way.
""")
L = Schoreographed


@schedule.on("Graph")
def _graph(run, g):
    p = Program(g)
    _check_schedulable(p)
    found = simulate_engines(g, _room(p))
    if isinstance(found, Stuck):
        raise SpatialReject("E7013", "schedule",
                            f"no order of the firings finishes: {found.describe()}",
                            site=found.blocked[0].site)
    firing = {}
    for name, st in p.stages.items():
        if accumulating(st):
            firing[name, True] = _firing(p, st)
            firing[name, False] = _firing(p, st, puts=False)
        else:
            firing[name] = _firing(p, st)
    engines = dict.fromkeys(p.places.values())
    schedules = tuple(L["Schedule"](site, engine,
                                    _ops(compress(_phased(p, found.order[site, engine])), firing))
                      for site, engine in engines)
    return L["Graph"](g.name, g.tensors, g.streams, g.stages, g.places, g.buffers, g.groups,
                      g.handshakes, g.semaphores, schedules, span=g.span)


def _check_schedulable(p: Program) -> None:
    """Refuse the two things no op of the choreography can express."""
    for h in p.table("handshakes"):
        if h.kind == "token":
            raise SpatialReject(
                "E7002", "schedule",
                f"buffer '{h.buffer}' has a token handshake; the choreography has no op for an "
                f"ordering dependency that carries no data", buffer=h.buffer)
    for grp in p.table("groups"):
        st = p.stages.get(grp.stage)
        if st is not None and st._prod != "Load":
            # `fire` stages a token into each output buffer, while `multicast` takes it from
            # the group's own staging, which only `read` fills.
            raise SpatialReject(
                "E7002", "schedule",
                f"group '{grp.name}' multicasts the output of {st._prod.lower()} "
                f"'{st.name}'; only a load's tile can be multicast", stage=st.name)


def _room(p: Program) -> dict[str, int]:
    """The tokens each producer may have in flight: the start value of the buffer's credit
    semaphore where one carries the handshake (the producer puts only against its credits,
    as the dataflow oracle counts it), else the depth."""
    room = {}
    for b in p.table("buffers"):
        h = p.handshakes[b.stream]
        room[b.stream] = (p.semaphores[h.credit].initial
                          if h.kind in ("semaphore_pair", "barrier") else b.depth)
    return room


# -- the ops of one firing ----------------------------------------------------------------


def _phased(p: Program, order: list) -> list:
    """An engine's firings, each firing of an accumulating stage as (stage, whether it puts
    its outputs)."""
    done: dict[str, int] = {}
    items = []
    for name in order:
        st = p.stages[name]
        if accumulating(st):
            done[name] = done.get(name, 0) + 1
            items.append((name, done[name] % st.over == 0))
        else:
            items.append(name)
    return items


def _firing(p: Program, st, puts: bool = True) -> tuple:
    ops: list = []
    for port in ins(st):
        ops.append(_take_wait(p, port))
    ops += _per_output(p, outs(st) if puts else (), _claim)
    ops += _work(p, st)
    ops += _per_output(p, outs(st) if puts else (), _put)
    for port in ins(st):
        ops += _release(p, port)
    return tuple(ops)


def _per_output(p: Program, ports, make) -> list:
    """`make(p, port, group)` for each output, but once per group: a barrier and a multicast
    serve every receiver of the group at once."""
    ops, seen = [], set()
    for port in ports:
        group = p.group_of_stream.get(port.stream)
        if group is not None and p.handshakes[port.stream].kind == "barrier":
            if group in seen:
                continue
            seen.add(group)
        ops += make(p, port, group)
    return ops


def _take_wait(p: Program, port):
    h = p.handshakes[port.stream]
    if h.kind in ("fifo", "valid_ready"):
        return L["WaitFront"](port.stream, port.rate)
    return L["Wait"](h.data, port.rate)


def _claim(p: Program, port, group) -> list:
    h = p.handshakes[port.stream]
    if h.kind in ("fifo", "valid_ready"):
        return [L["Reserve"](port.stream, port.rate)]
    if h.kind == "semaphore_pair":
        return [L["Wait"](h.credit, port.rate)]
    return [L["Barrier"](group)]


def _work(p: Program, st) -> list:
    kind = st._prod
    if kind == "Store":
        return [L["Write"](st.input.stream, st.name)]
    if kind != "Load":
        return [L["Fire"](st.name)]
    targets = dict.fromkeys(p.group_of_stream.get(port.stream, port.stream)
                            for port in st.outs)
    return [L["Read"](st.name, target) for target in targets]


def _put(p: Program, port, group) -> list:
    b, k = port.stream, port.rate
    h = p.handshakes[b]
    if h.kind == "fifo":
        return [L["Push"](b, k)]
    if h.kind == "valid_ready":
        return [L["Send"](b, k)]
    if h.kind == "semaphore_pair":
        return [L["Send"](b, k), L["Signal"](h.data, k)]
    receivers = p.groups[group].streams
    return [L["Multicast"](group, 1),
            *(L["Signal"](p.handshakes[r].data, 1) for r in receivers)]


def _release(p: Program, port) -> list:
    h = p.handshakes[port.stream]
    ops = [L["Pop"](port.stream, port.rate)]
    if h.kind in ("semaphore_pair", "barrier"):
        ops.append(L["Signal"](h.credit, port.rate))
    return ops


def _ops(items, firing: dict) -> tuple:
    ops: list = []
    for item in items:
        if isinstance(item, Loop):
            ops.append(L["Repeat"](item.count, _ops(item.body, firing)))
        else:
            ops += firing[item]
    return tuple(ops)


# -- compressing a sequence of firings ----------------------------------------------------


@dataclass(frozen=True)
class Loop:
    """`body` (a tuple of items: an element of the sequence, or a Loop) `count` times."""
    count: int
    body: tuple


# How far into a sequence its repeating middle may start: a pipeline's fill is a few firings.
LONGEST_HEAD = 8


def compress(seq) -> tuple:
    """`seq` as items: its smallest block repeated, when it has one; else a short head, the
    longest stretch after it that is one block repeated, and the rest compressed the same
    way (a pipeline fills, runs in step, then drains); runs of one element as Loops. A
    stretch must cover a quarter of what is left, so the search ends after a few stretches
    and the nesting of loops stays shallow."""
    items: list = []
    rest = tuple(seq)
    while rest:
        period = smallest_period(rest)
        if period < len(rest):
            items.append(Loop(len(rest) // period, compress(rest[:period])))
            break
        middle = _repeated_middle(rest)
        if middle is None or middle[1] * middle[2] * 4 < len(rest):
            items += _runs(rest)
            break
        head, period, count = middle
        items += _runs(rest[:head])
        items.append(Loop(count, compress(rest[head:head + period])))
        rest = rest[head + period * count:]
    return tuple(items)


def _repeated_middle(seq: tuple) -> tuple[int, int, int] | None:
    """(head, period, count): of the stretches that start within LONGEST_HEAD elements and
    are one block repeated at least twice, the longest (the earliest of equals); None when
    none saves more than a run-length form would."""
    best = None
    for head in range(min(LONGEST_HEAD, len(seq)) + 1):
        found = _longest_repeated_prefix(seq[head:])
        if found is None:
            continue
        period, count = found
        if best is None or period * count > best[1] * best[2]:
            best = (head, period, count)
    if best is None or best[1] == 1:  # a run: _runs says that already
        return None
    return best


def _longest_repeated_prefix(seq: tuple) -> tuple[int, int] | None:
    """(period, count) of the longest prefix of `seq` that is a block repeated twice or
    more, from the prefix function of `seq` (the border of every prefix), in linear time."""
    border = _borders(seq)
    for length in range(len(seq), 1, -1):
        period = length - border[length - 1]
        if period < length and length % period == 0:
            return period, length // period
    return None


def _borders(seq) -> list[int]:
    """For each prefix of `seq`, the length of its longest proper border (the
    Knuth-Morris-Pratt failure function)."""
    border = [0] * len(seq)
    k = 0
    for i in range(1, len(seq)):
        while k and seq[i] != seq[k]:
            k = border[k - 1]
        if seq[i] == seq[k]:
            k += 1
        border[i] = k
    return border


def _runs(seq: tuple) -> tuple:
    items, i = [], 0
    while i < len(seq):
        j = i + 1
        while j < len(seq) and seq[j] == seq[i]:
            j += 1
        items.append(seq[i] if j - i == 1 else Loop(j - i, (seq[i],)))
        i = j
    return tuple(items)


def smallest_period(seq) -> int:
    """The length of the shortest block that, repeated a whole number of times, is `seq`
    (len(seq) when only `seq` itself is): from the longest border of `seq`, in linear time."""
    n = len(seq)
    if n == 0:
        return 0
    period = n - _borders(seq)[-1]
    return period if n % period == 0 else n
