"""The structure of a certificate against its schedules: the two rules of the token semantics
(docs/certificate.md, "Structure"). Every buffer has the one producer engine and the one
consumer engine the certificate names, and these are the only engines that put into it and
take from it; every semaphore is waited on by at most the one engine it names; a buffer's
bytes hold exactly its depth in tokens, and its credits start at no more than its depth."""

from __future__ import annotations

if __package__:
    from .replay import flat_ops
else:  # run as a script, beside replay.py
    from replay import flat_ops


def check_structure(cert: dict) -> str | None:
    s = cert["structure"]
    buffers = {b["name"]: b for b in s["buffers"]}
    groups = {g["name"]: g["receivers"] for g in s["groups"]}
    sems = {x["name"]: x for x in s["semaphores"]}
    ends: dict = {}  # (role, name) -> the engines in that role; form.py saw every name declared
    for e, ops in enumerate(cert["schedules"]):
        for op in flat_ops(ops):
            for role, name in _roles(op, groups, buffers):
                ends.setdefault((role, name), set()).add(e)
    for name, b in buffers.items():
        for role in ("producer", "consumer"):
            found = sorted(ends.get((role, name), ()))
            if found != [b[role]]:
                return (f"buffer '{name}': engines {found} are its {role}s; the certificate "
                        f"names engine {b[role]}, and a buffer has one")
        if b["bytes"] != b["depth"] * b["token_bytes"]:
            return (f"buffer '{name}': {b['bytes']} bytes do not hold depth {b['depth']} of "
                    f"{b['token_bytes']}-byte tokens exactly")
        credit = sems.get(b["credit"])
        if b["credit"] is not None and (credit is None or credit["initial"] > b["depth"]):
            return f"buffer '{name}': its credit semaphore does not start within its depth"
    for name, x in sems.items():
        found = sorted(ends.get(("waiter", name), ()))
        if len(found) > 1 or found not in ([], [x["waiter"]]):
            return (f"semaphore '{name}': engines {found} wait on it; the certificate names "
                    f"engine {x['waiter']}, and one engine may")
    return None


def _roles(op: dict, groups: dict, buffers: dict):
    """(role, buffer or semaphore) for each end of a buffer or semaphore the op acts as."""
    kind = op["op"]
    if kind in ("push", "send"):
        yield "producer", op["buffer"]
    elif kind in ("wait_front", "pop", "write"):
        yield "consumer", op["buffer"]
    elif kind == "fire":
        for b, _ in op["takes"]:
            yield "consumer", b
    elif kind == "wait":
        yield "waiter", op["sem"]
    elif kind in ("multicast", "barrier"):
        for r in groups[op["group"]]:
            if kind == "multicast":
                yield "producer", r
            else:
                yield "waiter", buffers[r]["credit"]
