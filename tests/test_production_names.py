"""Every production name that code compares with a node's `_prod` names a real production.

The framework's handler tables refuse a misspelt production when their module loads. Code that
asks `node._prod == "Cal"` instead would just be false for ever, so this test reads every module
of the package, finds each comparison of a `_prod` (directly, or through a local variable that
was given one) with string constants, and checks every constant against the productions of all
ILs of both lanes.
"""

import ast
import importlib
import pkgutil
from pathlib import Path

import nano_vx
import nano_vx.languages
from nano_vx.nanopass.language import Language

PACKAGE = Path(nano_vx.__file__).parent


def _all_productions() -> set[str]:
    names: set[str] = set()
    for info in pkgutil.iter_modules(nano_vx.languages.__path__, "nano_vx.languages."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, Language):
                names.update(value.productions)
    return names


def _strings(node: ast.expr) -> list[ast.Constant]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [c for e in node.elts for c in _strings(e)]
    return []


def _is_prod(node: ast.expr, kinds: set[str]) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "_prod") or (
        isinstance(node, ast.Name) and node.id in kinds)


FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _own_nodes(scope: ast.AST):
    """The nodes of a scope, without those of the functions defined in it."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, FUNCTIONS):
            todo.extend(ast.iter_child_nodes(node))


def _prod_locals(scope: ast.AST) -> set[str]:
    """Names a scope binds to a `_prod`, alone or in a tuple assignment."""
    kinds: set[str] = set()
    for node in _own_nodes(scope):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            pairs = (zip(target.elts, node.value.elts)
                     if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                     else [(target, node.value)])
            kinds.update(t.id for t, v in pairs
                         if isinstance(t, ast.Name) and _is_prod(v, set()))
    return kinds


def compared_names(scope: ast.AST, outer: frozenset[str] = frozenset()) -> list[ast.Constant]:
    """The string constants compared with a `_prod` in a scope and the functions inside it.

    A nested function sees the names its enclosing functions bound to a `_prod`."""
    kinds = outer | _prod_locals(scope)
    found: list[ast.Constant] = []
    for node in _own_nodes(scope):
        if isinstance(node, FUNCTIONS):
            found += compared_names(node, kinds)
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_is_prod(o, kinds) for o in operands):
                found += [c for o in operands for c in _strings(o)]
    return sorted(found, key=lambda c: (c.lineno, c.col_offset))


def test_the_scan_finds_comparisons_direct_and_through_a_local():
    tree = ast.parse(
        "def f(e):\n"
        "    if e._prod == 'Let': pass\n"
        "    kind, b = e._prod, 1\n"
        "    if kind in ('Call', 'Cal'): pass\n"
        "    if b == 'NotAProduction': pass\n"
        "def g(e):\n"
        "    kind = e[0]\n"
        "    if kind == 'arg': pass\n")
    assert [c.value for c in compared_names(tree)] == ["Let", "Call", "Cal"]


def test_every_compared_production_name_exists():
    productions = _all_productions()
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        wrong += [f"{path.relative_to(PACKAGE)}:{c.lineno}: {c.value!r}"
                  for c in compared_names(tree) if c.value not in productions]
    assert not wrong, "no IL has these productions:\n" + "\n".join(wrong)
