"""A SAT solver for the certificate's fit (certify.py): python-sat's CaDiCaL 1.9.5, imported
when first needed. CaDiCaL's DRUP proofs check with every deletion honoured; Glucose's
delete clauses their later lemmas still need as reasons, which a strict checker (ours, or
drat-trim without its allowance for that) refuses."""

from __future__ import annotations

SOLVER = "cadical195"


def solve(variables: int, clauses: list) -> tuple[bool, list]:
    """(True, a complete assignment: one literal per variable) or (False, a DRUP refutation:
    lemmas as lists of literals, deletions as {"delete": literals}, ending with [])."""
    from pysat.solvers import Solver

    with Solver(name=SOLVER, bootstrap_with=clauses, with_proof=True) as solver:
        if solver.solve():
            model = set(solver.get_model() or ())
            return True, [v if v in model else -v for v in range(1, variables + 1)]
        proof = [_step(line) for line in solver.get_proof()]
    if [] not in proof:
        proof.append([])  # the solver stopped at a conflict of the clauses alone
    return False, proof[:proof.index([]) + 1]


def _step(line: str):
    words = line.split()
    if words[0] == "d":
        return {"delete": [int(w) for w in words[1:-1]]}
    return [int(w) for w in words[:-1]]
