"""Reading an Lmlir dump back: MLIR text (`--dump-after select-instructions`, `--action
emit-mlir`, or any `.mlir` file) parsed and verified by the real MLIR, then walked into the
Lmlir tree the back end takes, spans pointing at each operation in the text.

What MLIR refuses (a parse error, a verifier failure, a call of a function the module does not
have) is E1007 with MLIR's message at MLIR's line and column. An operation Lmlir has no
production for is refused by name, and so is one carrying what its production does not say
(an attribute, a dynamic size): the tree is printed again and parsed, and each operation must
come back as it was written, so what runs is what the file says. The print and stop sites,
which MLIR has no operation for, are the `// vx_print` and `// vx_stop` comments the dump
carries (dump/mlir_text.py writes and reads them).
"""

from __future__ import annotations

import re

from ..backend.mlir import mlir_context, module_ops
from ..dump.mlir_text import MlirTextError, read_sites, to_mlir_text
from ..languages.lmlir import ARITH_OPS, CONVERT_OPS, MATH_OPS, PREDICATES, Lmlir
from ..nanopass import NodeError
from ..source import Span

CODE = "E1007"
M = Lmlir
# arith.cmpi's and arith.cmpf's predicates in the order of MLIR's enums.
_CMP = {"cmpi": "eq ne slt sle sgt sge ult ule ugt uge".split(),
        "cmpf": ("false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno "
                 "true").split()}
_INTRINSICS = {"llvm.fptosi.sat": "llvm.intr.fptosi.sat",
               "llvm.fptoui.sat": "llvm.intr.fptoui.sat"}


# MLIR's parser descends once per bracket and stops at no depth: nested deep enough, it
# overflows the native stack. Lmlir's text nests a few brackets deep (module, function,
# attribute, a memref of a memref); a file nesting more is refused before MLIR reads it.
MAX_NESTING = 256
_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|->|[{}()\[\]<>]')
_OPENS = frozenset("{([<")


class Refused(Exception):
    """An operation the dump has that no Lmlir production says."""

    def __init__(self, op, message: str):
        super().__init__(message)
        self.op, self.message = op, message


def read_mlir(source, diagnostics):
    """The Lmlir Module the MLIR text of `source` is, or None, each fault reported (E1007)."""
    from mlir import ir

    sites = _sites(source, diagnostics)
    if sites is None:
        return None
    deep = _too_deep(source.text)
    if deep is not None:
        diagnostics.error(CODE, Span(source, deep, deep + 1),
                          f"the text nests more than {MAX_NESTING} brackets deep, deeper than "
                          f"any Lmlir module")
        return None
    with mlir_context():
        try:
            module = ir.Module.parse(source.text)
        except ir.MLIRError as error:
            for d in error.error_diagnostics or ():
                diagnostics.error(CODE, _span(source, d.location), f"MLIR: {d.message}")
            if not error.error_diagnostics:
                diagnostics.error(CODE, Span(source, 0, 0), f"MLIR: {error}")
            return None
        try:
            tree = M["Module"]((*sites, *_Walk(source).items(module)),
                               span=Span(source, 0, 0))
            _same_again(tree, module)
        except Refused as refused:
            diagnostics.error(CODE, _span(source, refused.op.location), refused.message)
            return None
    return tree


def _too_deep(text: str) -> int | None:
    """The offset of the first bracket nesting deeper than MAX_NESTING, outside strings and
    comments; None when none does."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        c = m.group()
        if c in _OPENS:
            depth += 1
            if depth > MAX_NESTING:
                return m.start()
        elif len(c) == 1:
            depth = max(depth - 1, 0)
    return None


def _sites(source, diagnostics) -> list | None:
    """The print and stop sites of the comments; None when one does not read (reported)."""
    sites = []
    for start, prod, fields in read_sites(source.text):
        end = source.text.find("\n", start)
        span = Span(source, start, end if end >= 0 else len(source.text))
        if fields is None:
            diagnostics.error(CODE, span, f"a {prod} comment does not read as one")
            return None
        sites.append(M[prod](**fields, span=span))
    return sites


def _span(source, location) -> Span:
    """The span of an MLIR location in `source`: its line from its column on."""
    try:
        line, column = location.start_line, location.start_col
    except (AttributeError, ValueError):  # not a line and column: no place to point at
        return Span(source, 0, 0)
    if not 1 <= line <= len(source.line_starts):
        return Span(source, 0, 0)
    start = source.line_starts[line - 1] + max(column, 1) - 1
    end = source.text.find("\n", start)
    return Span(source, start, end if end >= 0 else len(source.text))


def _same_again(tree, module) -> None:
    """Refuse the first operation that the tree, printed and parsed again, does not give
    back as written: what it carries the tree does not."""
    from mlir import ir

    try:
        again = ir.Module.parse(to_mlir_text(tree))
    except (ir.MLIRError, MlirTextError) as error:  # what the walk kept is not Lmlir's
        raise Refused(module.operation, f"the module holds what Lmlir cannot say: "
                                        f"{first_message(error)}") from None
    for op, back in zip(module_ops(module), module_ops(again), strict=True):
        if _shape(op) != _shape(back):
            raise Refused(op, f"'{op.name}' as written here carries what Lmlir does not "
                              f"({_difference(op, back)})")


def first_message(error) -> str:
    """The first error an MLIRError or an MlirTextError says."""
    from mlir import ir

    if isinstance(error, ir.MLIRError) and error.error_diagnostics:
        return error.error_diagnostics[0].message
    return str(error).split("\n", 1)[0]


def _held(op, build, *args):
    """build(op, *args), a node of Lmlir; what its fields cannot hold is the op's fault."""
    try:
        return build(op, *args)
    except NodeError as error:
        raise Refused(op, f"'{op.name}' here holds what Lmlir does not ({error})") from None


def _shape(op) -> tuple:
    return (op.name, sorted((key, str(op.attributes[key])) for key in op.attributes),
            [str(v.type) for v in op.operands], [str(v.type) for v in op.results],
            len(op.regions))


def _difference(op, back) -> str:
    mine, theirs = dict(_shape(op)[1]), dict(_shape(back)[1])
    extra = [f"{k} = {v}" for k, v in mine.items() if theirs.get(k) != v]
    return ", ".join(extra) or f"{len(op.operands)} operands, {len(op.results)} results"


# The operations of a row (Lmlir's Row), in the order select-instructions writes them.
_ROW = ("memref.subview", "builtin.unrealized_conversion_cast", "llvm.extractvalue",
        "llvm.extractvalue", "llvm.getelementptr", "llvm.mlir.constant", "llvm.insertvalue",
        "llvm.insertvalue", "builtin.unrealized_conversion_cast")


class _Walk:
    """An MLIR module's operations into Lmlir items; each value named by its place."""

    def __init__(self, source):
        self.source = source

    def items(self, module) -> list:
        out = []
        for op in module.body.operations:
            op = op.operation
            if op.name == "memref.global":
                out.append(_held(op, self.global_))
            elif op.name == "func.func":
                out.append(_held(op, self.func))
            else:
                raise Refused(op, f"'{op.name}' is not an item of an Lmlir module (a "
                                  f"func.func or a memref.global)")
        return out

    def span(self, op) -> Span:
        return _span(self.source, op.location)

    def global_(self, op):
        from mlir import ir

        # A vector's or a tensor's cell, written before it is read: `uninitialized`, a unit
        if "initial_value" not in op.attributes or \
                isinstance(op.attributes["initial_value"], ir.UnitAttr):
            return M["Global"](_string(op, "sym_name"),
                               str(ir.TypeAttr(op.attributes["type"]).value), None,
                               span=self.span(op))
        value = op.attributes["initial_value"]
        if not ir.DenseElementsAttr(value).is_splat:
            raise Refused(op, "a memref.global whose elements are not one value")
        number = (ir.DenseIntElementsAttr(value)[0] if isinstance(value, ir.DenseIntElementsAttr)
                  else ir.DenseFPElementsAttr(value)[0])
        return M["Global"](_string(op, "sym_name"), str(ir.TypeAttr(op.attributes["type"]).value),
                           number, span=self.span(op))

    def func(self, op):
        from mlir import ir

        name = _string(op, "sym_name")
        kind = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
        results = tuple(str(t) for t in kind.results)
        blocks = list(op.regions[0].blocks)
        if not blocks:
            return M["Declare"](name, tuple(str(t) for t in kind.inputs), results,
                                span=self.span(op))
        self.names = {}
        for b, block in enumerate(blocks):
            for k, arg in enumerate(block.arguments):
                self.names[arg] = f"arg{k}" if b == 0 else f"bb{b}_{k}"
            for inner in block.operations:
                for k, result in enumerate(inner.results):
                    self.names[result] = str(len(self.names))
        marks = op.attributes["arg_attrs"] if "arg_attrs" in op.attributes else None
        args = tuple(M["NoAlias" if marks is not None and "llvm.noalias" in
                       ir.DictAttr(marks[k]) else "Arg"](self.names[a], str(a.type),
                                                          span=self.span(op))
                     for k, a in enumerate(blocks[0].arguments))
        topology = _string(op, "vx.topology") if "vx.topology" in op.attributes else None
        self.blocks = blocks
        return M["Func"](name, args, results, topology,
                         tuple(self.block(b, block) for b, block in enumerate(blocks)),
                         span=self.span(op))

    def block(self, b: int, block):
        args = () if b == 0 else tuple(M["Arg"](self.names[a], str(a.type), span=None)
                                        for a in block.arguments)
        ops = [op.operation for op in block.operations]
        body, k = [], 0
        while k < len(ops) - 1:
            if ops[k].name == "memref.subview" and tuple(o.name for o in ops[k:k + 9]) == _ROW:
                body.append(_held(ops[k], self.row, ops[k:k + 9]))
                k += 9
            else:
                body.append(_held(ops[k], self.op))
                k += 1
        return M["Block"](f"bb{b}", args, tuple(body), _held(ops[-1], self.term),
                          span=self.span(ops[-1]))

    def row(self, op, group):
        """A row as select-instructions writes it (mlir_text's _row): `group` its nine
        operations, each given what the one before it made, as there (_same_again checks
        their types and positions)."""
        from mlir import ir

        made = [self.values(g.results) for g in group]
        wired = [(0,), (1,), (1,), (2, 3), (), (1, 4), (6, 5), (7,)]
        for g, given in zip(group[1:], wired):
            if self.values(g.operands) != tuple(made[i][0] for i in given):
                raise Refused(g, "a row whose descriptor is not its subview's")
        source, view = ir.MemRefType(op.operands[0].type), ir.MemRefType(op.results[0].type)
        given = source.rank - view.rank
        operands = self.values(op.operands)
        return M["Row"](made[8][0], operands[0], operands[1:1 + given], operands[1 + given:],
                        str(op.operands[0].type), str(group[8].results[0].type),
                        span=self.span(op))

    def values(self, values) -> tuple:
        return tuple(self.names[v] for v in values)

    def op(self, op):
        from mlir import ir

        name, span = op.name, self.span(op)
        dialect, _, short = name.partition(".")
        operands, results = self.values(op.operands), self.values(op.results)
        result = results[0] if len(results) == 1 else None
        rtype = str(op.results[0].type) if len(results) == 1 else None
        otype = str(op.operands[0].type) if operands else None
        if name == "arith.constant":
            return M["Constant"](result, _number(op), rtype, span=span)
        if dialect == "arith" and short in ARITH_OPS:
            return M["Arith"](result, short, *operands, rtype, span=span)
        if dialect == "math" and short in MATH_OPS:
            return M["Math"](result, short, *operands, rtype, span=span)
        if dialect == "arith" and short in PREDICATES:
            number = ir.IntegerAttr(op.attributes["predicate"]).value
            predicate = _CMP[short][number]
            if predicate not in PREDICATES[short]:
                raise Refused(op, f"'{name}' with the predicate {predicate}, which Lmlir does "
                                  f"not compare with ({' '.join(sorted(PREDICATES[short]))})")
            return M["Compare"](result, short, predicate, *operands, otype, span=span)
        if name in CONVERT_OPS:
            return M["Convert"](result, name, *operands, otype, rtype, span=span)
        if name == "llvm.call_intrinsic" and len(operands) == 1 and result is not None:
            intrinsic = _string(op, "intrin").rsplit(".", 2)[0]
            if intrinsic in _INTRINSICS:
                return M["Convert"](result, _INTRINSICS[intrinsic], *operands, otype, rtype,
                                    span=span)
        if name == "memref.get_global":
            return M["GetGlobal"](result, ir.FlatSymbolRefAttr(op.attributes["name"]).value,
                                  rtype, span=span)
        if name == "memref.alloca":
            return M["Alloca"](result, rtype, span=span)
        if name == "memref.alloc":
            return M["Alloc"](result, operands, rtype, span=span)
        if name == "memref.dim":
            return M["Dim"](result, *operands, otype, span=span)
        if name == "memref.dealloc":
            return M["Dealloc"](*operands, otype, span=span)
        if name == "memref.load":
            return M["Load"](result, operands[0], operands[1:], otype, span=span)
        if name == "memref.store":
            return M["Store"](*operands[:2], operands[2:], str(op.operands[1].type), span=span)
        if name == "memref.collapse_shape" and ir.MemRefType(op.results[0].type).rank == 1 or \
                name == "memref.expand_shape" and ir.MemRefType(op.operands[0].type).rank == 0 \
                and len(operands) == 1:
            return M["Collapse"](result, *operands, otype, rtype, span=span)
        if name == "memref.cast" and len(operands) == 1:
            return M["Cast"](result, *operands, otype, rtype, span=span)
        if name == "memref.subview" and ir.MemRefType(op.results[0].type).rank == 0 and \
                len(operands) == 1 + ir.MemRefType(op.operands[0].type).rank:
            return M["Subview"](result, operands[0], operands[1:], otype, rtype, span=span)
        if name == "memref.extract_aligned_pointer_as_index":
            return M["Pointer"](result, *operands, otype, span=span)
        if name == "vx.transfer" and len(operands) == 1 and rtype == otype:
            return M["Transfer"](result, *operands, rtype,
                                 *(_string(op, key) if key in op.attributes else None
                                   for key in ("source", "dest", "route", "slot")), span=span)
        if name == "func.call":
            launch = _string(op, "vx.launch") if "vx.launch" in op.attributes else None
            return M["Call"](tuple(M["Arg"](n, str(v.type), span=span)
                                   for n, v in zip(results, op.results)),
                             ir.FlatSymbolRefAttr(op.attributes["callee"]).value, operands,
                             launch, span=span)
        if name == "llvm.intr.assume" and len(operands) == 1:
            return M["Assume"](*operands, span=span)
        if name == "vector.from_elements":
            return M["FromElements"](result, operands, rtype, span=span)
        if name == "vector.broadcast" and len(operands) == 1:
            return M["Broadcast"](result, *operands, otype, rtype, span=span)
        if name == "vector.extract" and len(operands) == 2 and result is not None:
            return M["Extract"](result, *operands, otype, rtype, span=span)
        raise Refused(op, f"'{name}' here is no operation of Lmlir (func, arith, math, cf, "
                          f"memref, vector and llvm's as select-instructions writes them, "
                          f"and vx.transfer)")

    def term(self, op):
        from mlir import ir

        span, name = self.span(op), op.name
        operands = self.values(op.operands)
        labels = [f"bb{self.blocks.index(s)}" for s in op.successors] \
            if name in ("cf.br", "cf.cond_br") else []
        if name == "cf.br":
            return M["Br"](labels[0], operands, span=span)
        if name == "cf.cond_br":
            _, then, _ = ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])
            return M["CondBr"](operands[0], labels[0], operands[1:1 + then], labels[1],
                               operands[1 + then:], span=span)
        if name == "func.return":
            return M["Ret"](operands, span=span)
        if name == "llvm.unreachable":
            return M["Unreachable"](span=span)
        raise Refused(op, f"'{name}' ends a block here, and Lmlir ends one only with "
                          f"cf.br, cf.cond_br, func.return or llvm.unreachable")


def _string(op, key: str) -> str:
    from mlir import ir

    attr = op.attributes[key]
    if not isinstance(attr, ir.StringAttr):
        raise Refused(op, f"'{op.name}' with {key} = {attr}, where Lmlir has a string")
    return attr.value


def _number(op):
    """An arith.constant's value: an i1's as 0 or 1, an integer's signed, a float's."""
    from mlir import ir

    attr = op.attributes["value"]
    if isinstance(attr, ir.BoolAttr):
        return int(attr.value)
    if isinstance(attr, ir.FloatAttr):
        return attr.value
    if not isinstance(attr, ir.IntegerAttr):
        raise Refused(op, f"an arith.constant of {attr}, where Lmlir has a number")
    value = attr.value
    return value & 1 if str(attr.type) == "i1" else value

