"""Random well-formed Vx programs, as a hypothesis strategy: `programs()`.

A program is drawn the way a person writes one: memory spaces declared `within:` a built-in
space or each other, with capacities and granules; constants; functions with parameters and
results, some pure enough to be called while compiling; then `main`, whose statements cover
integers of every width, floats, bools, tensors (`::new()`, `::fill(x)`, indexing), transfers
to the declared spaces and back, `spawn on(..)`, `unroll across(..)`, `for`, `while` with a
bound, `if`/`else if`/`else`, `comptime` blocks and `if comptime`, `let` with and without a
type, shadowing, and blocks nested in all of these.

Every name is declared before its use and every value is read only where the rules admit it
(a tensor by the topologies that see its space, a transferred local never again, a literal
within its type, a divisor never zero, a loop always bounded), so most programs are admitted
and run to their end. What the compiler refuses anyway is a bug of the compiler or of this
generator: the campaign counts the refusals by code so that either shows.

Sizes stay far below the limits issue 8 names (deep expressions, long `else if` chains,
`within:` chains, nested unrolls, comptime recursion), which have tests of their own.
"""

from __future__ import annotations

import itertools
from contextlib import contextmanager
from dataclasses import dataclass, replace

from hypothesis import strategies as st

INT_RANGES = {
    "i8": (-2**7, 2**7 - 1), "i16": (-2**15, 2**15 - 1), "i32": (-2**31, 2**31 - 1),
    "i64": (-2**63, 2**63 - 1), "u8": (0, 2**8 - 1), "u32": (0, 2**32 - 1),
    "u64": (0, 2**64 - 1),
}
FLOAT_TYPES = ("f32", "f64")
NUMERIC = (*INT_RANGES, *FLOAT_TYPES)
SCALAR_TYPES = (*NUMERIC, "bool")
ELEMENT_TYPES = ("f32", "f64", "i32", "i64", "u8")
COMPTIME_TYPES = ("i32", "i64")  # what compile-time code computes with here
FLOAT_LITERALS = ("0.5", "1.25", "3.0", "2.75", "0.125", "100.5", "1.5e2", "7.0")

# The built-in model: the space each topology holds and the spaces it may read.
HOLDS = {"CPU": "CPU_DRAM", "NPU": "NPU_HBM", "GPU": "GPU_HBM", "AccCore": "Local_SRAM"}
SEES = {"CPU": {"CPU_DRAM", "NPU_HBM"}, "NPU": {"NPU_HBM"}, "GPU": {"GPU_HBM", "CPU_DRAM"},
        "AccCore": {"Local_SRAM"}}
BUILTIN_PARENTS = ("NPU_HBM", "GPU_HBM", "CPU_DRAM")
CAPACITIES = (("16 KiB", 16 * 1024), ("100 KB", 100_000), ("64 KiB", 64 * 1024),
              ("256 KiB", 256 * 1024), ("1 MiB", 1024**2), ("4 MiB", 4 * 1024**2))
GRANULES = (("16 B", 16), ("64 B", 64), ("256 B", 256), ("1 KiB", 1024), ("4 KiB", 4096))
MAX_UNROLLED = 16  # copies a nest of unrolls may make: far below the nest bound of issue 8


@dataclass(frozen=True)
class Tensor:
    elem: str
    dims: tuple[int, ...]

    def __str__(self) -> str:
        return f"Tensor<{self.elem}, [{', '.join(map(str, self.dims))}]>"


@dataclass(eq=False)
class Var:
    name: str
    type: object  # a scalar type name or a Tensor
    space: str
    mutable: bool = False
    region: int = 0  # the body (main, a function, a spawn) that declared it: only it writes it
    loops: int = 0  # loops around the declaration: a move is admitted only at that depth
    extent: tuple[int, int] | None = None  # a loop index's range, to index with it
    consumed: bool = False
    fixed: bool = False  # a `while` counter: only the loop's own step writes it


@dataclass(frozen=True)
class Fn:
    name: str
    params: tuple[tuple[str, object], ...]
    ret: object  # None for no result; "T" for a generic one, the type of the arguments
    pure: bool  # integers in, an integer out, no effects: callable while compiling

    def gives(self, type: str) -> bool:
        return self.ret == type or (self.ret == "T" and type in NUMERIC)


@dataclass(frozen=True)
class Where:
    """Where a statement is being written."""

    topology: str = "CPU"
    region: int = 0
    loops: int = 0
    loop: str | None = None  # the innermost loop of this region: "for" or "while"
    ret: object = None  # what a `return` here gives: a type, "void", or None for no return
    pure: bool = False
    depth: int = 0
    unrolled: int = 1  # copies the enclosing unrolls make


class Writer:
    """Draws one program, statement by statement, keeping the scope it has declared."""

    def __init__(self, draw, size: int):
        self.draw = draw
        self.size = size
        self.budget = 0  # statements left to write in the current item
        self.lines: list[str] = []
        self.indent = 0
        self.frames: list[dict[str, Var]] = [{}]
        self.counter = itertools.count()
        self.regions = itertools.count(1)
        self.spaces: dict[str, tuple[int, bool]] = {}  # name -> (capacity, cached)
        self.consts: dict[str, tuple[str, int]] = {}
        self.fns: list[Fn] = []

    # -- choices ---------------------------------------------------------------------------

    def pick(self, options):
        return self.draw(st.sampled_from(tuple(options)))

    def number(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))

    def chance(self, percent: int) -> bool:
        return self.number(0, 99) < percent

    def choose(self, options):
        """Call one of the (weight, thunk) options whose weight is positive."""
        options = [(w, f) for w, f in options if w > 0]
        roll = self.number(0, sum(w for w, _ in options) - 1)
        for weight, thunk in options:
            if roll < weight:
                return thunk()
            roll -= weight
        raise AssertionError("unreachable")

    def fresh(self, stem: str) -> str:
        name = f"{stem}{next(self.counter)}"
        return name if name not in SCALAR_TYPES else self.fresh(stem)  # not `i8` or `u32`

    # -- text and scope --------------------------------------------------------------------

    def line(self, text: str) -> None:
        self.lines.append("  " * self.indent + text)

    @contextmanager
    def block(self, head: str, close: str = "}"):
        self.line(head)
        self.indent += 1
        self.frames.append({})
        try:
            yield
        finally:
            self.frames.pop()
            self.indent -= 1
            self.line(close)

    def declare(self, var: Var) -> Var:
        self.frames[-1][var.name] = var
        return var

    def visible(self) -> list[Var]:
        seen: dict[str, Var] = {}
        for frame in reversed(self.frames):
            for name, var in frame.items():
                seen.setdefault(name, var)
        return list(seen.values())

    def sees(self, where: Where, space: str) -> bool:
        return space in SEES[where.topology] or self.spaces.get(space, (0, False))[1]

    def readable(self, where: Where, kind=None) -> list[Var]:
        """Live variables `where` may read, of one type or (`Tensor`) every tensor."""
        out = []
        for var in self.visible():
            if var.consumed or not self.sees(where, var.space):
                continue
            if kind is Tensor and not isinstance(var.type, Tensor):
                continue
            if kind not in (None, Tensor) and var.type != kind:
                continue
            out.append(var)
        return out

    # -- literals and expressions ----------------------------------------------------------

    def int_literal(self, type: str, small: bool = False) -> str:
        lo, hi = INT_RANGES[type]
        if small:
            value = self.number(max(lo, -20), min(hi, 100))
        else:
            value = self.choose([
                (7, lambda: self.number(max(lo, -20), min(hi, 100))),
                (2, lambda: self.number(lo, hi)),
                (1, lambda: self.pick((lo, hi))),
            ])
        if value < 0:
            return f"(-{-value})"
        if value >= 1000 and self.chance(20):
            return self.pick((f"{value:_}", f"0x{value:X}"))
        return str(value)

    def literal(self, type: str, small: bool = False) -> str:
        if type == "bool":
            return self.pick(("true", "false"))
        if type in INT_RANGES:
            return self.int_literal(type, small)
        text = self.pick(FLOAT_LITERALS)
        return f"(-{text})" if self.chance(20) else text

    def index(self, extent: int, where: Where) -> str:
        indices = [v.name for v in self.readable(where, "i32")
                   if v.extent and v.extent[0] >= 0 and v.extent[1] <= extent]
        if indices and self.chance(60):
            return self.pick(indices)
        return str(self.number(0, extent - 1))

    def element(self, var: Var, where: Where) -> str:
        return var.name + "".join(f"[{self.index(d, where)}]" for d in var.type.dims)

    def expr(self, type: str, where: Where, depth: int = 2, anchored: bool = False) -> str:
        """An expression of scalar `type`, written so that it is safe as an operand.

        `anchored` asks for one whose type shows without a context (a `print`, a comparison,
        a cast's operand): a bare literal is an i32 or an f64 there, so it must meet a
        variable, a call or a cast of `type` on its left."""
        if type == "bool":
            return self.condition(where, depth)
        bare = not anchored or type in ("i32", "f64")
        small = where.pure
        names = [v.name for v in self.readable(where, type)]
        tensors = [v for v in self.readable(where, Tensor) if v.type.elem == type]
        consts = [n for n, (t, _) in self.consts.items() if t == type]
        calls = [f for f in self.fns if f.gives(type) and where.topology == "CPU"
                 and (f.pure or not where.pure)]
        deeper = depth > 0
        if not (bare or names or tensors or consts or deeper):
            return f"({self.expr('i32', where, 0)} as {type})"
        return self.choose([
            (3 * bare, lambda: self.literal(type, small)),
            (5 * bool(names), lambda: self.pick(names)),
            (2 * bool(tensors), lambda: self.element(self.pick(tensors), where)),
            (bool(consts), lambda: self.pick(consts)),
            (4 * deeper, lambda: self.arithmetic(type, where, depth - 1, anchored)),
            (deeper * (type not in ("u8", "u32", "u64")),
             lambda: f"-{self.expr(type, where, depth - 1, anchored)}"),
            (deeper, lambda: self.cast(type, where, depth - 1)),
            (2 * deeper * bool(calls),
             lambda: self.call(self.pick(calls), where, depth - 1, type)),
            (deeper * (type in COMPTIME_TYPES and not where.pure),
             lambda: self.comptime_value(type, bare)),
        ])

    def arithmetic(self, type: str, where: Where, depth: int, anchored: bool) -> str:
        left = self.expr(type, where, depth, anchored)
        op = self.pick("+-*/%" if type in INT_RANGES else "+-*/")
        if op in "/%":  # a literal divisor, never zero: a zero divisor stops the program
            right = str(self.number(1, 9)) if type in INT_RANGES else self.pick(FLOAT_LITERALS)
        else:
            right = self.expr(type, where, depth)
        return f"({left} {op} {right})"

    def cast(self, type: str, where: Where, depth: int) -> str:
        sources = COMPTIME_TYPES if where.pure else NUMERIC
        source = self.pick([t for t in sources if t != type])
        return f"({self.expr(source, where, depth, anchored=True)} as {type})"

    def condition(self, where: Where, depth: int) -> str:
        names = [v.name for v in self.readable(where, "bool")]
        deeper = depth > 0

        def compare():
            type = self.pick(COMPTIME_TYPES if where.pure else NUMERIC)
            op = self.pick(("<", "<=", ">", ">=", "==", "!="))
            left = self.expr(type, where, depth - 1, anchored=True)
            return f"({left} {op} {self.expr(type, where, depth - 1)})"

        return self.choose([
            (1, lambda: self.pick(("true", "false"))),
            (2 * bool(names), lambda: self.pick(names)),
            (4, compare),
            (2 * deeper, lambda: f"({self.condition(where, depth - 1)} "
                                 f"{self.pick(('&&', '||'))} {self.condition(where, depth - 1)})"),
            (deeper, lambda: f"!{self.condition(where, depth - 1)}"),
        ])

    def call(self, fn: Fn, where: Where, depth: int = 1, type: str | None = None) -> str:
        if fn.ret == "T":  # each argument must show the type the instance is made for
            args = [self.expr(type, where, depth, anchored=True) for _ in fn.params]
        else:
            args = [self.argument(t, where, depth) for _, t in fn.params]
        return f"{fn.name}({', '.join(args)})"

    def argument(self, type, where: Where, depth: int) -> str:
        if not isinstance(type, Tensor):
            return self.expr(type, where, depth)
        if type.dims == ("S",):  # a const generic extent: any rank-1 tensor binds it
            held = [v for v in self.readable(where, Tensor) if v.space == "CPU_DRAM"
                    and v.type.elem == type.elem and len(v.type.dims) == 1]
            type = Tensor(type.elem, (self.number(1, 6),))
        else:
            held = [v for v in self.readable(where, type) if v.space == "CPU_DRAM"]
        # Passed by value, a tensor moves into the call: only once, so not from a loop or an
        # unrolled body around its declaration, and never read again.
        held = [v for v in held if v.loops == where.loops and where.unrolled == 1]
        if held and self.chance(50):
            var = self.pick(held)
            var.consumed = True
            return var.name
        return self.new_tensor(type)

    def new_tensor(self, type: Tensor) -> str:
        if self.chance(40):
            return f"{type}::new()"
        return f"{type}::fill({self.literal(type.elem)})"

    def tensor_type(self) -> Tensor:
        rank = self.pick((1, 1, 2, 2, 3))
        most = 6 if rank < 3 else 3
        return Tensor(self.pick(ELEMENT_TYPES), tuple(self.number(1, most) for _ in range(rank)))

    # -- compile time ----------------------------------------------------------------------

    def const_expr(self, type: str, depth: int = 1) -> str:
        """Known while compiling: small literals, constants, pure calls with literal args."""
        consts = [n if t == type else f"({n} as {type})" for n, (t, _) in self.consts.items()]
        pure = [f for f in self.fns if f.pure and f.ret == type]
        return self.choose([
            (3, lambda: self.int_literal(type, small=True)),
            (2 * bool(consts), lambda: self.pick(consts)),
            (2 * (depth > 0), lambda: f"({self.const_expr(type, depth - 1)} "
                                      f"{self.pick('+-*')} {self.const_expr(type, depth - 1)})"),
            (2 * bool(pure), lambda: self.pure_call(self.pick(pure))),
        ])

    def pure_call(self, fn: Fn) -> str:
        args = ", ".join(self.int_literal(t, small=True) for _, t in fn.params)
        return f"{fn.name}({args})"

    def comptime_value(self, type: str, bare: bool = True) -> str:
        """`comptime { .. }` with a value of `type`, on one line; unless `bare`, one whose
        value is a typed local, so that its type shows without a context."""
        acc = self.fresh("s")
        steps = self.number(0, 6)

        def loop():
            k = self.fresh("k")
            return (f"comptime {{ let mut {acc}: {type} = {self.const_expr(type)}; "
                    f"for {k} in 0..{steps} {{ {acc} += ({k} as {type}) * "
                    f"{self.int_literal(type, small=True)}; }} {acc} }}")

        def count():
            return (f"comptime {{ let mut {acc}: {type} = 0; while {acc} < {steps} "
                    f"{{ {acc} += 1; }} {acc} }}")

        return self.choose([
            (2 * bare, lambda: f"comptime {{ {self.const_expr(type)} }}"),
            (2, loop),
            (1, count),
        ])

    def const_condition(self) -> str:
        consts = [f"{n}" for n, (t, _) in self.consts.items()]
        if consts and self.chance(70):
            name = self.pick(consts)
            return f"{name} {self.pick(('<', '>', '==', '!='))} {self.number(0, 6)}"
        return self.pick(("true", "false", "2 < 3", "1 + 1 == 3"))

    # -- statements ------------------------------------------------------------------------

    def statements(self, where: Where, most: int) -> None:
        for _ in range(self.number(1, most)):
            if self.budget <= 0:
                return
            self.budget -= 1
            self.statement(where)

    def statement(self, where: Where) -> None:
        cpu = where.topology == "CPU" and not where.pure
        nest = where.depth < 3
        assignable = [v for v in self.visible() if v.mutable and not v.fixed and not v.consumed
                      and v.region == where.region and not isinstance(v.type, Tensor)]
        writable = [v for v in self.readable(where, Tensor) if v.mutable
                    and (v.region == where.region or v.space == HOLDS[where.topology])]
        void_fns = [f for f in self.fns if f.ret is None]
        self.choose([
            (6, lambda: self.let_scalar(where)),
            (3 * (not where.pure), lambda: self.let_tensor(where)),
            (3 * bool(assignable), lambda: self.assign(self.pick(assignable), where)),
            (3 * bool(writable), lambda: self.write_element(self.pick(writable), where)),
            (4 * (not where.pure), lambda: self.print(where)),
            (3 * nest, lambda: self.if_else(where)),
            (2 * nest, lambda: self.for_loop(where)),
            (1 * nest, lambda: self.while_loop(where)),
            (2 * bool(where.loop), lambda: self.leave_loop(where)),
            (4 * cpu, lambda: self.transfer(where)),
            (3 * (cpu and nest), lambda: self.spawn(where)),
            (2 * nest * (cpu or where.unrolled > 1) * (where.unrolled * 2 <= MAX_UNROLLED),
             lambda: self.unroll(where)),
            (bool(where.ret), lambda: self.early_return(where)),
            (2 * (not where.pure), lambda: self.comptime(where)),
            (bool(void_fns) * cpu, lambda: self.line(self.call(self.pick(void_fns), where) + ";")),
            (1, lambda: self.assert_(where)),
        ])

    def let_scalar(self, where: Where) -> None:
        type = self.pick(COMPTIME_TYPES if where.pure else SCALAR_TYPES)
        typed = self.chance(50)
        value = self.expr(type, where, anchored=not typed)  # untyped, the value says the type
        if self.chance(15):  # an `if` giving the value: each branch shows its type as well
            other = self.expr(type, where, anchored=not typed)
            value = f"if {self.condition(where, 1)} {{ {value} }} else {{ {other} }}"
        shadows = [v.name for v in self.visible() if not v.fixed]
        name = self.pick(shadows) if shadows and self.chance(15) else self.fresh("v")
        mutable = self.chance(40)
        self.line(f"let {'mut ' if mutable else ''}{name}{f': {type}' if typed else ''} = {value};")
        # A value computed here lives here; a variable's value stays where it is (a pinned
        # one too): only a transfer moves data.
        space = next((v.space for v in self.visible() if v.name == value), HOLDS[where.topology])
        self.declare(Var(name, type, space, mutable, where.region, where.loops))

    def let_tensor(self, where: Where) -> None:
        type = self.tensor_type()
        name = self.fresh("t")
        mutable = self.chance(60)
        typed = where.topology == "CPU" and self.chance(20)
        self.line(f"let {'mut ' if mutable else ''}{name}{f': {type}' if typed else ''} = "
                  f"{self.new_tensor(type)};")
        self.declare(Var(name, type, HOLDS[where.topology], mutable, where.region, where.loops))

    def assign(self, var: Var, where: Where) -> None:
        if var.type == "bool":
            self.line(f"{var.name} = {self.condition(where, 1)};")
            return
        op = self.pick(("=", "+=", "-=", "*=", "/="))
        value = (str(self.number(1, 9)) if var.type in INT_RANGES else self.pick(FLOAT_LITERALS)
                 ) if op == "/=" else self.expr(var.type, where)
        self.line(f"{var.name} {op} {value};")

    def write_element(self, var: Var, where: Where) -> None:
        op = self.pick(("=", "=", "+="))
        self.line(f"{self.element(var, where)} {op} {self.expr(var.type.elem, where, 1)};")

    def print(self, where: Where) -> None:
        tensors = self.readable(where, Tensor)
        self.choose([
            (4, lambda: self.line(
                f"print({self.expr(self.pick(SCALAR_TYPES), where, anchored=True)});")),
            (bool(tensors), lambda: self.line(f"print({self.pick(tensors).name});")),
            (bool(tensors),
             lambda: self.line(f"print({self.element(self.pick(tensors), where)});")),
        ])

    def if_else(self, where: Where) -> None:
        inner = replace(where, depth=where.depth + 1)
        with self.block(f"if {self.condition(where, 2)} {{", close=""):
            self.statements(inner, 3)
        self.lines.pop()
        for _ in range(self.number(0, 2)):
            with self.block(f"}} else if {self.condition(where, 1)} {{", close=""):
                self.statements(inner, 2)
            self.lines.pop()
        if self.chance(50):
            with self.block("} else {", close=""):
                self.statements(inner, 3)
            self.lines.pop()
        self.line("}")

    def for_loop(self, where: Where) -> None:
        name = self.fresh("i")
        consts = [(n, v) for n, (t, v) in self.consts.items() if t == "i32" and 0 <= v <= 6]
        if consts and self.chance(30):
            bound, hi = self.pick(consts)
            lo = 0
        else:
            lo = self.number(0, 2)
            hi = lo + self.number(0, 5)
            bound = str(hi)
        inner = replace(where, depth=where.depth + 1, loops=where.loops + 1, loop="for")
        with self.block(f"for {name} in {lo}..{bound} {{"):
            self.declare(Var(name, "i32", HOLDS[where.topology], region=where.region,
                             loops=inner.loops, extent=(lo, hi)))
            self.statements(inner, 3)

    def while_loop(self, where: Where) -> None:
        counter = self.fresh("w")
        self.line(f"let mut {counter} = 0;")
        var = self.declare(Var(counter, "i32", HOLDS[where.topology], True, where.region,
                               where.loops, fixed=True))
        inner = replace(where, depth=where.depth + 1, loops=where.loops + 1, loop="while")
        with self.block(f"while {counter} < {self.number(0, 5)} {{"):
            self.statements(inner, 3)
            self.line(f"{counter} += 1;")
        var.fixed = False

    def early_return(self, where: Where) -> None:
        if where.ret == "void":
            value = ""
        elif isinstance(where.ret, Tensor):
            value = " " + self.new_tensor(where.ret)
        else:
            value = " " + self.expr(where.ret, where)
        self.line(f"if {self.condition(where, 1)} {{ return{value}; }}")

    def leave_loop(self, where: Where) -> None:
        # `continue` in a while would skip the counter's step: only `for` gets it.
        word = self.pick(("break", "continue")) if where.loop == "for" else "break"
        self.line(f"if {self.condition(where, 1)} {{ {word}; }}")

    def transfer(self, where: Where) -> None:
        movable = [v for v in self.readable(where, Tensor)
                   if v.space == "CPU_DRAM" and v.loops == where.loops]
        away = [v for v in self.visible() if isinstance(v.type, Tensor) and not v.consumed
                and v.space != "CPU_DRAM" and v.loops == where.loops]
        if away and self.chance(30):  # bring one home
            var = self.pick(away)
            var.consumed = True
            home = self.fresh("h")
            self.line(f"let {home} = transfer({var.name}, Memory::CPU_DRAM);")
            self.declare(Var(home, var.type, "CPU_DRAM", False, where.region, where.loops))
            return
        if movable and self.chance(50):
            source = self.pick(movable)
            source.consumed = True
            type, text = source.type, source.name
        else:
            type = self.tensor_type()
            text = self.new_tensor(type)
        target = self.pick([*self.spaces, "NPU_HBM", "GPU_HBM", "Local_SRAM"])
        name = self.fresh("d")
        method = {"NPU_HBM": "to_device", "GPU_HBM": "to_gpu"}.get(target)
        if method and self.chance(30):
            relaxed = "_relaxed" if self.chance(30) else ""
            self.line(f"let {name} = {text}.{method}{relaxed}();")
        else:
            self.line(f"let {name} = transfer({text}, Memory::{target});")
        moved = self.declare(Var(name, type, target, False, where.region, where.loops))
        if target in self.spaces and self.chance(70):  # on to another space, or back to be read
            moved.consumed = True
            back = self.fresh("b")
            home = self.pick(("CPU_DRAM", "NPU_HBM", *[s for s in self.spaces if s != target]))
            self.line(f"let {back} = transfer({name}, Memory::{home});")
            self.declare(Var(back, type, home, False, where.region, where.loops))
            if self.sees(where, home) and self.chance(60):
                self.line(f"print({self.element(self.visible_var(back), where)});")

    def visible_var(self, name: str) -> Var:
        return next(v for v in self.visible() if v.name == name)

    def spawn(self, where: Where) -> None:
        topology = self.pick(("NPU", "NPU", "GPU", "AccCore"))
        if topology == "GPU" or (topology == "NPU" and self.chance(50)):
            written = f"Topology::{topology}"
        else:
            written = f"Topology::{topology}[{self.number(0, 3)}]"
        inner = Where(topology, next(self.regions), depth=where.depth + 1,
                      unrolled=where.unrolled)
        if self.chance(50):
            with self.block(f"spawn on({written}) {{", close="};"):
                self.statements(inner, 3)
            return
        name = self.fresh("p")
        scalar = self.chance(50)
        if not scalar:
            # A region hands back only a tensor made before it and moved in (E6030).
            type = self.tensor_type()
            room = self.fresh("m")
            self.line(f"let {room} = transfer({self.new_tensor(type)}, "
                      f"Memory::{HOLDS[topology]});")
        with self.block(f"let {name} = spawn on({written}) {{", close="};"):
            self.statements(inner, 3)
            if scalar:
                type = self.pick(SCALAR_TYPES)
                result = self.fresh("r")
                self.line(f"let {result}: {type} = {self.expr(type, inner)};")
                self.line(result)
            else:
                result = self.fresh("r")
                self.line(f"let mut {result} = {room};")
                self.declare(Var(result, type, HOLDS[topology], True, inner.region))
                self.write_element(self.visible_var(result), inner)
                self.line(result)
        self.declare(Var(name, type, HOLDS[topology], False, where.region, where.loops))

    def unroll(self, where: Where) -> None:
        lo = self.number(0, 2)
        count = self.number(1, min(4, MAX_UNROLLED // where.unrolled))
        name = self.fresh("u")
        inner = Where("NPU", next(self.regions), depth=where.depth + 1,
                      unrolled=where.unrolled * count)
        with self.block(f"unroll across(Topology::NPU[{lo}..{lo + count}]) {{ |{name}|"):
            self.declare(Var(name, "i32", "NPU_HBM", region=inner.region, extent=(lo, lo + count)))
            self.statements(inner, 3)

    def comptime(self, where: Where) -> None:
        def let():
            type = self.pick(COMPTIME_TYPES)
            name = self.fresh("c")
            self.line(f"let {name}: {type} = {self.comptime_value(type)};")
            self.declare(Var(name, type, HOLDS[where.topology], False, where.region, where.loops))

        def checked():
            steps = self.number(0, 8)
            acc, k = self.fresh("s"), self.fresh("k")
            with self.block("comptime {"):
                self.line(f"let mut {acc} = 0;")
                self.line(f"for {k} in 0..{steps} {{ {acc} += {k}; }}")
                self.line(f'assert({acc} == {steps * (steps - 1) // 2}, "the sum of 0..{steps}");')

        def branch():
            inner = replace(where, depth=where.depth + 1)
            with self.block(f"if comptime {self.const_condition()} {{", close=""):
                self.statements(inner, 2)
            self.lines.pop()
            with self.block("} else {"):
                self.statements(inner, 2)

        self.choose([(3, let), (1, checked), (2 * (where.depth < 3), branch)])

    def assert_(self, where: Where) -> None:
        # While compiling, a result outside its type is refused (E3033), not wrapped.
        type = self.pick(COMPTIME_TYPES if where.pure else INT_RANGES)
        value = self.expr(type, where, 1, anchored=True)
        self.line(f'assert({value} == {value}, "a value equals itself");')

    # -- items -----------------------------------------------------------------------------

    def memory(self) -> None:
        name = f"S{len(self.spaces)}"
        parent = self.pick([*BUILTIN_PARENTS, *self.spaces])
        bound = self.spaces[parent][0] if parent in self.spaces else CAPACITIES[-1][1]
        capacity, size = self.pick([c for c in CAPACITIES if c[1] <= bound])
        fields = [f"within: Memory::{parent}", f"capacity: {capacity}"]
        if self.chance(60):
            fields.append("granule: " + self.pick([g for g, b in GRANULES if b * 64 <= size]))
        if self.chance(30):
            fields.append("bandwidth: " + self.pick(("128 B/cyc", "64 GB/s", "3.35 TB/s")))
        cached = self.chance(20)
        if cached or self.chance(30):
            fields.append(f"managed: {'cached' if cached else 'explicit'}")
        with self.block(f"Memory {name} {{"):
            for field in fields:
                self.line(field + ",")
        self.spaces[name] = (size, cached)

    def const(self) -> None:
        name = f"C{len(self.consts)}"
        type = self.pick(COMPTIME_TYPES)
        value = self.number(0, 6)
        self.line(f"const {name}: {type} = {value};")
        self.consts[name] = (type, value)

    def generic(self) -> None:
        name = f"f{len(self.fns)}"
        if self.chance(50):
            with self.block(f"fn {name}<T>(a: T, b: T) -> T {{"):
                self.line(f"if a {self.pick(('<', '>'))} b {{ return a; }}")
                self.line("b")
            self.fns.append(Fn(name, (("a", "T"), ("b", "T")), "T", False))
            return
        elem = self.pick(ELEMENT_TYPES)
        with self.block(f"fn {name}<const S: i32>(v: Tensor<{elem}, [S]>) -> {elem} {{"):
            self.line(f"let mut acc: {elem} = v[0];")
            self.line("for i in 1..S { acc = acc + v[i]; }")
            self.line("acc")
        self.fns.append(Fn(name, (("v", Tensor(elem, ("S",))),), elem, False))

    def function(self, pure: bool) -> None:
        name = f"f{len(self.fns)}"
        if pure:
            ret = self.pick(COMPTIME_TYPES)
            params = tuple((f"a{i}", self.pick(COMPTIME_TYPES)) for i in range(self.number(1, 3)))
        else:
            ret = self.choose([(2, lambda: None), (3, lambda: self.pick(SCALAR_TYPES)),
                               (1, self.tensor_type)])
            params = tuple((f"a{i}", self.pick(SCALAR_TYPES) if self.chance(75)
                            else self.tensor_type()) for i in range(self.number(0, 3)))
        written = ", ".join(f"{p}: {t}" for p, t in params)
        arrow = f" -> {ret}" if ret is not None else ""
        where = Where(region=next(self.regions), ret=ret or "void", pure=pure, depth=1)
        outer, self.frames, budget = self.frames, [{}], self.budget
        with self.block(f"fn {name}({written}){arrow} {{"):
            for p, t in params:
                self.declare(Var(p, t, "CPU_DRAM", region=where.region))
            self.budget = self.number(1, 5)
            self.statements(where, 4)
            if isinstance(ret, Tensor):
                self.line(self.new_tensor(ret))
            elif ret is not None:
                self.line(self.expr(ret, where))
        self.frames, self.budget = outer, budget
        self.fns.append(Fn(name, params, ret, pure))

    def program(self) -> str:
        for _ in range(self.number(0, 3)):
            self.memory()
        for _ in range(self.number(0, 2)):
            self.const()
        for _ in range(self.number(0, 3)):
            self.choose([(2, lambda: self.function(pure=False)),
                         (2, lambda: self.function(pure=True)), (1, self.generic)])
        returns = self.chance(30)
        with self.block(f"fn main(){' -> i32' if returns else ''} {{"):
            top = Where(ret=None if returns else "void")
            if self.chance(15):  # items written in a block move to the top level
                self.choose([(1, self.memory), (2, lambda: self.function(pure=True))])
            self.budget = self.number(min(4, self.size), self.size)
            self.statements(top, 12)
            while self.budget > 0:
                self.budget -= 1
                self.statement(top)
            if returns:
                self.line("return 0;")
        return "\n".join(self.lines) + "\n"


@st.composite
def programs(draw, size: int = 24) -> str:
    """The text of a random well-formed program of about `size` statements."""
    return Writer(draw, size).program()
