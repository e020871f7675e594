"""What the type checks share: the typer they ask, the walk over a program's constants and
functions with each function's locals bound, and how they report.

Each check (check-operand-types, check-casts, check-conditions, check-value-types) judges one
kind of place; they type a program alike. As in Rust, an unsuffixed literal takes the type
of the value beside it, and so does a variable bound to one without a written type. A string
is text (TEXT), which only `print` and an `assert`'s message take, and a variable bound to
one. A value whose type is not known here (a closure's result, a generic the instance could
not make concrete, a mix already refused) is not judged; instances are judged with their
parameters made concrete, and the branch an `if comptime` did not take is gone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..dump.text import to_text
from ..languages.linstances import generic_of
from ..languages.lunrolled import OncePerPlace
from .scopes import Scope, Where, constant_scope, scopes_of
from .typer import TYPE_RULES, RememberingTyper, kind, literal, placed_scalar, show
from .types import HOST, TEXT, Machine


class CheckingTyper(RememberingTyper):
    """The placement typer as the checks ask it: a string is text. The placement passes
    leave a string's type unknown, so that no variable of theirs is made to hold it."""

    rules = TYPE_RULES.extend("the type checks' rules", ())


@CheckingTyper.rules.on("Str")
def _text(typer, e, here):
    return TEXT


# Values that are no scalar whatever their type, by production, as a message calls each: a
# tensor's element or fill value refused for the production alone, its type not asked.
NOT_SCALARS = {"Str": "str", "Tuple": "a tuple", "StructLit": "a struct", "Closure": "a closure",
               "ArrayLit": "a list", "TensorLit": "a tensor"}


@dataclass
class Checking:
    """The state of a type check: the function being walked, its locals, where its code
    runs, and what it has reported."""

    machine: Machine | None = None
    scopes: dict[str, Scope] = field(default_factory=dict)  # every function's locals
    typer: CheckingTyper | None = None  # the current function's (or constant's)
    where: Where | None = None  # where the code being walked runs
    function: str | None = None  # the function being walked, an instance's name with its `$`
    said: OncePerPlace = field(default_factory=OncePerPlace)  # by (span, message)


# The four checks run one after another on one program and bind its locals alike, so the
# locals of the last program they checked are kept, with its typer and the machine: binding
# them, and typing what the first check asked about, is done once for the four. A program's
# nodes are immutable, so the same program and memory model give the same types; kept by
# identity, never by equality (equal programs from two sources have other spans and nodes).
_last: tuple = (None, None, None, None, None)  # program, model, machine, typer, scopes


def _typed(program, model) -> tuple:
    """The machine, the program's typer, and every function's locals bound."""
    global _last
    if _last[0] is not program or _last[1] is not model:
        machine = Machine(model)
        base = CheckingTyper(program, machine)
        _last = (program, model, machine, base, scopes_of(program, base, loose=True))
    return _last[2:]


def loose_scopes(program, model) -> dict[str, Scope]:
    """Every function's locals as the type checks bind them: a local bound to an unsuffixed
    literal without a written type has the literal's type (`{integer}`), whatever its uses
    make it."""
    return _typed(program, model)[2]


def each_item(run, program, *, constant=None) -> None:
    """Walk the value of each constant (on the host, with the locals its value binds),
    handing the item to `constant` after it, then each function (whose handler calls
    `enter`)."""
    st = run.state
    st.machine, base, st.scopes = _typed(program, run.ctx.model)
    for item in program.items:
        if item._prod == "ConstItem":
            st.typer, st.function = constant_scope(item, base, loose=True).typer, None
            st.where = Where([HOST], [st.machine.host_space])
            run.walk(item.value)
            if constant is not None:
                constant(run, item)
        elif item._prod == "Fn":
            run.walk(item)
    st.said.note_copies()


def enter(run, fn) -> None:
    """Start walking function `fn`: its locals, the topology it runs on."""
    st = run.state
    st.typer = st.scopes[fn.name].typer
    st.where = Where.of(fn, st.typer)
    st.function = fn.name


def type_of(run, expr):
    st = run.state
    return st.typer.of(expr, st.where.here[-1])


def refuse(run, code, span, message, *, help=(), **data) -> None:
    """Report once per place: a copy of an unrolled body holds the same fault. In an
    instance, a note names it: its types are the generic's made concrete."""
    st = run.state
    if st.said.again((span, message)):
        return
    fn = st.function
    notes = [f"in '{fn}', the instance of '{generic_of(fn)}' this is judged in"
             ] if fn is not None and generic_of(fn) != fn else []
    st.said.said((span, message), run.ctx.diagnostics.error(code, span, message, notes=notes,
                                                            help=help, **data))


def quoted(node) -> str:
    """An expression as a message quotes it (printed only for a refusal: printing is
    dear)."""
    return to_text(node).strip()


def cast_help(found, expected) -> list[str]:
    """The help of a mismatch a cast can repair: two scalars `as` converts between (`as` makes
    no placed scalar: a `Pinned<T, ..>` comes only from `spawn on`)."""
    if kind(found) in ("int", "float") and kind(expected) in ("int", "float") \
            and not literal(expected) and not placed_scalar(expected):
        return [f"convert the value with `as {show(expected)}`"]
    return []
