"""A DRUP refutation checker: a CNF (clauses of non-zero integers over variables 1..n) and a
proof (lemmas and deletions, in the order a SAT solver wrote them) are a refutation when every
lemma is RUP (assigning the negation of its literals and propagating units over the clauses
held so far reaches a conflict) and the proof derives the empty clause. Propagation watches
two literals of each clause, so a check costs what the clauses it touches cost."""

from __future__ import annotations


class _Clauses:
    def __init__(self) -> None:
        self.lits: list[list[int]] = []
        self.live: list[bool] = []
        self.watches: dict[int, list[int]] = {}
        self.index: dict[tuple, list[int]] = {}  # a clause's sorted literals -> its live ids
        self.units: list[int] = []  # clauses of one literal (and the empty clause, as 0)

    def add(self, clause: list[int]) -> None:
        c = len(self.lits)
        lits = list(dict.fromkeys(clause))
        self.lits.append(lits)
        self.live.append(True)
        self.index.setdefault(tuple(sorted(lits)), []).append(c)
        if len(lits) < 2:
            self.units.append(c)
        else:
            for lit in lits[:2]:
                self.watches.setdefault(lit, []).append(c)

    def delete(self, clause: list[int]) -> bool:
        ids = self.index.get(tuple(sorted(set(clause))))
        if not ids:
            return False
        self.live[ids.pop()] = False  # its watches are dropped when next visited
        return True

    def rup(self, lemma: list[int]) -> bool:
        """Does unit propagation from the negation of `lemma` reach a conflict?"""
        value: dict[int, bool] = {}
        trail: list[int] = []

        def assign(lit: int) -> bool:  # False on a conflict
            if value.get(abs(lit)) is not None:
                return value[abs(lit)] == (lit > 0)
            value[abs(lit)] = lit > 0
            trail.append(lit)
            return True

        if not all(assign(-lit) for lit in lemma):
            return True  # a tautology
        for c in self.units:
            if self.live[c] and (not self.lits[c] or not assign(self.lits[c][0])):
                return True
        head = 0
        while head < len(trail):
            false = -trail[head]
            head += 1
            kept, watching = [], self.watches.get(false, [])
            for i, c in enumerate(watching):
                if not self.live[c]:
                    continue
                lits = self.lits[c]
                if lits[0] == false:
                    lits[0], lits[1] = lits[1], lits[0]
                if value.get(abs(lits[0])) == (lits[0] > 0):
                    kept.append(c)  # satisfied by its other watch
                    continue
                for k in range(2, len(lits)):
                    if value.get(abs(lits[k])) != (lits[k] < 0):  # not false: watch it
                        lits[1], lits[k] = lits[k], lits[1]
                        self.watches.setdefault(lits[1], []).append(c)
                        break
                else:
                    kept.append(c)
                    if not assign(lits[0]):
                        kept += watching[i + 1:]
                        self.watches[false] = kept
                        return True
            self.watches[false] = kept
        return False


def check_refutation(variables: int, clauses: list, proof: list) -> str | None:
    """None when `proof` refutes the CNF, else what is wrong with it, naming the step. A step
    is a lemma (a list of literals; [] is the empty clause) or {"delete": [literals]}."""
    problem = _literals("clause", clauses, variables)
    if problem:
        return problem
    db = _Clauses()
    for clause in clauses:
        db.add(clause)
    for n, step in enumerate(proof):
        if isinstance(step, dict):
            if set(step) != {"delete"}:
                return f"proof step {n} is neither a lemma nor a deletion"
            problem = _literals(f"proof step {n}", [step["delete"]], variables)
            if problem:
                return problem
            if not db.delete(step["delete"]):
                return f"proof step {n} deletes {step['delete']}, which is not held"
            continue
        problem = _literals(f"proof step {n}", [step], variables)
        if problem:
            return problem
        if not db.rup(step):
            what = "the empty clause" if not step else f"lemma {step}"
            return (f"proof step {n}: {what} is not RUP (unit propagation from its negation "
                    f"reaches no conflict)")
        if not step:
            return None
        db.add(step)
    return "the proof never derives the empty clause"


def _literals(what: str, clauses, variables: int) -> str | None:
    for k, clause in enumerate(clauses):
        if not isinstance(clause, list) or not all(
                type(lit) is int and 0 < abs(lit) <= variables for lit in clause):
            where = f"{what} {k}" if what == "clause" else what
            return f"{where} is not a list of literals over variables 1..{variables}"
    return None
