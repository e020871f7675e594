"""What the runtime takes on trust in an Lmlir module read back (a dump, a `.mlir` file):
native code calls it with what the module says, and it cannot check the call. So a
declared function must be one of the runtime's, with its signature (`backend/runtime_abi.py`),
`main` one the run can call, and each runtime call's first argument a constant naming a site
of its kind, each site numbered once. A JSON dump of Lmlir, which the tree reader reads, has
its MLIR text verified here as well."""

from __future__ import annotations

from ..backend.mlir import mlir_context
from ..backend.runtime_abi import FUNCTIONS
from ..dump.mlir_text import MlirTextError, to_mlir_text
from ..values.sites import record_holes
from .mlir import first_message

# main's results the native run reads back (jit.py): none, or one integer.
_MAIN_RESULTS = ((), ("i1",), ("i8",), ("i16",), ("i32",), ("i64",))
# The site each runtime function's first argument names.
_SITE_OF = {"vx_print": "PrintSite", "vx_stop": "StopSite", "vx_check_alloc": "StopSite"}


def runtime_faults(module) -> list:
    """(node, what is wrong) for what MLIR refuses in an Lmlir module (a JSON dump's is read
    by the tree reader, not MLIR), and each thing the runtime would take on trust: a
    function declared that the runtime does not have, or with another signature; a `main`
    it cannot call; a site declared twice; a runtime call whose site is not a constant
    naming a site of its kind."""
    from mlir import ir

    try:
        with mlir_context():
            ir.Module.parse(to_mlir_text(module))
    except (ir.MLIRError, MlirTextError) as error:
        return [(module, f"MLIR refuses the module it prints as: {first_message(error)}")]
    problems = []
    sites: dict = {}
    for item in module.items:
        if item._prod in ("PrintSite", "StopSite"):
            if item.id in sites:
                problems.append((item, f"a second site {item.id}"))
            sites.setdefault(item.id, item)
            if item._prod == "PrintSite" and item.kind == "record" and \
                    record_holes(item.text) is None:
                problems.append((item, "a record print site whose text is not a line with "
                                       "`{T}` for each scalar of type T, `{T[d,..]}` for "
                                       "each tensor, and braces doubled"))
        elif item._prod == "Declare" and (FUNCTIONS.get(item.name), item.results) != \
                (tuple(item.args), ()):
            problems.append((item, f"a declaration of {item.name}, which the runtime does not "
                                   f"provide; it provides " + ", ".join(
                                       f"{n}({', '.join(a)})" for n, a in FUNCTIONS.items())))
        elif item._prod == "Func" and item.name == "main" and (
                item.args or tuple(item.results) not in _MAIN_RESULTS):
            problems.append((item, "a `main` that takes arguments or returns other than "
                                   "nothing or one integer: the run cannot call it"))
    for item in module.items:
        if item._prod == "Func":
            problems += _site_faults(item, sites)
    return problems


def _site_faults(fn, sites: dict) -> list:
    constants = {op.result: op.value for block in fn.blocks for op in block.ops
                 if op._prod == "Constant"}
    problems = []
    for block in fn.blocks:
        for op in block.ops:
            wanted = _SITE_OF.get(op.callee) if op._prod == "Call" else None
            if wanted is None:
                continue
            site = sites.get(constants.get(op.args[0])) if op.args else None
            if site is None or site._prod != wanted:
                problems.append((op, f"a call of {op.callee} whose first argument is not a "
                                     f"constant naming a {wanted} (a `// vx_"
                                     f"{'print' if wanted == 'PrintSite' else 'stop'} site "
                                     f"N: ...` comment)"))
    return problems
