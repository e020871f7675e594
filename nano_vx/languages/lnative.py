"""Lnative: removes struct and enum declarations and what native code does not lower; an
aggregate's literal stays only as what `print` prints."""

from __future__ import annotations

from .lnocontracts import Lnocontracts

# check-native-subset refused every function holding one of these: a hardware state
# lower-pins did not write out, a topology or memory-space value tag-places did not,
# differentiation, a field read, `match` on a value. scalarize-aggregates replaced every struct, tuple and enum
# value by its scalars, and rebuilt a literal of them only for `print`, which the gate lets
# through there alone: so the declarations make no code, and go. Raw pointers and `unsafe`
# stay, for erase-raw-pointers; vectors stay, one value each (an LLVM vector).
Lnative = Lnocontracts.extend(
    "Lnative",
    "Lnocontracts within what native code lowers: no struct or enum declarations, no "
    "aggregate but a literal of scalars, vectors and tensors printed, no `match`, topology or "
    "memory-space values or differentiation",
    remove={
        "Expr": ["Match", "FieldGet", "MatchValue", "TupleGet", "SomeTopo", "NoneTopo", "Grad",
                 "Vjp", "Jvp", "Mem", "Topo", "StatePart", "StateRead"],
        "Stmt": ["LetState", "LetElement"],
        "Arm": ["Arm"],
        "Case": ["Case"],
        "Pattern": ["PWild", "PLit", "PBind", "PVariant", "POr"],
        "Variant": ["Variant"],
        "Type": ["HardwareStateType"],
        "Item": ["StructDecl", "EnumDecl"],
    },
)
