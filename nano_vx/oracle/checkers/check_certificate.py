"""Check a choreography certificate (docs/certificate.md): `check(document)` returns whether it
is accepted and the lines of the verdict; `main` is `nano-vx check-certificate FILE.json`, and
this file runs on its own too: `python nano_vx/oracle/checkers/check_certificate.py FILE`.

An admitted program's certificate is accepted when its structure keeps the two rules, its
witness replays to the end of every engine, and every site's assignment satisfies that
site's CNF and places its buffers and semaphores; a refusal's, when the refusing site's CNF is
the encoding of what it must hold and its refutation derives the empty clause."""

from __future__ import annotations

import json
import sys

if __package__:
    from .fit import check_site
    from .form import problem as problem_of_form, shown
    from .replay import check_witness
    from .structure import check_structure
else:  # run as a script, beside its sibling modules
    from fit import check_site
    from form import problem as problem_of_form, shown
    from replay import check_witness
    from structure import check_structure

KIND = "nano-vx choreography certificate"
SCHEMA = 1


class NotACertificate(Exception):
    """The document is not a certificate this checker reads: no verdict either way."""


def check(doc) -> tuple[bool, list[str]]:
    """(accepted, the verdict's lines). Raises NotACertificate for a document that is not
    one (another kind or schema, a part missing or mistyped, a name not declared)."""
    if not isinstance(doc, dict) or doc.get("kind") != KIND:
        raise NotACertificate(f"it is not a {KIND}")
    schema = doc.get("schema")
    if schema != SCHEMA:
        said = schema if type(schema) is int and abs(schema) < 10**20 else shown(schema)
        raise NotACertificate(f"schema {said}; this checker reads {SCHEMA}")
    problem = problem_of_form(doc)
    if problem:
        raise NotACertificate(problem)
    try:
        return _check(doc)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError,
            RecursionError):  # a form that form.py lets through and the checks cannot read
        raise NotACertificate("a part does not have the form docs/certificate.md gives "
                              "it") from None


def _check(doc) -> tuple[bool, list[str]]:
    head = f"certificate of {doc['program']} on {doc['target']}"
    lines = []
    if doc["verdict"] == "refused":
        lines.append(f"{head}: the program is refused ({doc['code']}) at site "
                     f"{tuple(doc['site'])}")
        sites = [s for s in doc["fit"] if s["site"] == doc["site"] and "refutation" in s]
        if not sites:
            return False, lines + [f"refused: no refutation for site {tuple(doc['site'])}"]
        problem, said = check_site(sites[0])
        if problem:
            return False, lines + [f"refused: fit: {problem}"]
        return True, lines + [f"  fit: {said}", "accepted: the refusal is proved"]
    if doc["verdict"] != "admitted":
        raise NotACertificate(f"verdict {doc['verdict']!r}, neither admitted nor refused")
    s = doc["structure"]
    lines.append(f"{head}: the program is admitted")
    problem = check_structure(doc)
    if problem:
        return False, lines + [f"refused: structure: {problem}"]
    lines.append(f"  structure: {len(s['buffers'])} buffers, {len(s['semaphores'])} "
                 f"semaphores, {len(s['engines'])} engines: one producer and one consumer "
                 f"engine per buffer, at most one waiting engine per semaphore")
    problem = check_witness(doc)
    if problem:
        return False, lines + [f"refused: witness: {problem}"]
    lines.append(f"  witness: {len(doc['witness'])} events replayed: every condition held, "
                 f"no buffer over its depth, every engine at its end")
    problem = _coverage(doc)
    if problem:
        return False, lines + [f"refused: fit: {problem}"]
    for site in doc["fit"]:
        if "assignment" not in site:
            return False, lines + [f"refused: fit: site {tuple(site['site'])} has no "
                                   f"assignment"]
        problem, _ = check_site(site)
        if problem:
            return False, lines + [f"refused: fit: {problem}"]
    clauses = sum(len(site["cnf"]["clauses"]) for site in doc["fit"])
    lines.append(f"  fit: {len(doc['fit'])} sites, each CNF satisfied ({clauses} clauses in "
                 f"all) and each placement aligned, in range and without overlap")
    return True, lines + ["accepted"]


def _coverage(doc) -> str | None:
    """Every buffer and semaphore of the structure is placed on its own site, once, with the
    bytes the structure gives it."""
    want = {}
    for b in doc["structure"]["buffers"]:
        want[("sram", b["name"])] = (b["site"], b["bytes"])
        want[("buffer slots", b["name"])] = (b["site"], None)
    for x in doc["structure"]["semaphores"]:
        want[("semaphore slots", x["name"])] = (x["site"], None)
    seen = {}
    for site in doc["fit"]:
        for res in site["resources"]:
            for item in res["items"]:
                seen.setdefault((res["resource"], item["name"]), []).append(
                    (site["site"], item.get("bytes")))
    for (resource, name) in sorted(set(want) | set(seen)):
        placed, wanted = seen.get((resource, name), []), want.get((resource, name))
        if wanted is None:
            return f"{resource}: '{name}' is placed, but the structure has no such item"
        if len(placed) != 1:
            return (f"{resource}: '{name}' of site {tuple(wanted[0])} is placed "
                    f"{len(placed)} times")
        if placed[0] != wanted:
            return (f"{resource}: '{name}' is placed on site {tuple(placed[0][0])} with "
                    f"{placed[0][1]} bytes; the structure has site {tuple(wanted[0])} with "
                    f"{wanted[1]}")
    return None


def main(argv: list[str], out=sys.stdout, err=sys.stderr) -> int:
    """0 when the certificate is accepted, 1 when it is refused or is no certificate, 2 for
    a command line without one file."""
    if len(argv) != 1:
        err.write("usage: check-certificate FILE.json\n")
        return 2
    path = argv[0]
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        accepted, lines = check(doc)
    except OSError as error:
        err.write(f"nano-vx: error: cannot read {path!r}: {error.strerror or error}\n")
        return 1
    except (ValueError, RecursionError, NotACertificate) as error:  # json's: ValueErrors
        err.write(f"nano-vx: error: {path!r} is not a certificate: {error}\n")
        return 1
    out.write("\n".join(lines) + "\n")
    return 0 if accepted else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
