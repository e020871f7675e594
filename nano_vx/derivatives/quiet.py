"""A derivative prints nothing: what the generated functions call is made silent.

`f$jvp` and `f$vjp` leave out f's own `print`s, but they also call functions of the program
for their values (the forward sweep runs `g(x)`, a tangent function calls `h` beside
`h$jvp`); a `print` in one of those would show once, twice or not at all depending on the
mode. So each such call of a function that prints, itself or through what it calls, goes to
`g$quiet` instead: g with its `print`s left out and its own calls made silent the same way.
The reference interpreter's rule agrees: it evaluates f with its output going nowhere.
"""

from __future__ import annotations

from ..nanopass import descendants, rebuild
from .code import generated_name, is_print


class Silencer:
    """The silent copies one program's generated functions need, each made once."""

    def __init__(self, program):
        self.fns = {i.name: i for i in program.items if i._prod == "Fn"}
        self.printing = _printing(self.fns)
        self.copies: dict[str, object] = {}  # an original's name -> its `$quiet` copy

    def calls_in(self, fn):
        """`fn` with each call of a function that prints going to its `$quiet` copy."""
        return rebuild(fn, self._redirect)

    def copy_of(self, name: str) -> list:
        """The `$quiet` copy of the function `name` made for the calls, if any."""
        copy = self.copies.get(name)
        return [copy] if copy is not None else []

    def _redirect(self, node):
        if node._prod != "Call" or node.callee._prod != "Global" or \
                node.callee.name not in self.printing:
            return None
        callee = node.callee.name
        quiet = generated_name(callee, "quiet")
        if callee not in self.copies and quiet not in self.fns:  # not made by the other pass
            self.copies[callee] = None  # a recursive function's copy calls itself
            self.copies[callee] = self._quiet(self.fns[callee], quiet)
        args = tuple(rebuild(a, self._redirect) for a in node.args)
        return node.replace(callee=node.callee.replace(name=quiet), args=args)

    def _quiet(self, fn, name: str):
        """A copy of `fn` named `name`, without its `print`s, its calls made silent."""
        def drop(node):
            if node._prod != "Block":
                return self._redirect(node)
            stmts = tuple(rebuild(s, drop) for s in node.stmts if not is_print(s))
            value = rebuild(node.value, drop) if node.value is not None else None
            return node.replace(stmts=stmts, value=value)
        return rebuild(fn, drop).replace(name=name)


def _printing(fns: dict) -> set[str]:
    """The functions that print, themselves or through the functions they call."""
    printing = {name for name, fn in fns.items() if any(is_print(n) for n in descendants(fn))}
    calls = {name: {n.callee.name for n in descendants(fn)
                    if n._prod == "Call" and n.callee._prod == "Global"} & fns.keys()
             for name, fn in fns.items()}
    grew = True
    while grew:
        more = {name for name, called in calls.items() if called & printing} - printing
        printing |= more
        grew = bool(more)
    return printing
