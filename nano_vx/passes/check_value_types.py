"""check-value-types: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsrc import DESCRIPTIONS
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis
from ..placement.type_checking import (Checking, cast_help, each_item, enter, quoted, refuse,
                                       type_of)
from ..placement.typer import fits, kind, known, literal, show, value_type
from ..placement.types import VOID


@dataclass
class State(Checking):
    # Per enclosing fn or `spawn on` block (who, fn's name, result); None: a closure.
    results: list = field(default_factory=list)


check_value_types = Analysis("check-value-types", Lrouted, """
Refuse a value of another type than its variable or its function's result (E3001, E3002, E3009).

The value of a `let` (or of a `const`, or assigned with `=`) has the variable's type (E3001);
`return v;` and a body's last expression have the function's result type, `return;` and a
function without a result give none (E3002). A string is no number nor bool: only a
variable bound to it without a written type holds it. The program starts with `main()`, whose
result becomes the process's exit status: it takes no parameters, and has no result or an
integer (E3009). An unsuffixed literal, and a variable
bound to one, take the type they meet; a value whose type is not known here (a closure's
result, too) is not judged. A closure's parameter of no written type that every call gives
a value of one scalar type has that type here (placement/scopes.py), as if written.
""", state=State, skip=DESCRIPTIONS, requires=("model",))


@check_value_types.on("Program")
def _program(run, node):
    each_item(run, node, constant=_constant)


def _constant(run, item) -> None:
    found = type_of(run, item.value)
    if not fits(found, item.type):
        refuse(run, "E3001", item.value.span,
               f"constant '{item.name}' is declared {show(item.type)}, but its value is "
               f"{show(found)}", name=item.name, expected=show(item.type), found=show(found))


@check_value_types.on("Fn")
def _fn(run, node):
    st = run.state
    enter(run, node)
    result = st.typer.functions[node.name].ret
    if node.name == "main":
        _entry(run, node, result)
    st.results.append((f"'{node.name}'", node.name, result))
    run.descend(node)
    if node.body.value is not None:
        _returned(run, node.body.value, "its body ends in")
    st.results.pop()


def _entry(run, main, result) -> None:
    """The program starts with `main()`, and its result is the process's exit status."""
    if main.params:
        n = len(main.params)
        refuse(run, "E3009", main.params[0].span,
               f"'main' takes {n} parameter{'s' * (n != 1)}, but the program starts by "
               f"calling it with none", help=["declare it `fn main()`"], parameters=n)
    if result == VOID or result._prod == "Scalar" and kind(result) == "int":
        return
    refuse(run, "E3009", main.ret.span,
           f"'main' returns {show(result)}, but its result is the program's exit status, "
           f"an integer", help=["return an integer (`-> i32`), or print the value and "
                                "return nothing"], found=show(result))


@check_value_types.on("Closure")
def _closure(run, node):
    st = run.state
    st.results.append(None)  # a closure's result is its body's: nothing to hold it to
    run.descend(node)
    st.results.pop()


@check_value_types.on("Spawn")
def _spawn(run, node):
    st = run.state
    # A `return` in the block ends the block: it gives the block's value, not the function's.
    value = st.typer.block_value(node.body, st.machine.holds(node.topo.name))
    st.results.append(("the `spawn on` block", st.function, value))
    st.where.inside(run, node, st.machine)
    st.results.pop()


@check_value_types.on("Let")
def _let(run, node):
    run.descend(node)
    found = type_of(run, node.value)
    if found != VOID and not fits(found, node.type):  # a call of nothing: check-calls says
        name = node.name.partition("#")[0]
        refuse(run, "E3001", node.value.span,
               f"'{name}' is declared {show(node.type)}, but its value is {show(found)}",
               help=cast_help(found, node.type), name=name, expected=show(node.type),
               found=show(found))


@check_value_types.on("Assign")
def _assign(run, node):
    run.descend(node)
    if node.op != "=":
        return  # an operator's operands: check-operand-types judges them
    target, found = type_of(run, node.target), type_of(run, node.value)
    if node.target._prod == "Index" and not literal(target) and \
            value_type(target)._prod == "TensorType":
        # A row is read (printed, indexed) but not written whole: its elements are.
        written_as = quoted(node.target)
        refuse(run, "E3001", node.target.span,
               f"`{written_as}` is a row of a tensor, {show(target)}: a row is not assigned "
               f"whole",
               help=[f"assign its elements: `{written_as}[j] = {quoted(node.value)}[j]`"],
               target=written_as, expected=show(target), found=show(found))
        return
    if fits(found, target) or fits(found, value_type(target)):
        return
    written_as = quoted(node.target)
    refuse(run, "E3001", node.value.span,
           f"`{written_as}` is {show(target)}, but the value assigned to it is {show(found)}",
           help=cast_help(found, target), target=written_as, expected=show(target),
           found=show(found))


@check_value_types.on("Return")
def _return(run, node):
    run.descend(node)
    results = run.state.results
    if not results or results[-1] is None:
        return
    who, name, result = results[-1]
    if node.value is not None:
        _returned(run, node.value, "this `return` gives")
    elif result != VOID:
        refuse(run, "E3002", node.span,
               f"{who} returns {show(result)}, but this `return;` gives no value",
               help=[f"return a value of type {show(result)}: `return v;`"],
               function=name, expected=show(result), found="void")


def _returned(run, value, gives: str) -> None:
    """Judge a value the function returns (a `return`'s, or its body's last expression)."""
    who, name, result = run.state.results[-1]
    found = type_of(run, value)
    if result == VOID:
        if value_type(found) == VOID or not known(found):  # `spawn on(..) { .. }` of nothing
            return
        refuse(run, "E3002", value.span,
               f"{who} has no result type, but {gives} a value of type {show(found)}",
               help=[f"declare the result, `-> {show(found)}`, or drop the value"
                     if who == f"'{name}'" else
                     "end the block with its value (a block of no value gives none), or drop "
                     "the value"],
               function=name, expected="void", found=show(found))
    elif not fits(found, result):
        refuse(run, "E3002", value.span,
               f"{who} returns {show(result)}, but {gives} {show(found)}",
               help=cast_help(found, result), function=name, expected=show(result),
               found=show(found))
