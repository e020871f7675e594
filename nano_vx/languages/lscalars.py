"""Lscalars: every literal, operator, cast, `let`, loop variable and parameter has its type."""

from __future__ import annotations

from ..nanopass import prod
from .lsafe import Lsafe

# The back end needs a machine type for every value. The interpreter types untyped literals as
# it runs (an `i32` until a typed operand meets it); code generation needs that decision made
# once, before it, as Rust's inference makes it: from the context, else i32 and f64. An array
# literal is the tensor literal of its decided type, `t.extent(i)` of a variable whose extent
# i is static the number, any other an Extent read as the program runs. An operator on vectors and a lane read are productions of their own:
# a vector is one value, not a tensor, and its operator's type is no scalar.
Lscalars = Lsafe.extend(
    "Lscalars",
    "Lsafe with scalar types decided: literals, operators, casts, lets, loop variables, "
    "parameters and every function's result carry a type, a closure value its signature; "
    "an operator on vectors and a lane read are productions of their own",
    remove={
        "Expr": ["Int", "Float", "Binary", "Unary", "Cast", "MethodCall", "ArrayLit", "Closure"],
        "Stmt": ["Let", "For"],
        "Param": ["Param"],
        "Item": ["Fn"],
    },
    add={
        "Item": [prod("Fn", "name: iname, params: Param*, on: Topo?, ret: Type, "
                            "bounds: Bound*, body: Block",
                      "ret: the result type, `void` for none (a kernel's is its body's)")],
        "Param": [prod("Param", "name: uname, type: Type")],
        "Expr": [
            prod("Int", "value: int, type: scalar", "an integer literal of the type its "
                                                    "context gives, else i32"),
            prod("Float", "value: float, type: scalar", "a float literal of the type its "
                                                        "context gives, else f64"),
            prod("Binary", "op: binop, type: scalar, left: Expr, right: Expr",
                 "type: the operands' type (a comparison's value is a bool)"),
            prod("Unary", "op: unop, type: scalar, operand: Expr"),
            prod("VecBinary", "op: binop, type: Type, left: Expr, right: Expr",
                 "`+ - * /` of two vectors of `type`, lane by lane"),
            prod("Lane", "vector: Expr, index: Expr", "`v[i]` of a vector v: its lane i"),
            prod("Extent", "tensor: Expr, axis: int, type: scalar",
                 "`t.extent(i)` read as the program runs: a `?` extent, or any of a tensor "
                 "that is not a variable (its value computed first)"),
            prod("Cast", "value: Expr, source: scalar, type: Type", "source: the value's type"),
            prod("Closure", "params: Param*, ret: Type, body: Block"),
        ],
        "Type": [prod("ClosureType", "params: Type*, ret: Type",
                      "a closure value's: what it is called with, what it returns")],
        "Stmt": [
            prod("Let", "name: uname, mutable: bool, type: Type, value: Expr",
                 "the type is decided: a scalar, a tensor, or a closure's"),
            prod("For", "var: uname, type: scalar, start: Expr, end: Expr, body: Block"),
        ],
    },
)
