"""Lnative: removes struct and enum declarations and what native code does not lower; an
aggregate's literal stays only as what `print` prints."""

from __future__ import annotations

from .lnocontracts import Lnocontracts

# check-native-subset refused every function holding one of these: the run-time machine
# state (`try_pin`, `match` on it, topology and memory-space values), differentiation, a
# field read, `match` on a value, raw pointers and `unsafe`. scalarize-aggregates replaced every struct, tuple and enum
# value by its scalars, and rebuilt a literal of them only for `print`, which the gate lets
# through there alone: so the declarations make no code, and go.
Lnative = Lnocontracts.extend(
    "Lnative",
    "Lnocontracts within what native code lowers: no struct or enum declarations, no "
    "aggregate but a literal of scalars and tensors printed, no `match`, topology or "
    "memory-space values, differentiation, raw pointers or `unsafe`",
    remove={
        "Expr": ["Match", "FieldGet", "MatchValue", "TupleGet", "SomeTopo", "NoneTopo", "Grad",
                 "Vjp", "Jvp", "Mem", "Topo", "Unsafe", "AsPtr"],
        "Stmt": ["UnsafeFn"],
        "Arm": ["Arm"],
        "Case": ["Case"],
        "Pattern": ["PWild", "PLit", "PBind", "PVariant", "POr"],
        "Variant": ["Variant"],
        "Type": ["HardwareStateType", "PtrType"],
        "Item": ["StructDecl", "EnumDecl"],
    },
)
