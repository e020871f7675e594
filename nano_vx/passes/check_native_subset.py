"""check-native-subset: Lsplit, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lsplit import Lsplit
from ..nanopass import Analysis
from ..scalars import infer_program, report_refused

check_native_subset = Analysis("check-native-subset", Lsplit, """
Refuse what native code does not lower (E5010): the gate of the back end, after scalarize-aggregates.

Native code needs a machine type for every value, so what scalar inference cannot type is
refused here: a hardware state lower-pins left (one used other than matched, bound, passed
or returned), a topology or memory-space value tag-places left (one held other than in a
variable, or a memory space printed), what scalarize-aggregates left of an aggregate (but the
literal of scalars `print` is given), a string number-texts left (held by a variable, a
parameter or a result, or printed other than as written), differentiation, a closure value reading a variable of
the closure or the block around it that may be called where it is over, a reference to a
temporary name-borrowed-temporaries left, a reference returned that may name a local of its function, raw
pointers native code cannot hold as the tensor they point into seen as one dimension
(erase-raw-pointers), and what native code would compute differently from the interpreter (`-` on an unsigned integer,
a bitwise operator on floats, a cast to bool, a local the interpreter holds as a plain i32 or
f64 that a later use types otherwise where cast-plain-values could not cast its uses). The program is correct: the default action
runs the tree this pass read in the reference interpreter instead, with W5001.
""")


@check_native_subset.on("Program")
def _program(run, program):
    report_refused(run.ctx.diagnostics, infer_program(program, plain=True))
