"""Text printers for the back end's tree ILs (Lscalars to Lblocks): a literal with its type as
a Rust suffix (`3000000000i64`), a loop variable with its type, a function as labelled basic
blocks. Registered by importing this module (dump/text.py does)."""

from __future__ import annotations

from .writer import ATOM, BINARY_PREC, CAST, CLOSURE, HEADER, POSTFIX, UNARY, expr, line


def _suffixed_prec(n):
    return UNARY if str(n.value).startswith("-") else ATOM


@expr("Int", "value type", _suffixed_prec)
def _int(w, n):
    w.put(str(n.value), n.type)


@expr("Float", "value type", _suffixed_prec)
def _float(w, n):
    w.put(repr(n.value), n.type)


# An operator's type is its operands', which their literals' suffixes and their variables'
# `let`s show: the operator prints as written.
@expr("Binary", "op type left right", lambda n: BINARY_PREC[n.op])
def _binary(w, n):
    prec = BINARY_PREC[n.op]
    w.node(n.left, prec)
    w.put(" ", n.op, " ")
    w.node(n.right, prec + 1)


@expr("Unary", "op type operand", UNARY)
def _unary(w, n):
    w.put(n.op)
    w.node(n.operand, POSTFIX)


@expr("Cast", "value source type", CAST)
def _cast(w, n):
    w.node(n.value, CAST)
    w.put(" as ")
    w.node(n.type)


@line("For", "var type start end body")
def _for(w, n):
    w.put("for ", n.var, ": ", n.type, " in ")
    w.node(n.start, HEADER)
    w.put("..")
    w.node(n.end, HEADER)
    w.put(" ")
    w.node(n.body)


@expr("Closure", "params ret body", CLOSURE)
def _closure(w, n):
    w.put("|")
    w.commas(n.params)
    w.put("| -> ")
    w.node(n.ret)
    w.put(" ")
    w.node(n.body)


@line("Fn", "name params on ret bounds blocks")
def _fn(w, n):
    w.put("fn ", n.name, "(")
    w.commas(n.params)
    w.put(")")
    w.opt(" on ", n.on)
    w.put(" -> ")
    w.node(n.ret)
    if n.bounds:
        w.put(" where ")
        w.commas(n.bounds)
    w.put(" {")
    for block in n.blocks:
        w.newline()
        w.stmt(block)
    w.newline()
    w.put("}")


@line("BasicBlock", "label stmts exit")
def _basic_block(w, n):
    w.put(n.label, ":")
    w.depth += 1
    for s in (*n.stmts, n.exit):
        w.newline()
        w.stmt(s)
    w.depth -= 1


@line("Goto", "target")
def _goto(w, n):
    w.put("goto ", n.target, ";")


@line("Branch", "cond then orelse")
def _branch(w, n):
    w.put("branch ")
    w.node(n.cond)
    w.put(", ", n.then, ", ", n.orelse, ";")
