"""The certificate checkers of nano_vx/oracle/checkers on their own: they import only the
standard library; the DRUP checker accepts CaDiCaL's refutations of random unsatisfiable
CNFs, refuses every proof of a satisfiable one, and refuses a proof without a lemma exactly
when the reference (unit propagation by python-sat's MiniSat) says a later step then fails;
the fit encoding is satisfiable exactly when the widths fit (and refuted by unit propagation
alone when they do not), and its models and refutations check."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nano_vx.oracle.checkers.fit import check_site, encode
from nano_vx.oracle.checkers.rup import check_refutation
from nano_vx.spatial.cnf import solve

CHECKERS = Path(__file__).resolve().parents[2] / "nano_vx" / "oracle" / "checkers"
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


# -- imports ------------------------------------------------------------------------------------


@pytest.mark.parametrize("module", sorted(p.name for p in CHECKERS.glob("*.py")))
def test_a_checker_imports_only_the_standard_library_and_its_siblings(module):
    """form.py alone also reads jsonschema: it only refuses documents (docs/certificate.md)."""
    siblings = {p.stem for p in CHECKERS.glob("*.py")}
    allowed = {"jsonschema"} if module == "form.py" else set()
    for node in ast.walk(ast.parse((CHECKERS / module).read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # `from .rup import ..`: a sibling, and nothing above it
                assert node.level == 1 and node.module in siblings, ast.dump(node)
                continue
            names = [node.module]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names | siblings | allowed, f"{module}: {name}"
            assert top != "nano_vx"


def test_the_checkers_are_small():
    lines = {p.stem: len(p.read_text().splitlines()) for p in CHECKERS.glob("*.py")}
    assert lines["rup"] <= 130 and lines["replay"] <= 130


# -- the DRUP checker ----------------------------------------------------------------------------


def pigeons(n: int) -> tuple[int, list]:
    """n + 1 pigeons in n holes: variable p * n + h + 1 puts pigeon p in hole h."""
    var = lambda p, h: p * n + h + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(n)] for p in range(n + 1)]
    clauses += [[-var(p, h), -var(q, h)] for h in range(n)
                for p in range(n + 1) for q in range(p + 1, n + 1)]
    return (n + 1) * n, clauses


def test_a_refutation_of_the_pigeonhole_principle_checks():
    n, clauses = pigeons(5)
    sat, proof = solve(n, clauses)
    assert not sat and proof[-1] == []
    assert check_refutation(n, clauses, proof) is None


def test_the_empty_clause_alone_refutes_only_what_propagation_refutes():
    assert check_refutation(1, [[1], [-1]], [[]]) is None
    assert check_refutation(2, [[1, 2], [-1, 2], [1, -2], [-1, -2]], [[]]) == (
        "proof step 0: the empty clause is not RUP (unit propagation from its negation "
        "reaches no conflict)")
    assert check_refutation(2, [[1, 2], [-1, 2], [1, -2], [-1, -2]], [[2], []]) is None


@pytest.mark.parametrize("proof, message", [
    ([[2]], "the proof never derives the empty clause"),
    ([[3], []], "proof step 0 is not a list of literals over variables 1..2"),
    ([{"delete": [2]}, [2], []], "proof step 0 deletes [2], which is not held"),
    ([{"remove": [1]}], "proof step 0 is neither a lemma nor a deletion"),
    ([{"delete": [1, 2]}, [2], []], "proof step 1: lemma [2] is not RUP (unit propagation "
                                    "from its negation reaches no conflict)"),
])
def test_a_broken_proof_is_refused_naming_its_step(proof, message):
    assert check_refutation(2, [[1, 2], [-1, 2], [1, -2], [-1, -2]], proof) == message


def test_a_clause_over_an_undeclared_variable_is_refused():
    assert check_refutation(1, [[1], [-2]], [[]]) == (
        "clause 1 is not a list of literals over variables 1..1")


@st.composite
def cnfs(draw, max_vars=10):
    n = draw(st.integers(2, max_vars))
    literal = st.integers(1, n).flatmap(lambda v: st.sampled_from([v, -v]))
    clauses = draw(st.lists(st.lists(literal, min_size=1, max_size=3), min_size=1,
                            max_size=6 * n))
    return n, clauses


def satisfiable(clauses) -> bool:
    from pysat.solvers import Solver

    with Solver(name="m22", bootstrap_with=clauses) as s:
        return s.solve()


@SETTINGS
@given(cnfs())
def test_the_solvers_refutation_of_an_unsatisfiable_cnf_checks(cnf):
    n, clauses = cnf
    sat, found = solve(n, clauses)
    if sat:
        assert all(any(lit in found for lit in c) for c in clauses)
        return
    assert check_refutation(n, clauses, found) is None
    assert check_refutation(n, clauses, [s for s in found if s != []]) is not None


@SETTINGS
@given(cnfs(), st.lists(st.lists(st.integers(-10, 10).filter(bool), max_size=3), max_size=20))
def test_no_proof_refutes_a_satisfiable_cnf(cnf, lemmas):
    n, clauses = cnf
    if not satisfiable(clauses):
        return
    proof = [[lit for lit in lemma if abs(lit) <= n] for lemma in lemmas] + [[]]
    assert check_refutation(n, clauses, proof) is not None


def rup_by_minisat(clauses: list, lemma: list) -> bool:
    """RUP as MiniSat's unit propagation decides it: the reference for the checker's own."""
    from pysat.solvers import Solver

    if any(len(c) == 0 for c in clauses):
        return True
    with Solver(name="m22", bootstrap_with=clauses) as s:
        ok, _ = s.propagate(assumptions=[-lit for lit in lemma])
        return not ok


def checks_by_minisat(clauses: list, proof: list) -> bool:
    held = [list(c) for c in clauses]
    for step in proof:
        if isinstance(step, dict):
            gone = sorted(set(step["delete"]))
            k = next((k for k, c in enumerate(held) if sorted(set(c)) == gone), None)
            if k is None:
                return False
            del held[k]
        elif not rup_by_minisat(held, step):
            return False
        elif step == []:
            return True
        else:
            held.append(step)
    return False


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cnfs(max_vars=7))
def test_dropping_a_lemma_is_refused_exactly_when_a_later_step_needed_it(cnf):
    n, clauses = cnf
    sat, proof = solve(n, clauses)
    if sat:
        return
    for k, step in enumerate(proof):
        if isinstance(step, dict):
            continue
        dropped = proof[:k] + proof[k + 1:]
        assert (check_refutation(n, clauses, dropped) is None) == checks_by_minisat(
            clauses, dropped)


@SETTINGS
@given(cnfs(max_vars=8))
def test_dropping_a_clause_the_cnf_needs_makes_its_refutation_fail(cnf):
    n, clauses = cnf
    sat, proof = solve(n, clauses)
    if sat:
        return
    for k in range(len(clauses)):
        rest = clauses[:k] + clauses[k + 1:]
        if satisfiable(rest):
            assert check_refutation(n, rest, proof) is not None


# -- the fit ---------------------------------------------------------------------------------


def site(widths_by_resource, capacities) -> dict:
    names = iter("abcdefghijklmnopqrstuvwxyz")
    sram, slots = widths_by_resource
    resources = [
        {"resource": "sram", "granule": 16, "bytes": capacities[0] * 16 + 5,
         "capacity": capacities[0],
         "items": [{"name": next(names), "bytes": w * 16 - 3, "width": w} for w in sram]},
        {"resource": "buffer slots", "capacity": capacities[1],
         "items": [{"name": next(names), "width": 1} for _ in range(slots)]},
    ]
    positions, clauses = encode(resources)
    entry = {"site": [0, 0], "resources": resources,
             "cnf": {"variables": len(positions), "clauses": clauses},
             "positions": positions}
    found = solve(len(positions), clauses)
    entry["assignment" if found[0] else "refutation"] = found[1]
    return entry


@SETTINGS
@given(st.lists(st.integers(1, 9), max_size=6), st.integers(0, 6), st.integers(0, 30),
       st.integers(0, 6))
def test_the_fit_is_satisfiable_exactly_when_the_widths_fit_and_either_way_checks(
        widths, slots, capacity, slot_capacity):
    entry = site((widths, slots), (capacity, slot_capacity))
    fits = sum(widths) <= capacity and slots <= slot_capacity
    assert ("assignment" in entry) == fits
    problem, said = check_site(entry)
    assert problem is None
    assert said.startswith("site (0, 0): fits" if fits else "site (0, 0): does not fit")


@SETTINGS
@given(st.lists(st.integers(0, 9), min_size=1, max_size=7), st.integers(0, 40))
def test_items_that_do_not_fit_are_refuted_by_unit_propagation_alone(widths, capacity):
    """Candidates in the listed order leave no symmetry to search (docs/certificate.md)."""
    resources = [{"resource": "sram", "granule": 1, "bytes": capacity, "capacity": capacity,
                  "items": [{"name": str(k), "bytes": w, "width": w}
                            for k, w in enumerate(widths)]}]
    positions, clauses = encode(resources)
    refuted = check_refutation(len(positions), clauses, [[]]) is None
    assert refuted == (sum(widths) > capacity)


def test_a_placement_is_read_back_from_the_assignment():
    entry = site(([3, 2, 4], 2), (9, 2))
    true = [entry["positions"][v - 1] for v in entry["assignment"] if v > 0]
    starts = {(r, i): x for r, i, x in true}
    spans = sorted((starts[0, i], w) for i, w in enumerate([3, 2, 4]))
    assert spans[0][0] == 0 and all(x + w == y for (x, w), (y, _) in zip(spans, spans[1:]))
    assert sorted(starts[1, i] for i in range(2)) == [0, 1]


def test_a_site_with_a_width_that_is_not_its_rounded_bytes_is_refused():
    entry = site(([3, 2], 1), (9, 2))
    entry["resources"][0]["items"][1]["width"] = 1
    assert check_site(entry)[0] == "site (0, 0): sram: 'b' is 1 wide, not 2"


def test_a_site_that_is_not_one_is_named():
    assert check_site({"site": [1, 2]})[0] == (
        "site (1, 2): not a site of a certificate (a field is missing or mistyped)")
