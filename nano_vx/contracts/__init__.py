"""Contracts proved while compiling, by the one encoding of Vx into z3 (terms.py): a function's
paths (execute.py), which verify-contracts turns into obligations for the solver
(nano_vx/solver.py), and a kernel's asserts against the tensors relaxed transfers move
(seams.py), verify-seams' boundary contracts.

This package imports z3 only through the solver module, on first use; importing it costs
nothing until a program has a contract to prove.
"""


def describe_proved_requires(proved: dict) -> str:
    """The fact `proved_requires` as text, for the dump after verify-contracts."""
    if not proved:
        return "no `requires` is proved at every call\n"
    return "".join(f"{name}: requires {', '.join(str(i + 1) for i in sorted(ix))} proved at "
                   f"every call\n" for name, ix in sorted(proved.items()))
