"""The interpreter runs functions made of basic blocks (Lblocks): jumps, branches, returns,
one scope for all blocks whatever order they are listed in."""

import io

import pytest

from nano_vx.languages.lblocks import Lblocks as L
from nano_vx.oracle import run_program
from nano_vx.values.stops import RuntimeStop


def i32(v):
    return L["Int"](v, "i32")


def local(name):
    return L["Local"](name)


def binary(op, left, right, type_="i32"):
    return L["Binary"](op, type_, left, right)


def let(name, value, type_="i32"):
    return L["Let"](name, True, L["Scalar"](type_), value)


def show(expr):
    return L["ExprStmt"](L["Call"](L["Global"]("print"), [expr]))


def fn(name, blocks, ret="void", params=()):
    return L["Fn"](name, [L["Param"](p, L["Scalar"](t)) for p, t in params], None,
                   L["Scalar"](ret), [], blocks)


def bb(label, stmts, exit_):
    return L["BasicBlock"](label, stmts, exit_)


def run(*fns):
    out = io.StringIO()
    result = run_program(L["Program"](list(fns)), out=out)
    return out.getvalue(), result


def sum_loop(order=None):
    """s = 0; i = 0; while i < 5 { s += i * i; i += 1 }; print(s); return s."""
    blocks = [
        bb("bb0", [let("s", i32(0)), let("i", i32(0))], L["Goto"]("bb1")),
        bb("bb1", [], L["Branch"](binary("<", local("i"), i32(5)), "bb2", "bb3")),
        bb("bb2", [L["Assign"](local("s"), "+=", binary("*", local("i"), local("i"))),
                   L["Assign"](local("i"), "+=", i32(1))], L["Goto"]("bb1")),
        bb("bb3", [show(local("s"))], L["Return"](local("s"))),
    ]
    if order is not None:
        blocks = [blocks[k] for k in order]
    return fn("main", blocks, "i32")


def test_a_loop_of_goto_branch_and_return():
    assert run(sum_loop()) == ("30\n", 30)


def test_blocks_listed_before_the_block_that_declares_what_they_read():
    # The entry comes first; the exit block, which reads s, is listed before the entry's
    # successor and the body: the scope must not depend on the listing order.
    assert run(sum_loop([0, 3, 2, 1])) == ("30\n", 30)


def test_a_call_between_block_functions_with_a_return_value():
    square = fn("square", [bb("bb0", [], L["Return"](binary("*", local("x"), local("x"))))],
                "i32", params=[("x", "i32")])
    main = fn("main", [
        bb("bb0", [let("y", L["Call"](L["Global"]("square"), [i32(9)]))],
           L["Branch"](binary(">", local("y"), i32(80)), "bb1", "bb2")),
        bb("bb1", [show(L["Str"]("big"))], L["Return"](None)),
        bb("bb2", [show(L["Str"]("small"))], L["Return"](None)),
    ])
    assert run(square, main) == ("big\n", 0)


def test_a_void_function_returns_nothing_and_main_gives_0():
    main = fn("main", [bb("bb0", [show(i32(1))], L["Return"](None))])
    assert run(main) == ("1\n", 0)


def test_a_typed_result_converts_the_returned_literal():
    main = fn("main", [bb("bb0", [], L["Return"](L["Int"](300, "u8")))], "u8")
    assert run(main) == ("", 44)


def test_an_assert_in_a_block_stops():
    main = fn("main", [bb("bb0", [L["Assert"](L["Bool"](False), "never")], L["Return"](None))])
    with pytest.raises(RuntimeStop) as info:
        run(main)
    assert (info.value.code, info.value.message) == ("E9002", "assertion failed: never")


def test_a_jump_to_no_block_is_refused():
    main = fn("main", [bb("bb0", [], L["Goto"]("bb7"))])
    with pytest.raises(RuntimeStop) as info:
        run(main)
    assert (info.value.code, info.value.message) == (
        "E9006", "a jump to 'bb7', which is no block of the function")


def test_an_unreachable_block_is_never_compiled():
    main = fn("main", [bb("bb0", [], L["Return"](i32(1))),
                       bb("bb1", [show(local("undefined"))], L["Goto"]("bb9"))], "i32")
    assert run(main) == ("", 1)
