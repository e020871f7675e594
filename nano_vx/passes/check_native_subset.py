"""check-native-subset: Lsplit, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lsplit import Lsplit
from ..nanopass import Analysis
from ..scalars import infer_program, report_refused

check_native_subset = Analysis("check-native-subset", Lsplit, """
Refuse what native code does not lower (E5010): the gate of the back end, after scalarize-aggregates.

Native code needs a machine type for every value, so what scalar inference cannot type is
refused here: a hardware state lower-pins left (one used other than by `match`), a topology
or memory-space value tag-places left (one not bound once and compared or printed), what
scalarize-aggregates left of an aggregate (but the literal of scalars `print` is given),
differentiation, a closure used other than by calling it, a
reference to an element or a temporary, a function returning a reference to a scalar, and
what native code would compute differently from the interpreter (`-` on an unsigned integer,
a bitwise operator on floats, a cast to bool). The program is correct: the default action
runs the tree this pass read in the reference interpreter instead, with W5001.
""")


@check_native_subset.on("Program")
def _program(run, program):
    report_refused(run.ctx.diagnostics, infer_program(program))
