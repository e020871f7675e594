"""Hand-built Lsrc trees for the dump tests: one small example per production, and a program
that uses every production at least once."""

from __future__ import annotations

from nano_vx.languages.lsrc import CONTRACTS, Lsrc

L = Lsrc.nodes


def mem(name="NPU_HBM"):
    return L["MemRef"](name)


def topo(name="NPU", index=None, end=None):
    return L["TopoRef"](name, index, end)


def var(name):
    return L["Var"](name)


def i(value):
    return L["Int"](value)


def f32():
    return L["Scalar"]("f32")


def block(*stmts, value=None):
    return L["Block"](stmts, value)


def tensor_type(place=None):
    return L["TensorType"](f32(), (L["DimInt"](4), L["DimName"]("N")), place)


# One example per production, built from the leaves up.
EXAMPLES = {
    "Int": lambda: i(42),
    "Float": lambda: L["Float"](0.1),
    "Bool": lambda: L["Bool"](True),
    "Str": lambda: L["Str"]('say "hi"\n'),
    "Suffixed": lambda: L["Suffixed"](i(300), "u32"),
    "Var": lambda: var("x"),
    "Binary": lambda: L["Binary"]("*", L["Binary"]("+", var("a"), i(1)), var("b")),
    "Unary": lambda: L["Unary"]("-", var("x")),
    "Cast": lambda: L["Cast"](var("x"), f32()),
    "Borrow": lambda: L["Borrow"](L["Index"](var("t"), i(0)), True),
    "Deref": lambda: L["Deref"](L["Deref"](var("p"))),
    "Call": lambda: L["Call"](var("stage"), (L["DimArg"](L["DimInt"](4)),), (var("x"), i(1))),
    "MethodCall": lambda: L["MethodCall"](var("x"), "to_device", ()),
    "Index": lambda: L["Index"](L["Index"](var("t"), i(0)), var("j")),
    "FieldGet": lambda: L["FieldGet"](var("p"), "data"),
    "TensorNew": lambda: L["TensorNew"](tensor_type(mem("GPU_HBM")), "fill", (L["Float"](1.0),)),
    "TensorCall": lambda: L["TensorCall"](f32(), (), False, None, (
        L["ArrayLit"]((L["ArrayLit"]((L["Float"](1.0), var("x"))),)),)),
    "ArrayLit": lambda: L["ArrayLit"]((i(1), var("x"), i(3))),
    "VecLit": lambda: L["VecLit"](EXAMPLES["VectorType"](), (L["Float"](1.0), var("x"))),
    "Splat": lambda: L["Splat"](var("x"), EXAMPLES["VectorType"]()),
    "Tuple": lambda: L["Tuple"]((i(1), L["Tuple"]((var("x"), L["Bool"](True))))),
    "TupleGet": lambda: L["TupleGet"](L["TupleGet"](var("t"), 1), 0),
    "StructLit": lambda: L["StructLit"]("Pair", (L["TypeArg"](f32()),),
                                        (EXAMPLES["FieldInit"](), L["FieldInit"]("b", i(2)))),
    "FieldInit": lambda: L["FieldInit"]("a", L["Float"](1.5)),
    "EnumValue": lambda: L["EnumValue"]("Shape", "Dot"),
    "PathCall": lambda: L["PathCall"]("Pair", (L["TypeArg"](f32()),), "with",
                                      (L["DimArg"](L["DimInt"](4)),), (L["Float"](2.0), var("h"))),
    "MatchValue": lambda: L["MatchValue"](var("s"), (
        EXAMPLES["Case"](),
        L["Case"](EXAMPLES["POr"](), block(value=i(2))),
        L["Case"](EXAMPLES["PWild"](), block(L["Return"](None))))),
    "Case": lambda: L["Case"](EXAMPLES["PVariant"](), block(value=var("w"))),
    "PWild": lambda: L["PWild"](),
    "PLit": lambda: L["PLit"](L["Unary"]("-", i(1))),
    "PBind": lambda: L["PBind"]("w"),
    "PVariant": lambda: L["PVariant"]("Shape", "Rect", (EXAMPLES["PBind"](), EXAMPLES["PWild"]())),
    "POr": lambda: L["POr"]((EXAMPLES["PLit"](), L["PLit"](L["Bool"](True)))),
    "LetTuple": lambda: L["LetTuple"](("a", "b"), var("t")),
    "Transfer": lambda: L["Transfer"](var("x"), mem()),
    "Spawn": lambda: L["Spawn"](topo(index=i(0)), block(value=var("x"))),
    "Comptime": lambda: L["Comptime"](block(value=i(1))),
    "Unsafe": lambda: L["Unsafe"](block(value=L["Deref"](var("p")))),
    "AsPtr": lambda: L["AsPtr"](var("t"), True),
    "Closure": lambda: L["Closure"]((L["Param"]("a", None),), block(value=var("a"))),
    "Grad": lambda: L["Grad"]("loss", var("w")),
    "Vjp": lambda: L["Vjp"]("f", var("x"), var("dy")),
    "Jvp": lambda: L["Jvp"]("f", var("x"), var("dx")),
    "ReachableQ": lambda: L["ReachableQ"](topo("CPU"), topo("NPU", i(0))),
    "SomeTopo": lambda: L["SomeTopo"](topo("GPU")),
    "NoneTopo": lambda: L["NoneTopo"](),
    "IfExpr": lambda: L["IfExpr"](var("c"), False, block(value=i(1)), block(
        value=L["IfExpr"](var("d"), True, block(value=i(2)), block(L["Return"](None))))),
    "Match": lambda: L["Match"](
        L["MethodCall"](var("x"), "try_pin", (topo("GPU"),)),
        (EXAMPLES["Arm"](), L["Arm"]("Saturated", L["Param"]("v", None), block()))),
    "Arm": lambda: L["Arm"]("Available", L["Param"]("p", None),
                            block(L["ExprStmt"](L["Call"](var("print"), (), (i(1),))))),
    "TypeArg": lambda: L["TypeArg"](f32()),
    "DimArg": lambda: L["DimArg"](L["DimInt"](8)),
    "TopoArg": lambda: L["TopoArg"](topo("NPU", i(1))),
    "FloatArg": lambda: L["FloatArg"](-2.5),
    "BoolArg": lambda: L["BoolArg"](True),
    "MemRef": lambda: mem("GPU_HBM"),
    "TopoRef": lambda: topo("NPU", i(0), i(4)),
    "Scalar": lambda: f32(),
    "DimAny": lambda: L["DimAny"](),
    "AppliedType": lambda: L["AppliedType"]("Pair", (L["TypeArg"](f32()),
                                                     L["DimArg"](L["DimInt"](4)))),
    "Import": lambda: L["Import"](("std", "math")),
    "Impl": lambda: L["Impl"]((L["TypeParam"]("T", False),),
                              L["AppliedType"]("Pair", (L["TypeArg"](L["NamedType"]("T")),)),
                              (L["Fn"]("first", (), (L["Param"]("p", L["NamedType"]("Self")),),
                                       None, L["NamedType"]("T"), (),
                                       block(value=L["FieldGet"](var("p"), "a"))),)),
    "FnSig": lambda: L["FnSig"]("area", (), (L["Param"]("s", L["NamedType"]("Self")),), f32()),
    "Trait": lambda: L["Trait"]("Shape", (
        EXAMPLES["FnSig"](),
        L["Fn"]("twice", (), (L["Param"]("s", L["NamedType"]("Self")),), None, f32(), (),
                block(value=L["Float"](2.0))))),
    "ImplFor": lambda: L["ImplFor"]("Shape", (L["TypeParam"]("T", False),),
                                    L["AppliedType"]("Pair", (L["TypeArg"](L["NamedType"]("T")),)),
                                    (L["Fn"]("area", (), (L["Param"]("s", L["NamedType"]("Self")),),
                                             None, f32(), (), block(value=L["Float"](1.0))),)),
    "EnumDecl": lambda: L["EnumDecl"]("Shape", (L["Variant"]("Dot", ()), EXAMPLES["Variant"]())),
    "Variant": lambda: L["Variant"]("Rect", (f32(), f32())),
    "TupleType": lambda: L["TupleType"]((f32(), L["TupleType"]((L["Scalar"]("i32"), f32())))),
    "VectorType": lambda: L["VectorType"](L["DimInt"](2), f32()),
    "TensorType": lambda: tensor_type(mem("GPU_HBM")),
    "PinnedType": lambda: L["PinnedType"](f32(), topo("GPU")),
    "VerifiedType": lambda: L["VerifiedType"](f32()),
    "HardwareStateType": lambda: L["HardwareStateType"](f32(), topo("NPU", i(1))),
    "RefType": lambda: L["RefType"](f32(), mem()),
    "BorrowType": lambda: L["BorrowType"](L["BorrowType"](tensor_type(), True), False),
    "PtrType": lambda: L["PtrType"](f32(), False, None),
    "NamedType": lambda: L["NamedType"]("T"),
    "DimInt": lambda: L["DimInt"](4),
    "DimName": lambda: L["DimName"]("N"),
    "DimBinary": lambda: L["DimBinary"]("*", L["DimName"]("N"), L["DimInt"](2)),
    "Let": lambda: L["Let"]("x", True, f32(), L["Float"](2.5)),
    "Declare": lambda: L["Declare"]("later", True, f32()),
    "Assign": lambda: L["Assign"](L["Index"](var("t"), i(0)), "+=", i(1)),
    "For": lambda: L["For"]("k", i(0), var("n"), block(L["ExprStmt"](var("k")))),
    "While": lambda: L["While"](L["Binary"]("<", var("k"), i(3)), block(L["Break"]())),
    "Loop": lambda: L["Loop"](block(L["Break"]())),
    "If": lambda: L["If"](
        L["Bool"](False), False, block(L["Return"](None)),
        block(L["If"](var("c"), True, block(L["Continue"]()), block(L["Break"]()))),
    ),
    "Return": lambda: L["Return"](var("x")),
    "Break": lambda: L["Break"](),
    "Continue": lambda: L["Continue"](),
    "Assert": lambda: L["Assert"](L["Binary"]("==", var("x"), i(1)), "x is one"),
    "Requires": lambda: L["Requires"](L["Binary"](">", var("n"), i(0))),
    "Ensures": lambda: L["Ensures"](L["Binary"](">=", L["ReturnValue"](), i(0))),
    "Invariant": lambda: L["Invariant"](L["Binary"]("<=", var("k"), var("n"))),
    "ReturnValue": lambda: L["ReturnValue"](),
    "ComptimeStmt": lambda: L["ComptimeStmt"](block(L["ExprStmt"](var("x")))),
    "UnsafeFn": lambda: L["UnsafeFn"](),
    "BlockStmt": lambda: L["BlockStmt"](block(L["Let"]("x", False, None, i(2)))),
    "UnrollAcross": lambda: L["UnrollAcross"](
        topo("NPU", i(0), i(4)), "i",
        block(L["ExprStmt"](L["Call"](var("print"), (), (var("i"),)))),
    ),
    "ExprStmt": lambda: L["ExprStmt"](L["Call"](var("print"), (), (L["Str"]("hi"),))),
    "ItemStmt": lambda: L["ItemStmt"](L["ConstItem"]("N", L["Scalar"]("i32"), i(4))),
    "Block": lambda: block(L["Let"]("y", False, None, i(1)), value=var("y")),
    "Program": lambda: L["Program"]((EXAMPLES["ConstItem"](),)),
    "Fn": lambda: L["Fn"](
        "stage", (L["TypeParam"]("D", True), L["ConstParam"]("N", L["Scalar"]("i32"))),
        (L["Param"]("x", tensor_type()),), topo("D"), f32(),
        (L["ReachableBound"]("CPU", "D"),), block(L["Return"](var("x"))),
    ),
    "MemoryDecl": lambda: L["MemoryDecl"]("HBM", (
        L["DeclField"]("capacity", L["Quantity"]("40", "GiB")),
        L["DeclField"]("within", mem("X")),
        L["DeclField"]("overcommit", None),
    )),
    "TopologyDecl": lambda: L["TopologyDecl"]("D", (
        L["DeclField"]("memory", mem("HBM")),
        L["TransferEdge"](mem("A"), mem("B"), L["Quantity"]("20", None), ()),
        L["TransferEdge"](mem("B"), mem("A"), None, ("sync",)),
    )),
    "ConstItem": lambda: L["ConstItem"]("N", L["Scalar"]("i32"), i(4)),
    "StructDecl": lambda: L["StructDecl"]("Pair", (L["Param"]("a", L["NamedType"]("T")), L["Param"]("b", L["Scalar"]("i32"))), (L["TypeParam"]("T", False),)),
    "TypeParam": lambda: L["TypeParam"]("T", False),
    "ConstParam": lambda: L["ConstParam"]("N", L["Scalar"]("i32")),
    "Param": lambda: L["Param"]("x", f32()),
    "ReachableBound": lambda: L["ReachableBound"]("A", "B"),
    "DeclField": lambda: L["DeclField"]("scope", L["Word"]("device")),
    "TransferEdge": lambda: L["TransferEdge"](mem("A"), mem("B"), L["Quantity"]("31.5", "GB/s"),
                                              ("relaxed", "copy_engine")),
    "Quantity": lambda: L["Quantity"]("228", "KiB"),
    "Word": lambda: L["Word"]("cached"),
    "DeclList": lambda: L["DeclList"]((mem("A"), L["Word"]("f32"))),
}


def _bin(op, a, b):
    return L["Binary"](op, a, b)


# (tree, its text): parentheses exactly where precedence needs them.
PRECEDENCE = [
    (_bin("-", var("a"), _bin("-", var("b"), var("c"))), "a - (b - c)"),
    (_bin("-", _bin("-", var("a"), var("b")), var("c")), "a - b - c"),
    (_bin("*", _bin("+", var("a"), var("b")), var("c")), "(a + b) * c"),
    (_bin("+", var("a"), _bin("*", var("b"), var("c"))), "a + b * c"),
    (_bin("||", _bin("&&", var("a"), var("b")), var("c")), "a && b || c"),
    (_bin("&&", _bin("||", var("a"), var("b")), var("c")), "(a || b) && c"),
    (L["Unary"]("-", L["Unary"]("-", var("x"))), "-(-x)"),
    (L["Unary"]("-", L["Int"](-1)), "-(const -1)"),
    (L["MethodCall"](L["Int"](-1), "abs", ()), "(const -1).abs()"),
    (L["Cast"](_bin("+", var("a"), i(1)), L["Scalar"]("f32")), "(a + 1) as f32"),
    (L["Cast"](L["Unary"]("-", var("a")), L["Scalar"]("f32")), "-a as f32"),
    (L["Unary"]("!", L["Cast"](var("a"), L["Scalar"]("bool"))), "!(a as bool)"),
    (L["Borrow"](L["Borrow"](var("x"), False), False), "&(&x)"),
    (L["Borrow"](L["Index"](var("t"), i(0)), True), "&mut t[0]"),
    (L["Index"](L["Deref"](var("p")), i(0)), "(*p)[0]"),
    (L["Cast"](L["Deref"](var("p")), L["Scalar"]("f32")), "*p as f32"),
    (L["Unary"]("-", L["Deref"](var("p"))), "-(*p)"),
    (_bin("&", var("a"), L["Borrow"](var("b"), False)), "a & &b"),
    (_bin("*", var("a"), L["Deref"](var("p"))), "a * *p"),
    (L["FieldGet"](L["Index"](_bin("+", var("a"), var("b")), i(0)), "f"), "(a + b)[0].f"),
    (L["Call"](L["Closure"]((), block(value=i(1))), (), ()), "(|| {\n    1\n})()"),
    (_bin("+", L["Comptime"](block(value=i(1))), i(2)), "(comptime {\n    1\n}) + 2"),
    (L["Index"](var("t"), _bin("+", var("i"), i(1))), "t[i + 1]"),
    (_bin("+", i(1), L["IfExpr"](var("c"), False, block(value=i(2)), block(value=i(3)))),
     "1 + (if c {\n    2\n} else {\n    3\n})"),
    (L["DimBinary"]("*", L["DimBinary"]("+", L["DimName"]("N"), L["DimInt"](1)),
                    L["DimInt"](2)), "(N + 1) * 2"),
]


def example(prod: str):
    return EXAMPLES[prod]()


def program():
    """A program that holds every Lsrc production."""
    items = [EXAMPLES[p]() for p in ("Import", "MemoryDecl", "TopologyDecl", "ConstItem",
                                     "StructDecl", "Impl", "Trait", "ImplFor", "EnumDecl")]
    items.append(EXAMPLES["Fn"]())
    # `unsafe fn`: the mark its body starts with is written before `fn`.
    items.append(L["Fn"]("poke", (), (), None, None, (),
                         block(EXAMPLES["UnsafeFn"](), L["ExprStmt"](var("x")))))
    stmts = []
    for prod, (nt, _) in Lsrc.productions.items():
        if prod in CONTRACTS or prod in ("ReturnValue", "UnsafeFn"):
            continue  # written in a header: `checked` below, and `poke` above
        if nt.name == "Stmt":
            stmts.append(EXAMPLES[prod]())
        elif nt.name == "Expr":
            stmts.append(L["ExprStmt"](EXAMPLES[prod]()))
    stmts += [
        L["Let"]("t", False, L["PinnedType"](EXAMPLES["RefType"](), topo("NPU", i(0))),
                 L["Call"](var("f"), (L["TypeArg"](L["HardwareStateType"](
                     L["VerifiedType"](L["NamedType"]("T")), topo("GPU"))),
                     L["DimArg"](EXAMPLES["DimBinary"]()), EXAMPLES["TopoArg"](),
                     EXAMPLES["FloatArg"](), EXAMPLES["BoolArg"]()), ())),
        L["Let"]("r", False, EXAMPLES["BorrowType"](), EXAMPLES["Borrow"]()),
        L["Let"]("q", False, EXAMPLES["PtrType"](), EXAMPLES["AsPtr"]()),
        L["Let"]("u", False, EXAMPLES["TupleType"](), EXAMPLES["Tuple"]()),
        L["Let"]("w", False, EXAMPLES["VectorType"](), L["Splat"](var("x"), None)),
        L["Let"]("p", False, EXAMPLES["AppliedType"](), EXAMPLES["StructLit"]()),
        L["Let"]("d", False, None, L["TensorNew"](
            L["TensorType"](f32(), (EXAMPLES["DimAny"](),), None), "new",
            (L["ArrayLit"]((var("n"),)),))),
        L["ItemStmt"](L["Fn"]("inner", (L["TypeParam"]("T", False),), (), None, None, (),
                              block())),
    ]
    items.append(L["TopologyDecl"]("Dev", (
        L["DeclField"]("visible", EXAMPLES["DeclList"]()), EXAMPLES["DeclField"](),
    )))
    items.append(L["Fn"]("main", (), (), None, None, (), block(*stmts, value=i(0))))
    loop = L["While"](EXAMPLES["While"]().cond, block(EXAMPLES["Invariant"](), L["Break"]()))
    items.append(L["Fn"]("checked", (), (L["Param"]("n", L["Scalar"]("i32")),), None,
                         L["Scalar"]("i32"), (),
                         block(EXAMPLES["Requires"](), EXAMPLES["Ensures"](), loop, value=i(1))))
    return L["Program"](tuple(items))
