"""The rules of the front end's ILs from Lresolved on (before type-scalars types every
scalar) that a dump is checked for; the passes after the dump take them as given.

Names: a function or constant is declared once (hoist-nested-items reported any other).
Scope: each local is used inside the scope of its binding (a `let` before it in its block or
an enclosing one, a parameter of its function or closure (or a generic constant of its
function), a loop's variable in the loop, a `match` arm's binding in the arm), and bound once
in its function. resolve-names made the program so; the scalar inference binds a function's
locals in one flat table, and the back end makes each one SSA value or one cell.

Values: an `if` used as a value has a value in each arm, or leaves it (the parser makes one
only so; explicate-control delivers each arm's value). And from Ltyped on, a tensor
constructor has the arguments it takes (check-tensor-constructors refused any other, and a
dump may resume after it: the scalar inference takes it that it did).
"""

from __future__ import annotations

from ..languages.lsrc import gives_value
from ..nanopass import child_nodes, descendants
from ..scalars.well_formed import second_items
from ..values.constructors import TAKES, values_given

# Nodes whose Param children (NoAliasParam, ConstParam; patterns' PBind) bind in the rest of
# the node.
_BINDERS = frozenset({"Fn", "Closure", "Arm", "Case"})
# Nodes whose bindings end with them.
_SCOPES = _BINDERS | {"Block", "For", "Ensures"}


def ill_formed(program, checked: bool) -> list:
    """(node, what is wrong) for each item declared twice and the first fault of each
    function; `checked`: check-tensor-constructors has run on the tree."""
    problems = second_items(program)
    for item in program.items:
        if item._prod != "Fn":
            continue
        found = _second_binding(item) or _first_unscoped(item, set())
        if found is not None:
            what = f"the variable '{found.name}', which is not bound here" \
                if found._prod == "Local" else \
                f"a second binding of '{_bound(found)}' in one function"
        else:
            found, what = _bad_value(item, checked)
        if found is not None:
            problems.append((found, f"{what} (in '{item.name}')"))
    return problems


def _bad_value(fn, checked: bool) -> tuple:
    """(node, what is wrong) for the first value of the function that is not one."""
    for node in descendants(fn):
        if node._prod == "IfExpr" and not (gives_value(node.then) and
                                           gives_value(node.orelse)):
            return node, "an `if` used as a value with an arm that neither gives one nor " \
                         "leaves"
        if checked and node._prod == "TensorNew" and values_given(node) != TAKES.get(node.ctor):
            return node, f"`::{node.ctor}` with {len(node.args)} arguments"
    return None, None


def _bound(node) -> str:
    return node.var if node._prod == "For" else node.name


def _second_binding(fn):
    """The first binder of a name bound before in the function (names are unique per
    function, and the back end makes each one SSA value or one cell)."""
    seen: set = set()
    for node in descendants(fn):
        if node._prod in ("Let", "LetState", "LetElement", "For", "PBind", "Param",
                          "NoAliasParam"):
            name = _bound(node)
            if name in seen:
                return node
            seen.add(name)
    return None


def _first_unscoped(node, bound: set):
    """The first local under `node` used where no binding of it is in scope (`bound`)."""
    prod = node._prod
    if prod == "Local":
        return None if node.name in bound else node
    if prod in ("Let", "LetState", "LetElement"):
        # A `let_state`'s topology is read where it stands; its `took` and `held` are bound by
        # the `let`s after it.
        found = _first_unscoped(node.value, bound) or \
            (_first_unscoped(node.topo, bound) if prod != "Let" else None)
        bound.add(node.name)
        return found
    if prod in _SCOPES:
        bound = set(bound)
        for c in child_nodes(node) if prod in _BINDERS else ():
            # A ConstParam is a generic constant, until monomorphize; a NoAliasParam, Lcalls'
            # parameter no other argument shares.
            if c._prod in ("Param", "NoAliasParam", "ConstParam"):
                bound.add(c.name)
            elif c._nt == "Pattern":
                bound.update(n.name for n in descendants(c) if n._prod == "PBind")
        if prod == "Ensures":
            bound.add("return")  # the function's result, as resolve-names names it
    for child in child_nodes(node):
        if prod == "For" and child is node.body:
            bound.add(node.var)
        found = _first_unscoped(child, bound)
        if found is not None:
            return found
    return None
