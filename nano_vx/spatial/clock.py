"""The clock (docs/spatial.md, "The period"): the steady-state period of a choreographed program,
computed from its handshake graph as the maximum cycle ratio, exactly. Not fitted.

The program runs as a persistent kernel: each engine runs its whole schedule once per *run*
and then starts again, with no barrier between runs, so a fast engine may start run n+1
while a slow one is still in run n. A program whose run leaves its buffers empty and its
semaphores at their initial values (every reference program) repeats this way forever; the
period is the cycles per run in the steady state. One run is the program as written.

The handshake graph (a timed event graph, unrolled over one run):

- a **node** per op of each engine's run (a `repeat` unrolled), weighted by the cycles the
  cost model gives it (`cost.OpCycles`, integers);
- an **edge** v -> u for each dependence "v may start only once u has ended", weighted by
  u's cycles and carrying `tokens`: how many runs back u is (run n of v waits for run n -
  tokens of u):
  - program order: each op waits for the op before it in its engine; the engine's first op
    waits for its last, one run back (one token);
  - `wait_front b k` waits for the put (push, send, multicast) that brings the tokens put
    into b up to the tokens its engine has popped from b before it, plus k;
  - `reserve b k` waits for the pop of b that brings b's free slots up to k: the slots
    reserved before it (by reserve, by a wait on b's credit semaphore, by a barrier), plus
    k, minus the depth. The depth is the initial tokens of this back edge, the credit edge;
  - `wait s k` waits for the signal that brings s up to what its waiter took from it before,
    plus k, minus s's initial value; `barrier g` waits, for every receiver of g, for the
    signal that brings its credit semaphore to 1 (semaphores likewise carry their initial
    values as tokens).
  A count that the supplier reaches in run n - d gives an edge with d tokens: the initial
  depth and credits, in runs.

The start of op v in run n is then the latest end of the ops it waits for (a max-plus linear
recurrence), and the asymptotic cycles per run of every op is the largest ratio, over the
cycles the op can reach, of the cycle's weight (cycles) to its tokens (runs). `max_cycle_ratio`
finds it by Howard's policy iteration in exact arithmetic (Fractions), so the period is an
exact rational. The timed oracle (nano_vx/oracle/timed.py) simulates the same schedules with
the same cycles and measures the same number.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from fractions import Fraction


class ClockError(Exception):
    """A program the clock cannot give a period: one whose run does not return to its start,
    or with a semaphore signalled by more than one engine (its waiter then depends on a sum
    of two engines' progress, which no single edge says)."""


@dataclass(frozen=True)
class Node:
    engine: int
    index: int  # the op's place in its engine's run
    op: object
    cycles: int


@dataclass(frozen=True)
class Edge:
    src: int  # the op that waits
    dst: int  # the op it waits for
    weight: int  # dst's cycles
    tokens: int  # runs between them
    why: str


@dataclass
class HandshakeGraph:
    engines: list[str]  # as outcomes name them, reader[0, 1]
    nodes: list[Node]
    edges: list[Edge]
    first: list[int]  # per engine, its first node (None for an empty schedule)


def engine_name(site, engine: str) -> str:
    """As outcomes name an engine (`tokens.Machine.names`), without a Machine to ask."""
    return f"{engine}{list(site)}"


def unroll(ops):
    """A schedule's ops in the order one run executes them."""
    for op in ops:
        if op._prod == "Repeat":
            for _ in range(op.count):
                yield from unroll(op.body)
        else:
            yield op


def handshake_graph(graph, target, cycles=None) -> HandshakeGraph:
    from .cost import OpCycles
    from .program import Program

    cycles = cycles or OpCycles(graph, target)
    p = Program(graph)
    scheds = p.table("schedules")
    names = [engine_name(s.site, s.engine) for s in scheds]
    nodes: list[Node] = []
    first: list = []
    last: dict[int, int] = {}
    for e, s in enumerate(scheds):
        ops = list(unroll(s.ops))
        first.append(len(nodes) if ops else None)
        nodes += [Node(e, i, op, cycles.of(s.site, s.engine, op)) for i, op in enumerate(ops)]
        last[e] = len(nodes) - 1
    counts = _Counts(p, nodes, names)
    edges: list[Edge] = []
    for v, node in enumerate(nodes):
        if node.index:
            edges.append(Edge(v, v - 1, nodes[v - 1].cycles, 0, "program order"))
        else:
            u = last[node.engine]
            edges.append(Edge(v, u, nodes[u].cycles, 1, "program order, the run before"))
        for key, need in counts.demands.get(v, ()):
            u, tokens = counts.supplier(key, need)
            edges.append(Edge(v, u, nodes[u].cycles, tokens, _WHY[key[0]].format(key[1])))
    return HandshakeGraph(names, nodes, edges, first)


_WHY = {"put": "tokens put into {}", "pop": "slots of {} freed", "sig": "semaphore {}"}


class _Counts:
    """The counters the blocking ops wait on, per run: tokens put into a buffer ("put", b),
    tokens popped from it ("pop", b), signals of a semaphore ("sig", s); who supplies each
    (one engine, its ops' cumulative amounts) and what each blocking op needs of it."""

    def __init__(self, p, nodes: list[Node], names: list[str]):
        self.names = names
        self.supply: dict[tuple, list[tuple[int, int]]] = {}  # key -> [(node, cumulative)]
        self.suppliers: dict[tuple, set[int]] = {}
        self.demands: dict[int, list[tuple[tuple, int]]] = {}
        taken: dict[tuple, int] = {}  # per key, what its consumer took before the op at hand
        credit_of = {h.credit: b for b, h in p.handshakes.items() if h.credit}
        receivers = {g: [(b, p.handshakes[b].credit) for b in grp.streams]
                     for g, grp in p.groups.items()}
        depth = {b: buf.depth for b, buf in p.buffers.items()}
        initial = {s: sem.initial for s, sem in p.semaphores.items()}

        def give(key, v, k):
            cumulative = self.supply.setdefault(key, [])
            cumulative.append((v, (cumulative[-1][1] if cumulative else 0) + k))
            self.suppliers.setdefault(key, set()).add(nodes[v].engine)

        def need(key, v, k, start):
            self.demands.setdefault(v, []).append((key, taken.get(key, 0) + k - start))

        def take(key, k):
            taken[key] = taken.get(key, 0) + k

        for v, node in enumerate(nodes):
            op, kind = node.op, node.op._prod
            if kind in ("Push", "Send"):
                give(("put", op.buffer), v, op.count)
            elif kind == "Multicast":
                for b, _ in receivers[op.group]:
                    give(("put", b), v, op.count)
            elif kind == "Pop":
                give(("pop", op.buffer), v, op.count)
                take(("put", op.buffer), op.count)
            elif kind == "Signal":
                give(("sig", op.sem), v, op.count)
            elif kind == "WaitFront":
                need(("put", op.buffer), v, op.count, 0)
            elif kind == "Reserve":
                need(("pop", op.buffer), v, op.count, depth[op.buffer])
                take(("pop", op.buffer), op.count)
            elif kind == "Wait":
                need(("sig", op.sem), v, op.count, initial[op.sem])
                take(("sig", op.sem), op.count)
                if op.sem in credit_of:
                    take(("pop", credit_of[op.sem]), op.count)
            elif kind == "Barrier":
                for b, credit in receivers[op.group]:
                    need(("sig", credit), v, 1, initial[credit])
                    take(("sig", credit), 1)
                    take(("pop", b), 1)
        self.totals = {key: c[-1][1] for key, c in self.supply.items()}
        self.levels: dict[tuple, list[int]] = {}
        self._check(taken)

    def _check(self, taken: dict) -> None:
        for key, engines in sorted(self.suppliers.items()):
            if len(engines) > 1 and key[0] == "sig":
                who = ", ".join(self.names[e] for e in sorted(engines))
                raise ClockError(f"semaphore '{key[1]}' is signalled by {who}: its waiter "
                                 f"depends on the sum of their signals, which the clock's "
                                 f"graph (one edge per dependence) cannot say")
        kinds = ("put", "pop", "sig")  # the tokens first: the plainest account of a fault
        for key in sorted(set(taken) | set(self.totals), key=lambda k: (kinds.index(k[0]), k)):
            made, used = self.totals.get(key, 0), taken.get(key, 0)
            if made != used:
                what = {"put": f"buffer '{key[1]}' receives {made} tokens a run but gives up "
                               f"{used}",
                        "pop": f"buffer '{key[1]}' frees {made} slots a run but {used} are "
                               f"reserved",
                        "sig": f"semaphore '{key[1]}' is signalled {made} a run but its "
                               f"waiter takes {used}"}[key[0]]
                raise ClockError(f"{what}: a run does not return to where it started, so the "
                                 f"program has no steady state to repeat")

    def supplier(self, key: tuple, need: int) -> tuple[int, int]:
        """The op whose supply of `key` reaches `need` (counted in the waiting op's run), and
        how many runs before that run it does."""
        total = self.totals.get(key, 0)
        if total == 0:
            raise ClockError(f"an op waits on {key[1]}, which nothing supplies")
        back, local = divmod(need - 1, total)
        if back > 0:
            raise ClockError(f"an op waits on {key[1]} for more than its run supplies")
        if key not in self.levels:
            self.levels[key] = [c for _, c in self.supply[key]]
        at = bisect.bisect_left(self.levels[key], local + 1)
        return self.supply[key][at][0], -back


# -- the maximum cycle ratio ---------------------------------------------------------------


@dataclass(frozen=True)
class Ratio:
    """The maximum cycle ratio of a graph: `value`; `eta[v]`, the largest ratio of a cycle v
    reaches; `cycle`, the nodes of one cycle whose ratio is `value`, in edge order; and the
    edges (indices) of that cycle."""

    value: Fraction
    eta: list
    cycle: list[int]
    cycle_edges: list[int]


def max_cycle_ratio(n: int, edges) -> Ratio:
    """Howard's policy iteration for the maximum, over the cycles of a graph, of the cycle's
    total weight over its total tokens. `edges` are (src, dst, weight, tokens); every node
    needs an edge out and every cycle at least one token (else ValueError). Exact: weights
    and tokens are ints or Fractions and so is every value computed.

    A policy picks one edge out of every node; the nodes it reaches form cycles, each with
    its ratio `eta` and values `x` (x[u] = w - eta*t + x[succ], one node of each cycle fixed).
    It improves while some node has an edge to a higher eta, or, among equal etas, one with a
    larger w - eta*t + x; the policy it ends with is optimal: eta[v] is the largest ratio of
    a cycle reachable from v (Cochet-Terrasson, Cohen, Gaubert, McGettrick and Quadrat,
    Numerical computation of spectral elements in max-plus algebra, IFAC 1998).

    The arithmetic is on integers, every value times one common denominator (`_Scaled`):
    the same numbers as Fractions and the same comparisons, so the same policies and the
    same answer, without a Fraction's normalising gcd at each of the graph's many steps."""
    out: list[list[int]] = [[] for _ in range(n)]
    for i, (u, v, w, t) in enumerate(edges):
        if not (0 <= u < n and 0 <= v < n) or t < 0:
            raise ValueError(f"edge {i} {edges[i]!r}: nodes 0..{n - 1}, tokens >= 0")
        out[u].append(i)
    for u in range(n):
        if not out[u]:
            raise ValueError(f"node {u} has no edge out")
    policy = [max(out[u], key=lambda i: (edges[i][2], -i)) for u in range(n)]
    s = _Scaled(n, edges, policy)
    dst, tokens = s.dst, s.tokens
    # A node with one edge out keeps it: only the others have a choice to improve.
    choosers = [u for u in range(n) if len(out[u]) > 1]
    moved: list[int] | None = None  # the nodes whose edge the last round changed
    for _ in range(4 * n * n + 16):
        eta, x = s.values(policy, moved)
        moved = []
        for u in choosers:
            best, top = policy[u], eta[u]
            for i in out[u]:
                if eta[dst[i]] > top:
                    best, top = i, eta[dst[i]]
            if best != policy[u]:
                policy[u] = best
                moved.append(u)
        if not moved:
            weight = s.weight
            for u in choosers:
                best, top, here = policy[u], x[u], eta[u]
                for i in out[u]:
                    v = dst[i]
                    if eta[v] == here:
                        value = weight[i] - here * tokens[i] + x[v]
                        if value > top:
                            best, top = i, value
                if best != policy[u]:
                    policy[u] = best
                    moved.append(u)
        if not moved:
            return _result(n, edges, policy, s.fractions(eta))
    raise RuntimeError("Howard's policy iteration did not converge")  # a bug, not an input


class _Scaled:
    """The values of Howard's iteration as integers: each is `scale` times the exact
    rational. The scale starts as the weights' common denominator and grows, everything
    held multiplied along, whenever a cycle's ratio needs a factor it lacks.

    A round revalues only the nodes whose path along the policy passes through a node whose
    edge changed: every other node's path, and the cycle it ends in with that cycle's
    fixed node, are as they were, and so are its values."""

    def __init__(self, n: int, edges, policy: list[int]):
        self.n = n
        self.dst = [e[1] for e in edges]
        self.tokens = [e[3] for e in edges]
        self.scale = math.lcm(*(Fraction(e[2]).denominator for e in edges))
        self.weight = [int(e[2] * self.scale) for e in edges]
        self.eta: list = [None] * n
        self.x: list = [None] * n
        self.succ = [self.dst[policy[u]] for u in range(n)]
        self.preds: list[set[int]] = [set() for _ in range(n)]  # along the policy
        for u, v in enumerate(self.succ):
            self.preds[v].add(u)

    def _grow(self, factor: int) -> None:
        self.scale *= factor
        self.weight = [w * factor for w in self.weight]
        for values in (self.eta, self.x):
            for k, v in enumerate(values):
                if v is not None:
                    values[k] = v * factor

    def _stale(self, policy: list[int], moved: list[int] | None) -> list[int]:
        """0 for each node to revalue, 2 for the others."""
        if moved is None:
            return [0] * self.n
        succ, preds = self.succ, self.preds
        for u in moved:
            preds[succ[u]].discard(u)
            succ[u] = self.dst[policy[u]]
            preds[succ[u]].add(u)
        state = [2] * self.n
        for u in moved:
            state[u] = 0
        todo = list(moved)
        while todo:
            for p in preds[todo.pop()]:
                if state[p]:
                    state[p] = 0
                    todo.append(p)
        return state

    def values(self, policy: list[int], moved: list[int] | None) -> tuple[list, list]:
        """eta and x of a policy (see max_cycle_ratio), given the nodes whose edge changed
        since the last call (None on the first). On each cycle the node with the smallest
        number keeps its previous value, which makes the iteration terminate."""
        dst, tokens, succ = self.dst, self.tokens, self.succ
        state = self._stale(policy, moved)  # 0: unseen, 1: on the path walked, 2: valued
        eta, x = self.eta, self.x
        for root in range(self.n):
            if state[root]:
                continue
            path = []
            u = root
            while state[u] == 0:
                state[u] = 1
                path.append(u)
                u = succ[u]
            if state[u] == 1:  # the walk closed a cycle of the policy
                cycle = path[path.index(u):]
                w = sum(self.weight[policy[c]] for c in cycle)
                t = sum(tokens[policy[c]] for c in cycle)
                if t == 0:
                    raise ValueError(f"a cycle with no tokens through nodes {sorted(cycle)}")
                if w % t:
                    factor = t // math.gcd(w, t)
                    self._grow(factor)
                    w *= factor
                ratio = w // t
                ref = min(cycle)
                at = cycle.index(ref)
                if x[ref] is None:
                    x[ref] = 0
                eta[ref] = ratio
                state[ref] = 2
                ring = cycle[at:] + cycle[:at]
                weight = self.weight
                for c in reversed(ring[1:]):
                    i = policy[c]
                    x[c], eta[c], state[c] = weight[i] - ratio * tokens[i] + x[dst[i]], ratio, 2
                path = path[:path.index(u)]
            weight = self.weight
            for c in reversed(path):
                i = policy[c]
                v = dst[i]
                x[c], eta[c], state[c] = weight[i] - eta[v] * tokens[i] + x[v], eta[v], 2
        return eta, x

    def fractions(self, values: list) -> list[Fraction]:
        made = {v: Fraction(v, self.scale) for v in set(values)}
        return [made[v] for v in values]


def _result(n: int, edges, policy: list[int], eta: list) -> Ratio:
    top = max(range(n), key=lambda u: (eta[u], -u))
    seen: dict[int, int] = {}
    u = top
    while u not in seen:
        seen[u] = len(seen)
        u = edges[policy[u]][1]
    cycle = list(seen)[seen[u]:]
    return Ratio(eta[top], eta, cycle, [policy[c] for c in cycle])


# -- the clock of a program ----------------------------------------------------------------


@dataclass(frozen=True)
class Clock:
    """The steady-state period of a program (cycles per run, exact), each engine's (the
    largest ratio of the cycles it waits on), the critical cycle as (engine, op) pairs, and
    the graph's size."""

    period: Fraction
    engines: dict[str, Fraction]
    critical: list[tuple[str, str]]
    nodes: int
    edges: int


def clock(graph, target, cycles=None) -> Clock:
    """The clock of a choreographed program on a target (ClockError when it has none)."""
    from .text import OP_WORDS

    g = handshake_graph(graph, target, cycles)
    order = [(e.src, e.dst, e.weight, e.tokens) for e in g.edges]
    _no_free_cycle(len(g.nodes), order)
    ratio = max_cycle_ratio(len(g.nodes), order)
    engines = {name: ratio.eta[g.first[e]] for e, name in enumerate(g.engines)
               if g.first[e] is not None}
    # The cycle follows "waits for" edges, backwards in time: turned round, it reads forwards,
    # from its first op in the order of the engines and their runs.
    ring = ratio.cycle[::-1]
    at = ring.index(min(ring))
    critical = [(g.engines[g.nodes[v].engine],
                 " ".join([OP_WORDS[g.nodes[v].op._prod], *map(str, g.nodes[v].op.values())]))
                for v in ring[at:] + ring[:at]]
    return Clock(ratio.value, engines, critical, len(g.nodes), len(g.edges))


def _no_free_cycle(n: int, edges) -> None:
    """A cycle of dependences within one run would be a deadlock: refuse it by name before
    the ratio divides by its zero tokens."""
    into = [0] * n
    succ: list[list[int]] = [[] for _ in range(n)]
    for u, v, _, t in edges:
        if t == 0:
            succ[u].append(v)
            into[v] += 1
    ready = [u for u in range(n) if into[u] == 0]
    seen = 0
    while ready:
        u = ready.pop()
        seen += 1
        for v in succ[u]:
            into[v] -= 1
            if into[v] == 0:
                ready.append(v)
    if seen < n:
        raise ClockError("the ops of one run wait on each other in a cycle: the program "
                         "deadlocks")
