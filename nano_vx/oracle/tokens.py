"""The token semantics of a choreographed spatial program (docs/spatial.md), the oracle every
rewrite of the spatial lane answers to.

The machine state is persistent (pyrsistent vectors indexed by small integers, tuples for
queues), so a state can be kept and forked for free: `step(state, engine)` returns a new state
and leaves the old one as it was. That is what lets a test run many fair interleavings from a
shared prefix and check they reach the same outcome.

Per buffer the state holds its queue of visible tokens, the slots its producer holds reserved,
and the values the producer has staged but not yet put. A put (`push`, `send`, `multicast`)
needs as many staged values and reserved slots as it puts, or the outcome is an Overflow; a
read of a token that is not there (`fire`, `write`, `pop` ahead of `wait_front`) is an
Underflow. `reserve`, `wait_front`, `wait` and `barrier` block until their condition holds;
every other op runs at once. A stage accumulating over n firings (`ops.accumulate`) keeps its
running sum in the state between its firings and stages the sum only at every n-th.

`Machine.step` and `run` are the reference semantics. `fast.eval_choreography` runs the same
fixed order through a compiled runner (many times faster), which tests/oracle/test_fast.py
checks against them, outcome and final state.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pyrsistent import pvector

from ..spatial.balance import repetitions
from ..spatial.ops import NO_SUM, NUMPY_DTYPES, access_slices, accumulate, accumulating, fire
from ..spatial.program import Program, ins, is_copy, outs
from ..spatial.text import OP_WORDS
from .outcomes import Deadlock, Finished, Overflow, Underflow

(LOOP, END, RESERVE, READ, WRITE, PUSH, SEND, MCAST, WAITFRONT, POP, WAIT, SIGNAL, BARRIER,
 FIRE) = range(14)
BLOCKING = frozenset({RESERVE, WAITFRONT, WAIT, BARRIER})


@dataclass(frozen=True)
class State:
    pcs: object  # per engine: (ip, remaining iterations of each open loop)
    queues: object  # per buffer: a tuple of tokens
    reserved: object  # per buffer
    staged: object  # per buffer, then per group: a tuple of values
    sems: object
    cursors: object  # per (stage, staging target): tiles read or written so far
    writes: object  # (tensor, slices, tile) in the order stores wrote them
    counts: object  # per engine: ops executed
    claimed: object  # per buffer: tokens its consumer waited for on the data semaphore
    steps: int
    fires: int = 0  # of the steps, tile computations
    held: object = pvector()  # per accumulating stage: (firings since its last sum, the sum)


class Machine:
    """The static part of a run: the schedules compiled to flat code, and every name turned
    into an index."""

    def __init__(self, graph, inputs: dict[str, np.ndarray]):
        p = self.p = Program(graph)
        repetitions(p)  # a choreography of an inconsistent graph has no meaning either
        self.buffers = list(p.streams)
        self.groups = list(p.groups)
        self.sems = list(p.semaphores)
        bid = self.bid = {b: i for i, b in enumerate(self.buffers)}
        self.gid = {g: len(self.buffers) + i for i, g in enumerate(self.groups)}
        sid = self.sid = {s: i for i, s in enumerate(self.sems)}
        self.depth = [p.buffers[b].depth for b in self.buffers]
        self.site = [p.buffers[b].site for b in self.buffers]
        self.receivers = [tuple(bid[s] for s in p.groups[g].streams) for g in self.groups]
        # The buffer whose slots a credit semaphore counts: a wait on it reserves them.
        self.credit_of = [None] * len(self.sems)
        self.data_of = [None] * len(self.sems)  # the buffer whose tokens it announces
        for b, h in p.handshakes.items():
            if h.credit is not None and h.credit in sid:
                self.credit_of[sid[h.credit]] = bid[b]
            if h.data is not None and h.data in sid:
                self.data_of[sid[h.data]] = bid[b]
        self.receiver_credits = [tuple(sid[p.handshakes[self.buffers[r]].credit]
                                       for r in rs) for rs in self.receivers]
        self.dram = {n: np.asarray(inputs[n]) for n, t in p.tensors.items() if t.role == "input"}
        self.cursor_id: dict[tuple[str, str], int] = {}
        self.held_id = {n: k for k, n in enumerate(n for n, st in p.stages.items()
                                                   if accumulating(st))}
        self.slices: dict[str, list] = {}  # per load or store: the region of each firing
        self.engines = [(s.site, s.engine) for s in p.table("schedules")]
        self.code = [self._compile(s.ops, []) for s in p.table("schedules")]
        self.ops_text = [self._texts(s.ops, []) for s in p.table("schedules")]

    # -- compiling -------------------------------------------------------------------------

    def _compile(self, ops, code) -> list:
        for op in ops:
            kind = op._prod
            if kind == "Repeat":
                start = len(code)
                code.append([LOOP, op.count, None])
                self._compile(op.body, code)
                code.append((END, start))
                code[start][2] = len(code)
                code[start] = tuple(code[start])
            else:
                code.append(self._instr(op))
        return code

    def _texts(self, ops, out) -> list:
        """The op each instruction came from, as text, for a deadlock's report."""
        for op in ops:
            if op._prod == "Repeat":
                out.append(f"repeat {op.count}")
                self._texts(op.body, out)
                out.append("end of repeat")
            else:
                args = [str(getattr(op, f)) for f in op._fields]
                out.append(" ".join([OP_WORDS[op._prod], *args]))
        return out

    def _slices(self, st) -> list:
        if st.name not in self.slices:
            self.slices[st.name] = access_slices(st, self.p.tensors[st.tensor].shape)
        return self.slices[st.name]

    def _cursor(self, stage: str, target: str) -> int:
        return self.cursor_id.setdefault((stage, target), len(self.cursor_id))

    def _instr(self, op) -> tuple:
        p, bid = self.p, self.bid
        kind = op._prod
        if kind == "Read":
            st = p.stages[op.stage]
            target = self.gid.get(op.buffer, bid.get(op.buffer))
            return (READ, self.dram[st.tensor], self._slices(st), target,
                    self._cursor(op.stage, op.buffer))
        if kind == "Write":
            st = p.stages[op.stage]
            return (WRITE, bid[op.buffer], st.tensor, self._slices(st),
                    self._cursor(op.stage, op.buffer))
        if kind == "Fire":
            st = p.stages[op.stage]
            inputs = tuple((bid[port.stream], port.rate) for port in ins(st))
            targets = tuple(bid[port.stream] for port in outs(st))
            return (FIRE, st, inputs, targets, p.stage_dtype(st), self.held_id.get(st.name))
        if kind in ("Multicast", "Barrier"):
            g = self.gid[op.group] - len(self.buffers)
            return ((MCAST, g, op.count) if kind == "Multicast" else (BARRIER, g))
        if kind in ("Wait", "Signal"):
            return ((WAIT if kind == "Wait" else SIGNAL), self.sid[op.sem], op.count)
        code = {"Reserve": RESERVE, "Push": PUSH, "Send": SEND, "WaitFront": WAITFRONT,
                "Pop": POP}[kind]
        return (code, bid[op.buffer], op.count)

    # -- states ----------------------------------------------------------------------------

    def initial(self) -> State:
        nb = len(self.buffers)
        pcs = pvector(self._settle(code, 0, ()) for code in self.code)
        return State(pcs, pvector([()] * nb), pvector([0] * nb),
                     pvector([()] * (nb + len(self.groups))),
                     pvector(self.p.semaphores[s].initial for s in self.sems),
                     pvector([0] * max(1, len(self.cursor_id))), pvector(),
                     pvector([0] * len(self.code)), pvector([0] * nb), 0, 0,
                     pvector([NO_SUM] * len(self.held_id)))

    @staticmethod
    def _settle(code, ip, loops) -> tuple:
        """Run the loop control at `ip` until an op (or the end) is next."""
        while ip < len(code):
            instr = code[ip]
            if instr[0] == LOOP:
                if instr[1] <= 0:
                    ip = instr[2]
                else:
                    loops += (instr[1],)
                    ip += 1
            elif instr[0] == END:
                if loops[-1] > 1:
                    loops = loops[:-1] + (loops[-1] - 1,)
                    ip = instr[1] + 1
                else:
                    loops = loops[:-1]
                    ip += 1
            else:
                break
        return (ip, loops)

    def finished(self, state: State, e: int) -> bool:
        return state.pcs[e][0] >= len(self.code[e])

    def enabled(self, state: State, e: int) -> bool:
        ip = state.pcs[e][0]
        code = self.code[e]
        if ip >= len(code):
            return False
        instr = code[ip]
        op = instr[0]
        if op not in BLOCKING:
            return True
        if op == RESERVE:
            b = instr[1]
            return (self.depth[b] - len(state.queues[b]) - state.reserved[b]) >= instr[2]
        if op == WAITFRONT:
            return len(state.queues[instr[1]]) >= instr[2]
        if op == WAIT:
            return state.sems[instr[1]] >= instr[2]
        return all(state.sems[s] >= 1 for s in self.receiver_credits[instr[1]])

    def step(self, state: State, e: int):
        """Execute the next op of engine `e` (which must be enabled): a new State, or the
        Overflow or Underflow the op runs into."""
        ip, loops = state.pcs[e]
        instr = self.code[e][ip]
        op = instr[0]
        n = state.steps + 1
        q, r, stg, sm, cur, wr, cl, hd = (state.queues, state.reserved, state.staged,
                                          state.sems, state.cursors, state.writes,
                                          state.claimed, state.held)
        if op == RESERVE:
            r = r.set(instr[1], r[instr[1]] + instr[2])
        elif op == READ:
            _, tensor, slices, target, c = instr
            stg = stg.set(target, stg[target] + (tensor[slices[cur[c] % len(slices)]],))
            cur = cur.set(c, cur[c] + 1)
        elif op == FIRE:
            _, st, inputs, targets, dtype, h = instr
            taken = []
            for b, rate in inputs:
                if len(q[b]) < rate:
                    return self._under(b, n, f"'{st.name}' fires with {len(q[b])} of the "
                                             f"{rate} tokens it takes")
                taken.append(list(q[b][:rate]))
            if h is None:
                made = tuple(fire(st, taken, dtype))
            else:
                now, put = accumulate(st, taken, dtype, hd[h])
                hd, made = hd.set(h, now), tuple(put)
            for t in targets:
                stg = stg.set(t, stg[t] + made)
        elif op in (PUSH, SEND):
            _, b, k = instr
            bad = self._put_check(state, b, k, b)
            if bad:
                return Overflow(self.buffers[b], self.site[b], n, bad)
            q = q.set(b, q[b] + stg[b][:k])
            stg = stg.set(b, stg[b][k:])
            r = r.set(b, r[b] - k)
        elif op == MCAST:
            _, g, k = instr
            slot = len(self.buffers) + g
            if len(stg[slot]) < k:
                return Overflow(self.groups[g], (), n, f"multicasts {k} tokens but "
                                                       f"{len(stg[slot])} are staged")
            for b in self.receivers[g]:
                bad = self._put_check(state, b, k, slot)
                if bad:
                    return Overflow(self.buffers[b], self.site[b], n, bad)
                q = q.set(b, q[b] + stg[slot][:k])
                r = r.set(b, r[b] - k)
            stg = stg.set(slot, stg[slot][k:])
        elif op == WAITFRONT:
            pass
        elif op == POP:
            _, b, k = instr
            if len(q[b]) < k:
                return self._under(b, n, f"pops {k} tokens but {len(q[b])} are there")
            q = q.set(b, q[b][k:])
            cl = cl.set(b, max(0, cl[b] - k))
        elif op == WAIT:
            _, s, k = instr
            sm = sm.set(s, sm[s] - k)
            b = self.credit_of[s]
            if b is not None:
                r = r.set(b, r[b] + k)
            b = self.data_of[s]
            if b is not None:
                cl = cl.set(b, cl[b] + k)
        elif op == SIGNAL:
            _, s, k = instr
            bad = self._signal_check(state, s, k)
            if bad:
                return bad
            sm = sm.set(s, sm[s] + k)
        elif op == BARRIER:
            for s, b in zip(self.receiver_credits[instr[1]], self.receivers[instr[1]]):
                sm = sm.set(s, sm[s] - 1)
                r = r.set(b, r[b] + 1)
        elif op == WRITE:
            _, b, tensor, slices, c = instr
            if not q[b]:
                return self._under(b, n, "writes a token to DRAM from an empty buffer")
            wr = wr.append((tensor, slices[cur[c] % len(slices)], q[b][0]))
            cur = cur.set(c, cur[c] + 1)
        pcs = state.pcs.set(e, self._settle(self.code[e], ip + 1, loops))
        counts = state.counts.set(e, state.counts[e] + 1)
        computes = op == FIRE and not is_copy(instr[1])
        return State(pcs, q, r, stg, sm, cur, wr, counts, cl, n, state.fires + computes, hd)

    def _put_check(self, state: State, b: int, k: int, slot: int) -> str | None:
        if len(state.staged[slot]) < k:
            return f"puts {k} tokens but {len(state.staged[slot])} are staged"
        if state.reserved[b] < k:
            return (f"puts {k} tokens into slots its producer holds {state.reserved[b]} of "
                    f"(depth {self.depth[b]})")
        if len(state.queues[b]) + k > self.depth[b]:
            return (f"puts {k} tokens into a buffer holding {len(state.queues[b])} of "
                    f"depth {self.depth[b]}")
        return None

    def _signal_check(self, state: State, s: int, k: int):
        """A semaphore of a handshake may only count what is so. Every slot of a buffer is
        free on the credit semaphore, held by the producer, or holding a token, so a credit
        signalled before its slot is popped is one slot too many, an Overflow waiting for the
        producer to use it; the data semaphore counts tokens in the buffer the consumer has not
        waited for, so data signalled before it is sent is an Underflow waiting for the
        consumer to read it. Caught at the signal, the fault does not depend on which engine
        happens to run next."""
        n = state.steps + 1
        b = self.credit_of[s]
        if b is not None:
            slots = state.sems[s] + k + state.reserved[b] + len(state.queues[b])
            if slots > self.depth[b]:
                return Overflow(self.buffers[b], self.site[b], n,
                                f"'{self.sems[s]}' is signalled to {state.sems[s] + k} "
                                f"credits while the producer holds {state.reserved[b]} "
                                f"slots and {len(state.queues[b])} hold tokens: more than "
                                f"the depth {self.depth[b]}")
        b = self.data_of[s]
        if b is not None and state.sems[s] + k + state.claimed[b] > len(state.queues[b]):
            return self._under(b, n, f"'{self.sems[s]}' announces {state.sems[s] + k} tokens "
                                     f"beyond the {state.claimed[b]} already taken, but the "
                                     f"buffer holds {len(state.queues[b])}")
        return None

    def _under(self, b: int, n: int, why: str) -> Underflow:
        return Underflow(self.buffers[b], self.site[b], n, why)

    def outcome(self, state: State):
        """Finished or Deadlock, for a state where no engine is enabled."""
        unfinished = [e for e in range(len(self.code)) if not self.finished(state, e)]
        if unfinished:
            blocked = tuple((self._who(e), self.ops_text[e][state.pcs[e][0]])
                            for e in unfinished)
            return Deadlock(blocked, state.steps)
        return Finished(self.outputs(state), state.steps,
                        {self._who(e): state.counts[e] for e in range(len(self.code))},
                        state.fires)

    def outputs(self, state: State) -> dict[str, np.ndarray]:
        out = {n: np.zeros(t.shape, dtype=NUMPY_DTYPES[t.dtype])
               for n, t in self.p.tensors.items() if t.role == "output"}
        for tensor, where, tile in state.writes:
            out[tensor][where] = tile
        return out

    def _who(self, e: int) -> str:
        site, engine = self.engines[e]
        return f"{engine}{list(site)}"

    def names(self) -> list[str]:
        """Each engine as outcomes name it, `reader[0, 1]`, in schedule order."""
        return [self._who(e) for e in range(len(self.code))]


def run(machine: Machine, state: State | None = None, on_step=None):
    """The fixed fair order: engines in turn, each running until it blocks or ends. The
    reference for the compiled runner of nano_vx/oracle/fast.py, which `eval_choreography`
    uses and tests/oracle/test_fast.py checks against this one. `on_step(state, e)`, when
    given, sees each step before it is taken (the certificate records its witness so)."""
    state = machine.initial() if state is None else state
    engines = range(len(machine.code))
    while True:
        progressed = False
        for e in engines:
            while machine.enabled(state, e):
                if on_step is not None:
                    on_step(state, e)
                state = machine.step(state, e)
                if not isinstance(state, State):
                    return state
                progressed = True
        if not progressed:
            return machine.outcome(state)
