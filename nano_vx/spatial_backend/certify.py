"""`certify`: the ChoreographyCertificate of a scheduled program (docs/certificate.md), a JSON
document the checkers of nano_vx/oracle/checkers decide without the compiler.

- structure: every engine, every buffer with its producer and consumer engines (from the
  places of its stages), its depth and bytes; every group; every semaphore with the engine
  that waits on it (from the handshakes);
- schedules: each engine's ops, and witness: the events of one run of the reference
  semantics (nano_vx/oracle/tokens.py, in the fixed fair order of `run`), each [engine, op,
  iteration];
- fit: per site, its buffers in its SRAM granules and buffer slots and its semaphores in its
  semaphore slots as a CNF (fit.py of the checkers encodes it), with a satisfying assignment
  from a SAT solver (cnf.py).

A program the lane refuses because a site cannot hold its buffers (E7011) or semaphores
(E7012), or a scheduled program given as such that does not fit (E7030), gets a certificate
of the refusal instead: that site's CNF and the solver's DRUP refutation of it.
"""

from __future__ import annotations

import json

from ..oracle.checkers.check_certificate import KIND, SCHEMA
from ..oracle.checkers.fit import encode, overfull
from ..spatial.cnf import solve
from ..spatial.program import Program, ins, outs
from ..spatial.text import OP_WORDS

FIT_CODES = ("E7011", "E7012")  # the refusals a certificate can prove


class CertificateError(Exception):
    """The certificate cannot be written where it was asked for."""


class DoesNotFit(Exception):
    """A scheduled program a site of its target cannot hold: the refusal's certificate."""

    def __init__(self, message: str, site: tuple, document: dict):
        super().__init__(message)
        self.message = message
        self.site = site
        self.document = document


def certify(graph, target, inputs) -> dict:
    """The certificate of a verified Schoreographed program, run on `inputs` (any inputs: the
    order of its events does not depend on the values). Raises DoesNotFit."""
    from ..oracle.outcomes import Finished
    from ..oracle.tokens import Machine, run
    from ..spatial.shapes import token_bytes, token_shapes

    p = Program(graph)
    fit = []
    for site, items in sorted(_site_items(graph).items()):
        entry = _fit(site, items, target)
        if "refutation" in entry:
            refusal = _head(graph, target, "refused") | {"code": "E7030", "site": list(site),
                                                         "fit": [entry]}
            raise DoesNotFit(f"site {site} cannot hold its buffers and semaphores: "
                             f"{'; '.join(overfull(entry['resources']))}", site, refusal)
        fit.append(entry)
    machine = Machine(graph, inputs)
    index = {engine: e for e, engine in enumerate(machine.engines)}
    numbers = [_op_numbers(code) for code in machine.code]
    witness, times = [], [{} for _ in machine.code]

    def record(state, e):
        k = numbers[e][state.pcs[e][0]]
        witness.append([e, k, times[e].get(k, 0)])
        times[e][k] = times[e].get(k, 0) + 1

    outcome = run(machine, on_step=record)
    if not isinstance(outcome, Finished):  # the lane refuses such a program before (E7021)
        raise ValueError(f"certify: the program does not finish: {outcome.describe()}")
    shapes = token_shapes(p)
    doc = _head(graph, target, "admitted")
    doc["structure"] = _structure(p, index, {s: token_bytes(p, shapes, s) for s in p.streams})
    doc["schedules"] = [_ops(s.ops, p) for s in p.table("schedules")]
    doc["witness"] = witness
    doc["fit"] = fit
    return doc


def certify_refusal(graph, target, reject) -> dict | None:
    """The certificate of a refusal by `size-buffers` (E7011, at the deadlock-free depths)
    or `synthesize-handshakes` (E7012) of `graph`, the refusing pass's input; None for
    another refusal, which has no certificate."""
    if reject.code not in FIT_CODES or reject.site is None:
        return None
    if reject.code == "E7011":
        from ..spatial.buffer_depths import buffer_demands

        site, depth, _, token = buffer_demands(graph)
        items = {"buffers": [(s, depth[s] * token[s]) for s in sorted(site)
                             if site[s] == reject.site], "semaphores": None}
    else:
        from ..spatial.handshakes import semaphores_per_site

        items = _site_items(graph).get(reject.site, {"buffers": []})
        items["semaphores"] = sorted(semaphores_per_site(Program(graph), target).get(
            reject.site, []))
    entry = _fit(reject.site, items, target)
    return _head(graph, target, "refused") | {"code": reject.code, "site": list(reject.site),
                                              "fit": [entry]}


def write(path: str, document: dict) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(document, fh, separators=(",", ":"))
            fh.write("\n")
    except OSError as err:
        raise CertificateError(f"cannot write the certificate {path!r}: "
                               f"{err.strerror or err}") from None


def summary(document: dict) -> str:
    """One line on what an admitted program's certificate holds."""
    s = document["structure"]
    return (f"{len(s['buffers'])} buffers, {len(s['semaphores'])} semaphores, "
            f"{len(document['witness'])} events, {len(document['fit'])} sites fit")


# -- the parts ------------------------------------------------------------------------------


def _head(graph, target, verdict: str) -> dict:
    return {"kind": KIND, "schema": SCHEMA, "program": graph.name, "target": target.name,
            "verdict": verdict}


def _structure(p: Program, index: dict, token: dict) -> dict:
    def engine(stage: str):
        return index.get(p.places[stage])

    buffers = []
    for b in p.table("buffers"):
        h = p.handshakes[b.stream]
        producer = p.group_of_stream.get(b.stream)
        producer = p.groups[producer].stage if producer else p.producer(b.stream).stage
        buffers.append({"name": b.stream, "site": list(b.site), "depth": b.depth,
                        "token_bytes": token[b.stream], "bytes": b.bytes,
                        "producer": engine(producer),
                        "consumer": engine(p.consumer(b.stream).stage),
                        "credit": h.credit, "data": h.data})
    waiter = {}  # the credit's waiter is the producer; the data's, the consumer
    for b in buffers:
        waiter.update({b[sem]: b[end] for sem, end in (("credit", "producer"),
                                                        ("data", "consumer")) if b[sem]})
    return {
        "engines": [{"site": list(site), "engine": name} for site, name in index],
        "buffers": buffers,
        "groups": [{"name": g.name, "receivers": list(g.streams)} for g in p.table("groups")],
        "semaphores": [{"name": s.name, "site": list(s.site), "initial": s.initial,
                        "waiter": waiter.get(s.name)} for s in p.table("semaphores")],
    }


def _op_numbers(code) -> dict[int, int]:
    """A machine instruction's position -> the number of its op, counting ops only."""
    from ..oracle.tokens import END, LOOP

    numbers, k = {}, 0
    for ip, instr in enumerate(code):
        if instr[0] not in (LOOP, END):
            numbers[ip] = k
            k += 1
    return numbers


def _ops(ops, p: Program) -> list:
    out = []
    for op in ops:
        kind = op._prod
        if kind == "Repeat":
            out.append({"op": "repeat", "count": op.count, "body": _ops(op.body, p)})
        elif kind == "Read":
            out.append({"op": "read", "stage": op.stage, "into": op.buffer})
        elif kind == "Write":
            out.append({"op": "write", "buffer": op.buffer, "stage": op.stage})
        elif kind == "Fire":
            st = p.stages[op.stage]
            out.append({"op": "fire", "stage": op.stage,
                        "takes": [[port.stream, port.rate] for port in ins(st)],
                        "puts": [[port.stream, port.rate] for port in outs(st)]})
        elif kind == "Barrier":
            out.append({"op": "barrier", "group": op.group})
        else:
            named = {f: getattr(op, f) for f in ("buffer", "group", "sem") if hasattr(op, f)}
            out.append({"op": OP_WORDS[kind], **named, "count": op.count})
    return out


# -- the fit --------------------------------------------------------------------------------


def _site_items(graph) -> dict[tuple, dict]:
    """Per site: its buffers (name, bytes) and, once handshakes exist, its semaphores."""
    sites: dict = {}
    handshaked = hasattr(graph, "semaphores")
    for b in sorted(graph.buffers, key=lambda b: b.stream):
        sites.setdefault(b.site, {"buffers": [], "semaphores": [] if handshaked else None})
        sites[b.site]["buffers"].append((b.stream, b.bytes))
    for s in sorted(getattr(graph, "semaphores", ()), key=lambda s: s.name):
        sites.setdefault(s.site, {"buffers": [], "semaphores": []})["semaphores"].append(s.name)
    return sites


def _fit(site: tuple, items: dict, target) -> dict:
    resources = [
        {"resource": "sram", "granule": target.granule, "bytes": target.sram_bytes,
         "capacity": target.sram_bytes // target.granule,
         "items": [{"name": n, "bytes": nbytes, "width": target.granules(nbytes)}
                   for n, nbytes in items["buffers"]]},
        {"resource": "buffer slots", "capacity": target.buffers,
         "items": [{"name": n, "width": 1} for n, _ in items["buffers"]]},
    ]
    if items["semaphores"] is not None:
        resources.append({"resource": "semaphore slots", "capacity": target.semaphores,
                          "items": [{"name": n, "width": 1} for n in items["semaphores"]]})
    positions, clauses = encode(resources)
    entry = {"site": list(site), "resources": resources,
             "cnf": {"variables": len(positions), "clauses": clauses},
             "positions": positions}
    found = solve(len(positions), clauses)
    entry["assignment" if found[0] else "refutation"] = found[1]
    return entry

