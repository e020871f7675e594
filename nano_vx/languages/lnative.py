"""Lnative: removes struct and enum declarations and what native code does not lower."""

from __future__ import annotations

from .lnocontracts import Lnocontracts

# check-native-subset refused every function holding one of these: the run-time machine
# state (`try_pin`, `match` on it, topology and memory-space values), differentiation, struct
# and enum values, tuples, `match` on a value. The declarations make no code, and with no
# function left to hold their values they go too.
Lnative = Lnocontracts.extend(
    "Lnative",
    "Lnocontracts within what native code lowers: no struct or enum declarations or values, "
    "tuples, `match`, topology or memory-space values, differentiation",
    remove={
        "Expr": ["Match", "FieldGet", "MatchValue", "EnumValue", "StructLit", "Tuple",
                 "TupleGet", "SomeTopo", "NoneTopo", "Grad", "Vjp", "Jvp", "Mem", "Topo"],
        "Arm": ["Arm"],
        "Case": ["Case"],
        "Pattern": ["PWild", "PLit", "PBind", "PVariant", "POr"],
        "Variant": ["Variant"],
        "FieldInit": ["FieldInit"],
        "Type": ["HardwareStateType"],
        "Item": ["StructDecl", "EnumDecl"],
    },
)
