"""The fit of one site: its buffers in its SRAM and in its buffer slots, its semaphores in its
semaphore slots, each a packing on a line (docs/certificate.md, "Fit").

A resource has a capacity in units (SRAM granules, or slots) and items of a width in units
(an SRAM item's bytes rounded up to whole granules; a slot item is 1 wide). Item i of a
resource starts at one of its candidate positions: the sums of a subset of the widths of the
items listed before it that leave room for it. One variable per (resource, item, candidate);
the clauses say each item takes exactly one candidate and two items that would overlap do not
both take theirs. Any packing that fits can be laid out left to right in the listed order,
item i at the sum of the widths before it, which is a candidate: so the CNF is satisfiable
exactly when the items fit, and a refutation proves they do not.

`encode` is the encoding; `check_site` checks one site of a certificate: its figures, that
its CNF is the encoding of its items, and then either its assignment (every clause true under
it, and its placement aligned, in range and without overlap, checked directly) or its
refutation (by rup.py)."""

from __future__ import annotations

from itertools import combinations

if __package__:
    from .rup import check_refutation
else:  # run as a script, beside rup.py
    from rup import check_refutation

RESOURCES = ("sram", "buffer slots", "semaphore slots")


def encode(resources: list) -> tuple[list, list]:
    """(positions, clauses): variable v (from 1) is positions[v - 1] = [resource, item,
    position], true when that item starts at that position."""
    variables: list = []
    clauses: list = []
    for r, res in enumerate(resources):
        widths = [item["width"] for item in res["items"]]
        sums, placed = {0}, []
        for i, w in enumerate(widths):
            mine = []
            for x in sorted(s for s in sums if s + w <= res["capacity"]):
                variables.append([r, i, x])
                mine.append((x, len(variables)))
            clauses.append([v for _, v in mine])
            clauses += [[-a, -b] for (_, a), (_, b) in combinations(mine, 2)]
            for j, theirs in enumerate(placed):
                clauses += [[-b, -a] for y, b in theirs for x, a in mine
                            if _overlap(y, widths[j], x, w)]
            placed.append(mine)
            sums |= {s + w for s in sums if s + w <= res["capacity"]}
    return variables, clauses


def _overlap(x: int, w: int, y: int, v: int) -> bool:
    return w > 0 and v > 0 and x < y + v and y < x + w


def check_site(site: dict) -> tuple[str | None, str]:
    """(None or what is wrong, what was checked), for one site of a certificate."""
    where = f"site {tuple(site.get('site') or ())}"
    try:
        resources = site["resources"]
        problem = _figures(resources)
        if problem:
            return f"{where}: {problem}", ""
        variables, clauses = encode(resources)
        cnf = site["cnf"]
        if cnf["variables"] != len(variables) or site["positions"] != variables:
            return f"{where}: the variables are not those of the encoding of its items", ""
        if cnf["clauses"] != clauses:
            k = next((k for k, (a, b) in enumerate(zip(cnf["clauses"], clauses)) if a != b),
                     min(len(cnf["clauses"]), len(clauses)))
            return (f"{where}: the CNF is not the encoding of its items (from clause {k}; "
                    f"{len(cnf['clauses'])} clauses given, {len(clauses)} encoded)"), ""
        size = f"{len(variables)} variables, {len(clauses)} clauses"
        if "assignment" in site:
            problem = _assignment(site["assignment"], variables, clauses, resources)
            return (f"{where}: {problem}" if problem else None), f"{where}: fits ({size})"
        problem = check_refutation(len(variables), clauses, site["refutation"])
        if problem:
            return f"{where}: the refutation fails: {problem}", ""
        return None, (f"{where}: does not fit ({size}, refuted in {len(site['refutation'])} "
                      f"steps): {'; '.join(overfull(resources))}")
    except (KeyError, TypeError, ValueError, AttributeError):
        return f"{where}: not a site of a certificate (a field is missing or mistyped)", ""


def _figures(resources) -> str | None:
    """The widths and capacities follow from the bytes and counts they stand for."""
    if not resources or [r["resource"] for r in resources] != list(
            RESOURCES[:len(resources)]):
        return f"the resources are not {', '.join(RESOURCES)}, in this order"
    for res in resources:
        if type(res["capacity"]) is not int or res["capacity"] < 0:
            return f"{res['resource']}: the capacity is not a count"
        for item in res["items"]:
            want = 1
            if res["resource"] == "sram":
                want = -(-item["bytes"] // res["granule"])
            if type(item["width"]) is not int or item["width"] != want:
                return f"{res['resource']}: '{item['name']}' is {item['width']} wide, not {want}"
    sram = resources[0]
    if sram["capacity"] != sram["bytes"] // sram["granule"]:
        return (f"sram: {sram['bytes']} bytes are {sram['bytes'] // sram['granule']} granules "
                f"of {sram['granule']}, not {sram['capacity']}")
    return None


def _assignment(assignment, variables, clauses, resources) -> str | None:
    n = len(variables)
    if sorted(abs(lit) for lit in assignment) != list(range(1, n + 1)):
        return f"the assignment does not give each of the {n} variables one value"
    true = {lit for lit in assignment if lit > 0}
    for k, clause in enumerate(clauses):
        if not any((lit > 0) == (abs(lit) in true) for lit in clause):
            return f"clause {k} {clause} is false under the assignment"
    for r, res in enumerate(resources):  # what the clauses mean, checked directly
        spans = []
        for i, item in enumerate(res["items"]):
            at = [variables[v - 1][2] for v in true if variables[v - 1][:2] == [r, i]]
            if len(at) != 1:
                return f"{res['resource']}: '{item['name']}' takes {len(at)} positions"
            if not 0 <= at[0] <= res["capacity"] - item["width"]:
                return f"{res['resource']}: '{item['name']}' at {at[0]} leaves the capacity"
            spans.append((at[0], item["width"], item["name"]))
        spans = sorted(s for s in spans if s[1] > 0)
        for (x, w, a), (y, _, b) in zip(spans, spans[1:]):
            if y < x + w:
                return f"{res['resource']}: '{a}' and '{b}' overlap"
    return None


def overfull(resources) -> list[str]:
    """What does not fit, by the sums of the widths."""
    out = []
    for res in resources:
        need = sum(item["width"] for item in res["items"])
        if need > res["capacity"]:
            unit = (f"granules of {res['granule']} bytes" if res["resource"] == "sram"
                    else res["resource"])
            out.append(f"{len(res['items'])} items need {need} {unit}, it has "
                       f"{res['capacity']}")
    return out
