"""The text dump: any IL printed as Rust-like Vx surface syntax, one printer per production
(registered with the field names it prints; see writer.py for why) and the generic form for
the rest."""

from __future__ import annotations

from ..deep import run_deep
from ..languages.l15_mlir import Lmlir
from ..nanopass.nodes import Node
from ..placement.sizes import extent
from ..spatial import is_spatial_program
from .writer import (ATOM, BINARY_PREC, BLOCK, BLOCKLIKE, CAST, CLOSURE, HEADER, POSTFIX, UNARY,
                     Writer, expr, line, quote, shape)


def to_text(node: Node) -> str:
    """The text dump of any node of any IL, newline-terminated."""
    if is_spatial_program(node):
        # A spatial program dumps in the spatial text form, which its parser reads back.
        from ..spatial.text import to_spatial_text

        return to_spatial_text(node)
    if type(node) is Lmlir["Module"]:  # MLIR text, as emit-mlir hands it to MLIR
        from ..backend.mlir_text import to_mlir_text

        return to_mlir_text(node)
    return run_deep(_to_text, node)


def _to_text(node: Node) -> str:
    w = Writer()
    w.node(node)
    w.put("\n")
    return "".join(w.parts)


# Items and the program -------------------------------------------------------------------

@line("Program", "items")
def _program(w, n):
    for i, item in enumerate(n.items):
        if i:
            w.put("\n")  # a blank line between items, with no trailing indentation
            w.newline()
        w.stmt(item)


@line("Fn", "name generics params on ret bounds body")
def _generic_fn(w, n):
    _fn(w, n, n.generics)


@line("Fn", "name params on ret bounds body")  # from Lmono on, generics are instances
def _instance_fn(w, n):
    _fn(w, n, ())


def _generic_args(w, args):
    """`<a, b>`: a declaration's generic parameters or a use's arguments; none, nothing."""
    if args:
        w.put("<")
        w.commas(args)
        w.put(">")


def _fn(w, n, generics):
    w.put("fn ", n.name)
    _generic_args(w, generics)
    w.put("(")
    w.commas(n.params)
    w.put(")")
    w.opt(" on ", n.on)
    w.opt(" -> ", n.ret)
    if n.bounds:
        w.put(" where ")
        w.commas(n.bounds)
    w.put(" ")
    w.node(n.body)


def _decl(keyword):
    def printer(w, n):
        w.put(keyword, " ", n.name, " {")
        if n.fields:
            w.put(" ")
            w.commas(n.fields)
            w.put(" ")
        w.put("}")
    return printer


line("MemoryDecl", "name fields")(_decl("Memory"))
line("TopologyDecl", "name fields")(_decl("Topology"))


@line("ConstItem", "name type value")
def _const(w, n):
    w.put("const ", n.name, ": ")
    w.node(n.type)
    w.opt(" = ", n.value)
    w.put(";")


@line("Import", "path")
def _import(w, n):
    w.put("import ", "::".join(n.path), ";")


@line("EnumDecl", "name variants")
def _enum(w, n):
    w.put("enum ", n.name, " {")
    if n.variants:
        w.depth += 1
        for v in n.variants:
            w.newline()
            w.node(v)
            w.put(",")
        w.depth -= 1
        w.newline()
    w.put("}")


@expr("Variant", "name fields")
def _variant(w, n):
    w.put(n.name)
    _carried(w, n.fields)


@line("Impl", "generics type fns")
def _impl(w, n):
    w.put("impl")
    _generic_args(w, n.generics)
    w.put(" ")
    w.node(n.type)
    if not n.fns:
        w.put(" {}")
        return
    w.put(" {")
    w.depth += 1
    for i, fn in enumerate(n.fns):
        if i:
            w.put("\n")
        w.newline()
        w.stmt(fn)
    w.depth -= 1
    w.newline()
    w.put("}")


@line("StructDecl", "name fields generics")
def _generic_struct(w, n):
    _struct(w, n, n.generics)


@line("StructDecl", "name fields")  # from Lmono on, a generic struct's parameters are erased
def _erased_struct(w, n):
    _struct(w, n, ())


def _struct(w, n, generics):
    w.put("struct ", n.name)
    _generic_args(w, generics)
    w.put(" {")
    if n.fields:
        w.depth += 1
        for f in n.fields:
            w.newline()
            w.node(f)
            w.put(",")
        w.depth -= 1
        w.newline()
    w.put("}")


@expr("TypeParam", "name topology")
def _type_param(w, n):
    w.put(n.name, ": Topology" if n.topology else "")


@expr("ConstParam", "name type")
def _const_param(w, n):
    w.put("const ", n.name, ": ")
    w.node(n.type)


@expr("Param", "name type")
def _param(w, n):
    w.put(n.name)
    w.opt(": ", n.type)


@expr("ReachableBound", "src dst")
def _bound(w, n):
    w.put("Reachable<", n.src, ", ", n.dst, ">")


@expr("ReachableBound", "src dst written")
def _bound_made_concrete(w, n):
    w.put("Reachable<")
    w.node(n.src)
    w.put(", ")
    w.node(n.dst)
    w.put("> /* ", n.written, " */")


@expr("DeclField", "key value")
def _decl_field(w, n):
    w.put(n.key)
    w.opt(": ", n.value)


@expr("TransferEdge", "src dst cost flags")
def _edge(w, n):
    w.put("transfer ")
    w.node(n.src)
    w.put(" -> ")
    w.node(n.dst)
    w.opt(" : ", n.cost)
    w.put("".join(f" {flag}" for flag in n.flags))


@expr("Quantity", "number unit")
def _quantity(w, n):
    w.put(n.number, f" {n.unit}" if n.unit is not None else "")


@expr("Word", "word")
def _word(w, n):
    w.put(n.word)


@expr("DeclList", "items")
def _decl_list(w, n):
    w.put("[")
    w.commas(n.items)
    w.put("]")


# Statements --------------------------------------------------------------------------------

@expr("Block", "stmts value")
def _block(w, n):
    w.braced(n)


@line("Let", "name mutable type value")
def _let(w, n):
    w.put("let ", "mut " if n.mutable else "", n.name)
    w.opt(": ", n.type)
    w.put(" = ")
    w.node(n.value)
    w.put(";")


@line("Assign", "target op value")
def _assign(w, n):
    w.node(n.target)
    w.put(" ", n.op, " ")
    w.node(n.value)
    w.put(";")


@line("For", "var start end body")
def _for(w, n):
    w.put("for ", n.var, " in ")
    w.node(n.start, HEADER)
    w.put("..")
    w.node(n.end, HEADER)
    w.put(" ")
    w.node(n.body)


@line("Loop", "body")
def _loop(w, n):
    w.put("loop ")
    w.node(n.body)


@line("While", "cond body")
def _while(w, n):
    w.put("while ")
    w.node(n.cond, HEADER)
    w.put(" ")
    w.node(n.body)


@line("If", "cond comptime then orelse")
def _if(w, n):
    w.put("if ", "comptime " if n.comptime else "")
    w.node(n.cond, HEADER)
    w.put(" ")
    w.node(n.then)
    other = n.orelse
    if other is None:
        return
    w.put(" else ")
    # `else if` is a block holding just the inner `if`; print it the way it was written.
    if (shape(other) == BLOCK and other.value is None
            and len(other.stmts) == 1 and shape(other.stmts[0]) == shape(n)):
        _if(w, other.stmts[0])
    else:
        w.node(other)


@expr("IfExpr", "cond comptime then orelse", BLOCKLIKE)
def _if_expr(w, n):
    w.put("if ", "comptime " if n.comptime else "")
    w.node(n.cond, HEADER)
    w.put(" ")
    w.node(n.then)
    w.put(" else ")
    other = n.orelse
    if shape(other) == BLOCK and not other.stmts and other.value is not None \
            and shape(other.value) == shape(n):
        _if_expr(w, other.value)
    else:
        w.node(other)


@line("Return", "value")
def _return(w, n):
    w.put("return")
    w.opt(" ", n.value)
    w.put(";")


@line("Break")
def _break(w, n):
    w.put("break;")


@line("Continue")
def _continue(w, n):
    w.put("continue;")


@line("Assume", "cond")
def _assume(w, n):
    w.put("assume(")
    w.node(n.cond)
    w.put(");")


@line("Assert", "cond message")
def _assert(w, n):
    w.put("assert(")
    w.node(n.cond)
    if n.message is not None:
        w.put(", ", quote(n.message))
    w.put(");")


@line("ComptimeStmt", "body")
def _comptime_stmt(w, n):
    w.put("comptime ")
    w.node(n.body)


@line("BlockStmt", "body")
def _block_stmt(w, n):
    w.node(n.body)


@line("UnrollAcross", "topo var body")
def _unroll(w, n):
    w.put("unroll across(")
    w.node(n.topo)
    w.put(") ")
    w.braced(n.body, f" |{n.var}|")


@line("LetTuple", "names value")
def _let_tuple(w, n):
    w.put("let (", ", ".join(n.names), ") = ")
    w.node(n.value)
    w.put(";")


@line("ExprStmt", "expr")
def _expr_stmt(w, n):
    # `comptime { .. };` at the start of a statement reads back as a ComptimeStmt; the
    # parentheses keep an expression statement one. (`spawn` starts no statement.)
    # An `if` there would read back as an `if` statement: the parentheses keep it a value.
    w.node(n.expr, HEADER if n.expr._prod in ("Comptime", "IfExpr") else CLOSURE)
    w.put(";")


@line("ItemStmt", "item")
def _item_stmt(w, n):
    w.stmt(n.item)


# Expressions -------------------------------------------------------------------------------

def _literal_prec(n):
    # A negative literal (from constant folding) reads as a unary minus.
    return UNARY if n.value < 0 or str(n.value).startswith("-") else ATOM


@expr("Int", "value", _literal_prec)
def _int(w, n):
    w.put(str(n.value))


@expr("Float", "value", _literal_prec)
def _float(w, n):
    w.put(repr(n.value))


@expr("Suffixed", "value suffix")
def _suffixed(w, n):
    w.node(n.value)
    w.put(n.suffix)


@expr("Bool", "value")
def _bool(w, n):
    w.put("true" if n.value else "false")


@expr("Str", "value")
def _str(w, n):
    w.put(quote(n.value))


@expr("Var", "name")
def _var(w, n):
    w.put(n.name)


@expr("Local", "name")
def _local(w, n):
    w.put(n.name)


@expr("Global", "name")
def _global(w, n):
    w.put("@", n.name)


def _binary(w, n):
    prec = BINARY_PREC[n.op]
    w.node(n.left, prec)
    w.put(" ", n.op, " ")
    w.node(n.right, prec + 1)  # left-associative


expr("Binary", "op left right", lambda n: BINARY_PREC[n.op])(_binary)
expr("DimBinary", "op left right", lambda n: BINARY_PREC[n.op])(_binary)


@expr("Unary", "op operand", UNARY)
def _unary(w, n):
    w.put(n.op)
    w.node(n.operand, POSTFIX)  # `-(-x)`, never `--x`


@expr("Borrow", "value mutable", UNARY)
def _borrow(w, n):
    w.put("&mut " if n.mutable else "&")
    w.node(n.value, POSTFIX)  # `&(&x)`, as `-(-x)`


@expr("Deref", "value", UNARY)
def _deref(w, n):
    w.put("*")
    w.node(n.value, POSTFIX)


@expr("Cast", "value type", CAST)
def _cast(w, n):
    w.node(n.value, CAST)
    w.put(" as ")
    w.node(n.type)


@expr("Call", "callee targs args", POSTFIX)
def _generic_call(w, n):
    w.node(n.callee, POSTFIX)
    _generic_args(w, n.targs)
    _args(w, n)


@expr("Call", "callee args", POSTFIX)  # from Lmono on, the callee names the instance
def _call(w, n):
    w.node(n.callee, POSTFIX)
    _args(w, n)


def _args(w, n):
    w.put("(")
    w.commas(n.args)
    w.put(")")


def _dotted(w, base):
    """What a `.` follows: a number in parentheses, since `0.0` and `1.f` read as floats."""
    if base._prod in ("Int", "Float"):
        w.put("(")
        w.node(base)
        w.put(")")
    else:
        w.node(base, POSTFIX)


@expr("MethodCall", "receiver method args", POSTFIX)
def _method_call(w, n):
    _dotted(w, n.receiver)
    w.put(".", n.method, "(")
    w.commas(n.args)
    w.put(")")


@expr("Index", "base index", POSTFIX)
def _index(w, n):
    w.node(n.base, POSTFIX)
    w.put("[")
    w.node(n.index)
    w.put("]")


@expr("FieldGet", "base field", POSTFIX)
def _field_get(w, n):
    _dotted(w, n.base)
    w.put(".", n.field)


@expr("Select", "cond then orelse", BLOCKLIKE)
def _select(w, n):
    # Lblocks' `if` value inside an expression, written as the `if` it was.
    w.put("if ")
    w.node(n.cond, HEADER)
    w.put(" { ")
    w.node(n.then)
    w.put(" } else { ")
    w.node(n.orelse)
    w.put(" }")


@expr("TupleGet", "base index", POSTFIX)
def _tuple_get(w, n):
    _dotted(w, n.base)
    w.put(".", str(n.index))


@expr("Tuple", "elems", ATOM)  # a tuple, and its type: written alike
@expr("TupleType", "elems")
def _tuple(w, n):
    w.put("(")
    w.commas(n.elems)
    w.put(",)" if len(n.elems) == 1 else ")")


@expr("StructLit", "name targs fields", ATOM)
def _struct_lit(w, n):
    w.put(n.name)
    if n.targs:
        w.put("::<")
        w.commas(n.targs)
        w.put(">")
    w.put(" { ")
    w.commas(n.fields)
    w.put(" }")


@expr("StructLit", "name fields", ATOM)
def _erased_struct_lit(w, n):
    w.put(n.name, " { ")
    w.commas(n.fields)
    w.put(" }")


@expr("FieldInit", "name value")
def _field_init(w, n):
    w.put(n.name, ": ")
    w.node(n.value)


@expr("TensorNew", "type ctor args")
def _tensor_new(w, n):
    w.node(n.type)
    w.put("::", n.ctor, "(")
    w.commas(n.args)
    w.put(")")


@expr("TensorCall", "elem dims shaped place args")
def _tensor_call(w, n):
    w.put("Tensor<")
    w.node(n.elem)
    if n.shaped:
        w.put(", [")
        w.commas(n.dims)
        w.put("]")
        w.opt(", ", n.place)
    w.put(">(")
    for arg in n.args:
        _nested(w, arg)
    w.put(")")


def _nested(w, e):
    """A tensor constructor's list: a list element is a row; an element that is no list but
    starts with `[` (`[0][i]`) goes in parentheses, or it would read as one."""
    if e._prod != "ArrayLit":
        _element(w, e)
        return
    w.put("[")
    for i, item in enumerate(e.elems):
        w.put(", " if i else "")
        _nested(w, item)
    w.put("]")


def _element(w, e):
    if to_text(e).startswith("["):
        w.put("(")
        w.node(e)
        w.put(")")
    else:
        w.node(e)


@expr("TensorLit", "type elems")
def _tensor_lit(w, n):
    w.node(n.type)
    w.put("(")
    extents = [extent(d) for d in getattr(n.type, "dims", ())]
    if None in extents or not extents:
        extents = [len(n.elems)]
    values = list(n.elems)

    def rows(k, start):
        if k == len(extents) - 1:
            w.put("[")
            for i, e in enumerate(values[start:start + extents[k]]):
                w.put(", " if i else "")
                _element(w, e)
            w.put("]")
            return
        step = 1
        for e in extents[k + 1:]:
            step *= e
        w.put("[")
        for r in range(extents[k]):
            w.put(", " if r else "")
            rows(k + 1, start + r * step)
        w.put("]")
    rows(0, 0)
    w.put(")")


@expr("ArrayLit", "elems", ATOM)
def _array_lit(w, n):
    w.put("[")
    w.commas(n.elems)
    w.put("]")


@expr("Transfer", "value dest")
def _transfer(w, n):
    w.put("transfer(")
    w.commas((n.value, n.dest))
    w.put(")")


@expr("Transfer", "value dest mark")
def _marked_transfer(w, n):
    w.put("transfer[", n.mark, "](")
    w.commas((n.value, n.dest))
    w.put(")")


@expr("Transfer", "value dest mark src")
@expr("Transfer", "value dest mark src route")
@expr("Transfer", "value dest mark src route slot")
def _placed_transfer(w, n):
    # What each IL has learnt rides in the brackets, in the order the ILs learn it:
    # transfer[sync, from CPU_DRAM](x, Memory::GPU_HBM) once the source space is inferred;
    # transfer[sync, CPU_DRAM -> NPU_HBM (50) => W (0), cost 50](x, Memory::W) once routed
    # (`->` a declared edge, `=>` a within: leg, each with its cost); then, once scheduled,
    # `, slot W+16384 (2 x 16384 B of 65536 B)`: byte offset, granules, granule and capacity
    # (the whole descriptor is in the dot and JSON dumps).
    fields = type(n)._fields
    w.put("transfer[", n.mark, ", ")
    route = n.route if "route" in fields else None
    if route is None:
        w.put("from ", n.src.name if n.src is not None else "an unknown space")
        if "route" in fields:
            w.put(", no route")
    else:
        w.put(n.src.name)
        for hop in route.hops:
            w.put(" -> " if hop.via == "edge" else " => ", hop.dst, " (", hop.cost, ")")
        w.put(", cost ", route.cost)
    slot = n.slot if "slot" in fields else None
    if slot is not None:
        space = slot.space
        capacity = "unbounded" if space.capacity is None else f"{space.capacity} B"
        w.put(f", slot {space.name}+{slot.offset} "
              f"({slot.slots} x {space.granule} B of {capacity})")
    w.put("](")
    w.commas((n.value, n.dest))
    w.put(")")


@expr("Spawn", "topo body", BLOCKLIKE)
def _spawn(w, n):
    w.put("spawn on(")
    w.node(n.topo)
    w.put(") ")
    w.node(n.body)


@expr("Launch", "kernel topo args", POSTFIX)
def _launch(w, n):
    w.put("launch ", n.kernel, " on(")
    w.node(n.topo)
    w.put(")(")
    w.commas(n.args)
    w.put(")")


@expr("Comptime", "body", BLOCKLIKE)
def _comptime(w, n):
    w.put("comptime ")
    w.node(n.body)


@expr("Match", "scrutinee arms", BLOCKLIKE)
def _match(w, n):
    w.put("match ")
    w.node(n.scrutinee, HEADER)
    if not n.arms:
        w.put(" {}")
        return
    w.put(" {")
    w.depth += 1
    for arm in n.arms:
        w.newline()
        w.node(arm)
    w.depth -= 1
    w.newline()
    w.put("}")


@expr("MatchValue", "scrutinee cases", BLOCKLIKE)
def _match_value(w, n):
    w.put("match ")
    w.node(n.scrutinee, HEADER)
    if not n.cases:
        w.put(" {}")
        return
    w.put(" {")
    w.depth += 1
    for case in n.cases:
        w.newline()
        w.node(case)
        w.put(",")
    w.depth -= 1
    w.newline()
    w.put("}")


@expr("Case", "pattern body")
def _case(w, n):
    w.node(n.pattern)
    w.put(" => ")
    w.node(n.body)


@expr("PWild", "")
def _p_wild(w, n):
    w.put("_")


@expr("PLit", "value")
def _p_lit(w, n):
    w.node(n.value)


@expr("PBind", "name")
def _p_bind(w, n):
    w.put(n.name)


@expr("PVariant", "enum variant args")  # a pattern, and a value: written alike
@expr("EnumValue", "enum variant args", ATOM)
@expr("EnumValue", "enum variant", ATOM)  # until resolve-type-paths, a value is a PathCall
def _variant_of(w, n):
    w.put(n.enum, "::", n.variant)
    _carried(w, getattr(n, "args", ()))


@expr("PathCall", "type targs fn fargs args", ATOM)
def _path_call(w, n):
    w.put(n.type)
    _generic_args(w, n.targs)
    w.put("::", n.fn)
    _generic_args(w, n.fargs)
    w.put("(")
    w.commas(n.args)
    w.put(")")


def _carried(w, values):
    """What a variant carries, `(a, b)`: nothing when it carries nothing."""
    if values:
        w.put("(")
        w.commas(values)
        w.put(")")


@expr("POr", "alts")
def _p_or(w, n):
    for i, alt in enumerate(n.alts):
        w.put(" | " if i else "")
        w.node(alt)


@expr("Arm", "variant binding body")
def _arm(w, n):
    # The binding prints as a parameter: with its type once infer-placement gave it one.
    w.put(n.variant, "(")
    w.node(n.binding)
    w.put(") => ")
    w.node(n.body)


@expr("Closure", "params body", CLOSURE)
def _closure(w, n):
    w.put("|")
    w.commas(n.params)
    w.put("| ")
    w.node(n.body)


@expr("Grad", "fn arg")
def _grad(w, n):
    w.put("grad(", n.fn, ", ")
    w.node(n.arg)
    w.put(")")


def _pushforward(keyword):
    def printer(w, n):
        w.put(keyword, "(", n.fn, ", ")
        w.commas(n.values()[1:])
        w.put(")")
    return printer


expr("Vjp", "fn primal cotangent")(_pushforward("vjp"))
expr("Jvp", "fn primal tangent")(_pushforward("jvp"))


@expr("ReachableQ", "src dst")
def _reachable_q(w, n):
    w.put("Reachable<")
    w.commas((n.src, n.dst))
    w.put(">")


@expr("SomeTopo", "topo")
def _some(w, n):
    w.put("Some(")
    w.node(n.topo)
    w.put(")")


@expr("NoneTopo")
def _none(w, n):
    w.put("None")


@expr("TypeArg", "type")
def _type_arg(w, n):
    w.node(n.type)


@expr("DimArg", "dim")
def _dim_arg(w, n):
    w.node(n.dim)


@expr("FloatArg", "value")
def _float_arg(w, n):
    w.put(repr(n.value))


@expr("TopoArg", "topo")
def _topo_arg(w, n):
    w.node(n.topo)


@expr("MemRef", "name")
def _mem_ref(w, n):
    w.put("Memory::", n.name)


@expr("TopoRef", "name index end")
def _topo_ref(w, n):
    w.put("Topology::", n.name)
    if n.index is not None or n.end is not None:
        w.put("[")
        if n.index is not None:
            w.node(n.index, HEADER)
        w.opt("..", n.end, HEADER)
        w.put("]")


# Types and dimensions ----------------------------------------------------------------------

@expr("Scalar", "name")
def _scalar(w, n):
    w.put(n.name)


@expr("TensorType", "elem dims place")
def _tensor_type(w, n):
    w.put("Tensor<")
    w.node(n.elem)
    w.put(", [")
    w.commas(n.dims)
    w.put("]")
    w.opt(", ", n.place)
    w.put(">")


def _wrapper(keyword):
    def printer(w, n):
        w.put(keyword, "<")
        w.commas(n.values())
        w.put(">")
    return printer


expr("PinnedType", "inner topo")(_wrapper("Pinned"))
expr("VerifiedType", "inner")(_wrapper("Verified"))
expr("HardwareStateType", "inner topo")(_wrapper("HardwareState"))
expr("RefType", "inner mem")(_wrapper("Ref"))


@expr("BorrowType", "inner mutable")
def _borrow_type(w, n):
    w.put("&mut " if n.mutable else "&")
    w.node(n.inner)


@expr("OpaqueType")
def _opaque_type(w, n):
    # A type placement inference leaves open, written as Rust writes a type left to the
    # compiler (`let f: _ = |x| ..`).
    w.put("_")


@expr("AppliedType", "name args")
def _applied_type(w, n):
    w.put(n.name, "<")
    w.commas(n.args)
    w.put(">")


@expr("NamedType", "name")
def _named_type(w, n):
    w.put(n.name)


@expr("DimInt", "value", _literal_prec)
def _dim_int(w, n):
    w.put(str(n.value))


@expr("DimAny", "", ATOM)
def _dim_any(w, n):
    w.put("?")


@expr("DimName", "name")
def _dim_name(w, n):
    w.put(n.name)


# The back end's tree ILs print through printers of their own.
from . import text_lowered  # noqa: E402,F401
