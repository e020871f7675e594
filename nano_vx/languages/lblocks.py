"""Lblocks: a function body is a list of basic blocks; loops, `if` and `return` are jumps."""

from __future__ import annotations

import re

from ..nanopass import Terminal, prod
from .llifted import Llifted

_LABEL = re.compile(r"bb[0-9]+\Z")

Lblocks = Llifted.extend(
    "Lblocks",
    "Llifted with control made explicit: each function is basic blocks of straight-line "
    "statements, each ending in a jump, a two-way branch or a return",
    terminals=[Terminal("label", lambda v: type(v) is str and _LABEL.match(v) is not None,
                        "a basic block's label: bb0, bb1, ...")],
    remove={
        "Item": ["Fn"],
        "Stmt": ["If", "While", "For", "Return", "Break", "Continue", "BlockStmt"],
        "Expr": ["IfExpr"],
        "Block": ["Block"],
    },
    add={
        "Item": [prod("Fn", "name: iname, params: Param*, on: Topo?, ret: Type, "
                            "bounds: Bound*, blocks: BasicBlock*",
                      "the first block is the entry")],
        "Expr": [prod("Select", "cond: Expr, then: Expr, orelse: Expr",
                      "an `if` value inside an expression, its arms plain values: only the "
                      "arm the condition picks is evaluated")],
        "BasicBlock": [prod("BasicBlock", "label: label, stmts: Stmt*, exit: Exit",
                            "straight-line statements, then the one way out")],
        "Exit": [
            prod("Goto", "target: label"),
            prod("Branch", "cond: Expr, then: label, orelse: label",
                 "to `then` when cond holds, else to `orelse`"),
            prod("Return", "value: Expr?"),
        ],
    },
)
