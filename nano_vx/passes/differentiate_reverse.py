"""differentiate-reverse: Lrouted -> Lrouted (the adjoint functions are ordinary functions
of the IL, and `grad` and `vjp` calls of one: see the pass's docstring)."""

from __future__ import annotations

from ..languages.lrouted import Lrouted
from ..nanopass import Pass
from ..derivatives.adjoint_form import Normalize
from ..derivatives.code import Build, active, copy_into, dims_of, generated_name, tensor_of
from ..derivatives.differentiation import FnInfo, differentiate_all
from ..derivatives.forward_sweep import Adjoints, ForwardSweep, Tape
from ..derivatives.reverse_sweep import Sweeps

differentiate_reverse = Pass("differentiate-reverse", Lrouted, Lrouted, """
Make `vjp(f, x, s)` and `grad(f, x)` calls of `f$vjp`, the adjoint function of f (E3060-E3062,
E3010 for what has no derivative or cannot run backwards).

`f$vjp` takes f's parameters (a tensor by reference, copied where f took it by value), the
seed (the adjoint of f's result; grad's is 1), and a `&mut` for the adjoint of each float or
tensor parameter after the first, to which it adds; it returns the adjoint of the first. Its
body is a forward sweep, f's body saving on a tape what it overwrites, which `if` branch it
took and how many turns each loop made, then a reverse sweep, the statements backwards, each
taking back what it overwrote and passing the adjoint of what it wrote to what it read.
A call of another function of the program is that function's adjoint in turn; `exp`, `log`,
`sqrt`, `abs`, `max` and `min` have their rules. When every loop's bounds are numbers known
while compiling, the tapes have a size known then; otherwise `f$vjp$tape` runs the forward
sweep first, only counting. Besides differentiate-forward's refusals (E3060, E3061, E3062,
E3010), this one refuses what its sweeps cannot turn back (E3061): `break`, `continue` and
`return` inside a loop, a tensor made inside a loop or a branch, a tensor assigned whole,
and a tensor result that is not a local returned at the end. The IL is Lrouted's: the
adjoint functions are functions like any other, and the `Grad` and `Vjp` the pass removes
are still productions of the IL; its test checks that none is left.
""", requires=("model",))


@differentiate_reverse.on("Program")
def _program(run, program):
    return differentiate_all(run, program, "vjp", lambda info, name: Adjoint(info).fns())


class Adjoint:
    """The adjoint function of one function (and its tape counter, when it needs one)."""

    def __init__(self, info: FnInfo):
        self.info = info
        self.form = Normalize(info).run()
        names = info.names
        self.actives = info.active_params()
        self.adj = Adjoints()
        for name, ty in info.types.items():
            if active(ty):
                self.adj.names[name] = names.derived(name, "_adj")
        self.adj.by_ref = {p.name for p in self.actives[1:]}
        self.tape = Tape(names.fresh("tape"), names.fresh("top"), names.fresh("itape"),
                         names.fresh("itop"))

    def fns(self) -> list:
        info, fn, form, adj = self.info, self.info.fn, self.form, self.adj
        b = Build(fn.span)
        params, prologue, primal = self._params(b)
        seed = info.names.fresh("seed")
        ret_tensor = tensor_of(fn.ret)
        seed_param = b.param(seed, b.ref_type(fn.ret) if ret_tensor is not None else fn.ret)
        adj_params = [b.param(adj.names[p.name], b.ref_type(_owned(p.type), True))
                      for p in self.actives[1:]]
        sweeps = Sweeps(info, form.once, self.tape, adj=adj)
        forward, count = sweeps.forward(form.stmts)
        reverse = sweeps.reverse(form.stmts)
        tapes, extra = self._tapes(b, sweeps, count, params, prologue, primal)
        decls = []
        for name, adjoint in adj.names.items():
            if name not in adj.by_ref:
                ty = info.types[name]
                t = tensor_of(ty)
                decls.append(b.let(adjoint, t, b.new_tensor(t)) if t is not None else
                             b.let(adjoint, b.scalar(info.float_of(name)), b.flt(0.0),
                                   inferred=True))
        if ret_tensor is not None:
            start = copy_into(b, info.names, adj.tensor(b, form.result), b.local(seed),
                              dims_of(ret_tensor, fn), "+=")
        else:
            start = [b.assign(adj.scalar(b, form.result), b.local(seed))]
        first = self.actives[0]
        body = b.block(prologue + form.hoisted + sweeps.hoisted + tapes + forward + decls
                       + start + reverse, b.local(adj.names[first.name]))
        vjp = fn.replace(name=generated_name(fn.name, "vjp"),
                         params=tuple(params + [seed_param] + adj_params),
                         ret=_owned(first.type), bounds=(), body=body)
        return [vjp] + extra

    def _params(self, b):
        """f's parameters as the adjoint takes them, the statements copying the tensors it
        takes by reference, and the locals to pass them on as."""
        params, prologue, primal = [], [], []
        for p in self.info.fn.params:
            if p.type._prod == "TensorType":
                ref = self.info.names.derived(p.name, "_ref")
                params.append(b.param(ref, b.ref_type(p.type)))
                prologue += [b.let(p.name, p.type, b.new_tensor(p.type))] + copy_into(
                    b, self.info.names, b.local(p.name), b.local(ref), dims_of(p.type, p))
                primal.append(b.local(ref))
            else:
                params.append(p)
                primal.append(b.local(p.name))
        return params, prologue, primal

    def _tapes(self, b, sweeps, count, params, prologue, primal):
        """The tapes' declarations: of a size known while compiling, or counted by running
        the forward sweep in `f$vjp$tape` first (which is then the second result)."""
        tape, info, used = self.tape, self.info, sweeps.used
        if count is not None:
            sizes = [max(count[0], 1), max(count[1], 1)]
            extra = []
            before = []
        else:
            counter = ForwardSweep(info, self.form.once, tape, counting=True)
            counted, _ = counter.forward(self.form.stmts)
            nf, ni = info.names.fresh("floats"), info.names.fresh("ints")
            i64 = b.scalar("i64")
            name = generated_name(info.fn.name, "vjp$tape")
            outs = [b.param(nf, b.ref_type(i64, True)), b.param(ni, b.ref_type(i64, True))]
            body = prologue + self.form.hoisted + counter.hoisted + [
                b.let(tape.top, i64, b.int(0)), b.let(tape.itop, i64, b.int(0))] + counted + [
                b.assign(b.deref(b.local(nf)), b.local(tape.top)),
                b.assign(b.deref(b.local(ni)), b.local(tape.itop))]
            extra = [info.fn.replace(name=name, params=tuple(params + outs), ret=None,
                                     bounds=(), body=b.block(body))]
            before = [b.let(nf, i64, b.int(0)), b.let(ni, i64, b.int(0)), b.expr_stmt(
                b.call(name, primal + [b.borrow(b.local(nf), True),
                                       b.borrow(b.local(ni), True)]))]
            sizes = [b.local(nf), b.local(ni)]
        out = list(before)
        for used_it, elem, name, top, size in zip(used, ("f64", "i64"), (tape.floats, tape.ints),
                                                  (tape.top, tape.itop), sizes):
            if not used_it:
                continue
            place = info.program.placed(b.tensor_type(elem, 0, None)).place
            ty = b.tensor_type(elem, size if type(size) is int else None, place)
            args = () if type(size) is int else (b.array([size]),)
            out += [b.let(name, ty, b.new_tensor(ty, "new", args)),
                    b.let(top, b.scalar("i64"), b.int(0))]
        return out, extra


def _owned(ty):
    """The type of a parameter's adjoint: a tensor's, not a reference's."""
    return ty.inner if ty._prod == "BorrowType" else ty
