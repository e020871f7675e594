"""Lscalars: every literal, operator, cast, `let`, loop variable and parameter has its type."""

from __future__ import annotations

from ..nanopass import prod
from .l11_assumed import Lassumed

# The back end needs a machine type for every value. The interpreter types untyped literals as
# it runs (an `i32` until a typed operand meets it); code generation needs that decision made
# once, before it, as Rust's inference makes it: from the context, else i32 and f64. What the
# back end does not lower (the run-time machine state: `try_pin`, `match` on it, topology
# values; differentiation) is not in this IL: type-scalars refuses it. An array literal is
# the tensor literal of its decided type. Struct and enum declarations make no code and are
# gone; so are their values, tuples and `match` on a value, which native code does not lower
# yet. A reference to a tensor is the tensor's buffer
# (type-scalars erases `&t`, `*p` and `&Tensor<..>`); a reference to a scalar variable stays,
# and select-instructions makes it the address of the variable's cell.
Lscalars = Lassumed.extend(
    "Lscalars",
    "Lassumed with scalar types decided: literals, operators, casts, lets, loop variables, "
    "parameters and every function's result carry a type",
    remove={
        "Expr": ["Int", "Float", "Binary", "Unary", "Cast", "Match", "MethodCall", "FieldGet",
                 "ArrayLit", "MatchValue", "EnumValue", "StructLit", "Tuple", "TupleGet",
                 "SomeTopo", "NoneTopo", "Grad", "Vjp", "Jvp", "Mem", "Topo", "Closure"],
        "Arm": ["Arm"],
        "Case": ["Case"],
        "Pattern": ["PWild", "PLit", "PBind", "PVariant", "POr"],
        "Variant": ["Variant"],
        "FieldInit": ["FieldInit"],
        "Type": ["HardwareStateType"],
        "Stmt": ["Let", "For", "Requires", "Ensures", "Invariant"],  # contracts make no code
        "Param": ["Param"],
        "Item": ["Fn", "StructDecl", "EnumDecl"],
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
            prod("Cast", "value: Expr, source: scalar, type: Type", "source: the value's type"),
            prod("Closure", "params: Param*, ret: Type, body: Block"),
        ],
        "Stmt": [
            prod("Let", "name: uname, mutable: bool, type: Type, value: Expr",
                 "the type is decided: a scalar, a tensor, or opaque for a closure"),
            prod("For", "var: uname, type: scalar, start: Expr, end: Expr, body: Block"),
        ],
    },
)
