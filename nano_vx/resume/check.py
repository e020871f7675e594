"""What a dump read back must be before any pass takes it: a dump is data, edited by hand
or by anyone, and a pass trusts the IL it reads (the passes before it made it). So the tree
is verified against its IL, and against the rules the passes after it take as given: a tree
of a typed back-end IL (Lscalars to Lcells) against that IL's rules of scope and type
(`nano_vx/scalars/well_formed.py`), the back end's passes after type-scalars checking
nothing; one of the front end's ILs from Lresolved on against its scoping rule and what its
values must be (`front_end.py`); an Lmlir module against MLIR's verifier and what the runtime
takes on trust (`runtime_trust.py`). What is wrong is E1007 at the node that shows it."""

from __future__ import annotations

from ..nanopass import VerifyError, verify
from ..source import Span

CODE = "E1007"
# The front end's ILs after check-tensor-constructors' (Ltyped): the passes that read them
# take its verdict as given, and so does one after it that reads Ltyped.
CONSTRUCTORS_CHECKED = frozenset({"Lfolded", "Lrouted", "Lscheduled", "Lkernels", "Lassumed", "Lconstparts",
                                  "Lmatched", "Lparted", "Lsplit", "Lcopied", "Lallset", "Lwritten", "Lnocontracts", "Lnative", "Lsafe"})


def typed_languages() -> tuple:
    """The ILs whose every scalar carries its type: type-scalars' output and those after it
    that read back."""
    from ..languages.lblocks import Lblocks
    from ..languages.lcells import Lcells
    from ..languages.lfunctions import Lfunctions
    from ..languages.llifted import Llifted
    from ..languages.lscalars import Lscalars
    from ..languages.lstops import Lstops

    return Lscalars, Lfunctions, Llifted, Lblocks, Lstops, Lcells


def well_formed(language, tree, source, diagnostics, state=None) -> bool:
    """Whether the tree a dump read back into may go to the passes; each thing wrong is
    reported (E1007). `state`: the dump's state lines, which say where it was taken."""
    try:
        verify(tree, language)
    except VerifyError as err:
        span = err.node.span if err.node is not None else Span(source, 0, 0)
        diagnostics.error(CODE, span, f"the dump is not a tree of {language.name}: {err}")
        return False
    if language in typed_languages():
        from ..scalars.well_formed import ill_formed

        problems = ill_formed(tree)
    elif language.name == "Lmlir":
        from .runtime_trust import runtime_faults

        problems = runtime_faults(tree)
    elif "Local" in language.productions:
        from .front_end import ill_formed as front_end_faults

        problems = front_end_faults(tree, checked=language.name in CONSTRUCTORS_CHECKED
                                    or _past(state, "check-tensor-constructors"))
    else:
        return True
    for node, what in problems:
        diagnostics.error(CODE, node.span, f"the {language.name} dump is not well formed: "
                                           f"{what}")
    return not problems


def _past(state, check: str) -> bool:
    """Whether a dump with these state lines was taken after the pass `check` ran."""
    from ..pipeline import NATIVE

    names = NATIVE.names()
    if state is None or (state.after or state.before) not in names:
        return False
    at = names.index(state.after) + 1 if state.after else names.index(state.before)
    return at > names.index(check)
