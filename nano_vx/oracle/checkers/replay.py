"""The witness replay: the events of one run, in order, against integer counters (docs/
certificate.md, "Witness"). Event [e, k, i] is engine e executing its op k (ops numbered in
the order they are written, repeats not counted) for the i-th time; each engine's events must
walk its schedule, unrolled, from its start to its end. Per buffer the counters are the
tokens in it, the slots its producer holds reserved, the tokens its consumer has claimed on
the data semaphore; per buffer or group the values staged for a put; per semaphore its
value. Each event's condition is checked when it occurs, and no buffer ever holds more than
its depth: one run that finishes so proves that every fair order finishes (the token
semantics is confluent under the two rules structure.py checks)."""

from __future__ import annotations


def flat_ops(ops: list):
    for op in ops:
        if op["op"] == "repeat":
            yield from flat_ops(op["body"])
        else:
            yield op


def unrolled(ops: list, start: int = 0):
    """(op number, op) in the order the engine executes them."""
    k = start
    for op in ops:
        if op["op"] == "repeat":
            n = sum(1 for _ in flat_ops(op["body"]))
            for _ in range(op["count"]):
                yield from unrolled(op["body"], k)
            k += n
        else:
            yield k, op
            k += 1


def check_witness(cert: dict) -> str | None:
    s = cert["structure"]
    bufs = {b["name"]: b for b in s["buffers"]}
    receivers = {g["name"]: g["receivers"] for g in s["groups"]}
    role = {b[r]: (r, n) for n, b in bufs.items() for r in ("credit", "data") if b[r]}
    tok, held, claim = (dict.fromkeys(bufs, 0) for _ in range(3))
    staged = dict.fromkeys([*bufs, *receivers], 0)
    sem = {x["name"]: x["initial"] for x in s["semaphores"]}
    runs = [unrolled(ops) for ops in cert["schedules"]]
    times = [{} for _ in runs]

    def put(b, k, slot):
        tok[b] += k
        held[b] -= k
        if staged[slot] < k or held[b] < 0:
            return f"puts {k} into '{b}' with {staged[slot]} staged, {held[b] + k} reserved"

    for n, event in enumerate(cert["witness"]):
        if not (isinstance(event, list) and len(event) == 3
                and all(type(x) is int for x in event) and 0 <= event[0] < len(runs)):
            return f"event {n} {event} is not [engine, op, iteration]"
        e, k, i = event
        at = next(runs[e], (None, None))
        if at[0] != k or times[e].get(k, 0) != i:
            return (f"event {n} {event}: engine {e} is at op {at[0]}, which has run "
                    f"{times[e].get(at[0], 0)} times")
        times[e][k] = i + 1
        op, kind = at[1], at[1]["op"]
        c, b, x = op.get("count", 1), op.get("buffer"), op.get("sem")
        why = None
        if kind == "reserve":
            held[b] += c  # more than the free slots shows as a buffer over its depth
        elif kind == "read":
            staged[op["into"]] += 1
        elif kind in ("wait_front", "write", "pop"):
            why = f"takes {c} of '{b}', which holds {tok[b]}" if tok[b] < c else None
            if kind == "pop":
                tok[b] -= c
                claim[b] = max(0, claim[b] - c)
        elif kind == "fire":
            why = next((f"takes {r} of '{t}', which holds {tok[t]}"
                        for t, r in op["takes"] if tok[t] < r), None)
            for t, r in op["puts"]:
                staged[t] += r
        elif kind in ("push", "send"):
            why = put(b, c, b)
            staged[b] -= c
        elif kind == "multicast":
            why = next(filter(None, [put(r, c, op["group"]) for r in receivers[op["group"]]]),
                       None)
            staged[op["group"]] -= c
        elif kind in ("wait", "barrier"):
            waits = [(x, c)] if kind == "wait" else [
                (bufs[r]["credit"], 1) for r in receivers[op["group"]]]
            for x, c in waits:
                why = why or (f"waits for {c} on '{x}', which holds {sem[x]}"
                              if sem[x] < c else None)
                sem[x] -= c
                what, buf = role.get(x, (None, None))
                if what == "credit":
                    held[buf] += c
                elif what == "data":
                    claim[buf] += c
        elif kind == "signal":
            sem[x] += c
            what, buf = role.get(x, (None, None))
            if what == "credit" and sem[x] + held[buf] + tok[buf] > bufs[buf]["depth"]:
                why = f"signals '{x}' to more free slots than '{buf}' has"
            if what == "data" and sem[x] + claim[buf] > tok[buf]:
                why = f"signals '{x}' to more tokens than '{buf}' holds"
        over = next((r for r in bufs if tok[r] + held[r] > bufs[r]["depth"]), None)
        if why or over:
            return (f"event {n} {event} ({kind}): "
                    f"{why or f'buffer {over!r} holds more than its depth'}")
    for e, run in enumerate(runs):
        at = next(run, None)
        if at is not None:
            return f"engine {e} does not reach its end: its op {at[0]} never runs"
    return None
