"""Passes: one small rewrite from one language to the next.

A pass names its input and output languages and writes handlers only for the productions it
changes. Every other production is rebuilt automatically (the nanopass "auto clauses"): its
children are walked, and when none of them changed the node itself is returned, so unchanged
subtrees are shared, not copied. Subtrees that cannot contain a handled production are not
walked at all.

A handler is `handler(run, node) -> node`; `run.walk(child)` continues the pass below it,
`run.ctx` is the compilation (diagnostics, options, and the facts the pass declares) and
`run.state` the pass's own state: a fresh instance of the class given as `state=` (a
dataclass of the pass module's own), made for each run. A handler registered with
`splice=True` may instead return a tuple of nodes (none, one or several), which the
automatic clause of the parent splices into its `*` field: that is how a statement becomes
several statements, or disappears.

A pass declares the facts it reads from the compilation besides its input tree (`requires`,
such as the memory model) and the facts it leaves there (`provides`). The pipeline checks
that every requirement is provided by an earlier pass, and while the pass runs, `run.ctx`
refuses a fact it did not declare; after it, every fact it provides must be set.
"""

from __future__ import annotations

from typing import Callable

from .generated import define
from .language import Language
from .nodes import Node, current_pass
from .verify import verify


class PassError(Exception):
    """A pass declaration that cannot work (a removed production with no handler, ...)."""


class Pass:
    def __init__(
        self,
        name: str,
        input: Language | None,
        output: Language,
        doc: str,
        *,
        state: Callable[[], object] = type(None),
        requires: tuple[str, ...] = (),
        provides: tuple[str, ...] = (),
        run: Callable | None = None,
    ):
        self.name = name
        self.input = input
        self.output = output
        self.doc = doc.strip()
        self.requires = tuple(requires)
        self.provides = tuple(provides)
        self.handlers: dict[str, Callable] = {}
        self.splicing: set[str] = set()
        self._state = state
        self._whole = run  # a pass that is not a tree walk (parse) supplies its own run
        self._plans: dict[type, Callable] | None = None
        self._steps: _Dispatch | None = None

    @property
    def summary(self) -> str:
        """The docstring's first paragraph on one line: what `--list-passes` and the docs'
        tables of passes say of the pass."""
        return " ".join(self.doc.split("\n\n")[0].split())

    def on(self, *productions: str, splice: bool = False):
        """Register a handler for input productions; with `splice`, it may return a tuple."""

        def register(fn):
            for p in productions:
                if self.input is not None and p not in self.input.nodes:
                    raise PassError(f"{self.name}: {self.input.name} has no production {p}")
                self.handlers[p] = fn
                if splice:
                    self.splicing.add(p)
            self._plans = self._steps = None
            return fn

        return register

    def __repr__(self) -> str:
        src = self.input.name if self.input else "text"
        return f"<Pass {self.name}: {src} -> {self.output.name}>"

    # -- running -----------------------------------------------------------------------

    def __call__(self, tree, ctx=None, *, check: bool = True):
        """Run the pass on `tree`; verify the result against the output language."""
        token = current_pass.set(self.name)
        view = Declared(ctx, self) if ctx is not None else None
        try:
            out = self._whole(tree, view) if self._whole is not None else self._walk(tree, view)
        finally:
            current_pass.reset(token)
        for fact in self.provides if ctx is not None else ():
            if getattr(ctx, fact) is None:
                raise PassError(f"pass {self.name} provides '{fact}' but did not set it")
        # An unchanged tree in an unchanged language was verified as this pass's input.
        if check and out is not None and not (out is tree and self.input is self.output):
            verify(out, self.output)
        return out

    def _walk(self, tree, ctx):
        return PassRun(self, ctx).walk(tree)

    def rewrite(self, tree, ctx=None, *, state=None):
        """Run the pass over `tree` (any node of its language) with the given state and
        return the new tree: how one pass asks a helper rewrite that is not in the pipeline.
        The caller's own output is verified, this piece with it."""
        return PassRun(self, ctx, state).walk(tree)

    def plans(self) -> dict[type, Callable]:
        """Node class -> its automatic clause, `plan(run, node)`."""
        if self._plans is None:
            self._plans = _make_plans(self)
        return self._plans

    def steps(self) -> _Dispatch:
        """Node class -> what a walk does with it, `step(run, node)`: the handler, or else
        the automatic clause. Made once per pass, not per run: a pass runs thousands of
        times (every compilation, every helper `collect` on a subtree), and a table bound
        to each run cost more than the walks themselves."""
        if self._steps is None:
            handlers = {self.input[p]: h for p, h in self.handlers.items()}
            self._steps = _Dispatch(self, {cls: handlers.get(cls, plan)
                                           for cls, plan in self.plans().items()})
        return self._steps


class Declared:
    """The compilation as one pass sees it: a fact (a name in the compilation class's
    `facts`) can be read only when the pass requires or provides it, and written only when
    it provides it; everything else (diagnostics, options, source) passes through."""

    __slots__ = ("_ctx", "_pass")

    def __init__(self, ctx, pass_: Pass):
        object.__setattr__(self, "_ctx", ctx)
        object.__setattr__(self, "_pass", pass_)

    def _undeclared(self, name: str, declared: tuple[str, ...]) -> bool:
        return name in getattr(type(self._ctx), "facts", ()) and name not in declared

    def __getattr__(self, name):
        p = self._pass
        if self._undeclared(name, p.requires + p.provides):
            raise PassError(f"pass {p.name} reads the fact '{name}' but does not declare it "
                            f"in requires=")
        return getattr(self._ctx, name)

    def __setattr__(self, name, value):
        p = self._pass
        if self._undeclared(name, p.provides):
            raise PassError(f"pass {p.name} writes the fact '{name}' but does not declare it "
                            f"in provides=")
        setattr(self._ctx, name, value)


class Run:
    """One run of a pass over one tree: the compilation as the pass sees it, the pass's
    state, and the table that sends each node class to its handler or automatic clause."""

    __slots__ = ("pass_", "ctx", "state", "_dispatch", "_plans")

    def __init__(self, pass_: Pass, ctx, state=None):
        self.pass_ = pass_
        self.ctx = ctx
        self.state = pass_._state() if state is None else state
        self._plans = pass_.plans()
        self._dispatch = pass_.steps()


class _Dispatch(dict):
    """Node class -> step; a class of another language is the pass's bug, named."""

    def __init__(self, pass_: Pass, steps: dict):
        super().__init__(steps)
        self.pass_ = pass_

    def __missing__(self, cls):
        raise PassError(f"pass {self.pass_.name} walked a {cls.__name__}, which is not a node "
                        f"of its input language {self.pass_.input.name}")


class PassRun(Run):
    """One run of a rewriting pass."""

    __slots__ = ()

    def walk(self, node: Node) -> Node:
        return self._dispatch[type(node)](self, node)

    def rebuild(self, node: Node) -> Node:
        """The automatic clause for `node`, for a handler that only wants to look."""
        return self._plans[type(node)](self, node)

    def walk_seq(self, nodes) -> tuple:
        return tuple([self.walk(n) for n in nodes])


def reachable(language: Language, kind: str, memo: dict) -> frozenset:
    """Every production that can occur somewhere below a field of this nonterminal."""
    if kind in memo:
        return memo[kind]
    memo[kind] = frozenset()  # cycles: the fixed point is reached by the outer iteration
    seen: set[str] = set()
    todo = [kind]
    kinds_seen: set[str] = set()
    while todo:
        k = todo.pop()
        if k in kinds_seen:
            continue
        kinds_seen.add(k)
        for nt_name in language.accepts[k]:
            for p in language.nonterminals[nt_name].productions:
                seen.add(p.name)
                todo.extend(f.kind for f in p.fields if f.kind in language.nonterminals)
    memo[kind] = frozenset(seen)
    return memo[kind]


def _make_plans(p: Pass) -> dict:
    lin, lout = p.input, p.output
    missing = [
        name
        for name, cls in lin.nodes.items()
        if name not in p.handlers
        and (name not in lout.nodes or lout.nodes[name]._fields != cls._fields)
        and _walked_for_it(lin, name, p.handlers)
    ]
    if missing:
        raise PassError(
            f"pass {p.name}: {lout.name} removes or changes {', '.join(sorted(missing))} "
            f"but the pass has no handler for it"
        )
    # A production "needs a walk" when it is handled or its class is not shared with the
    # output language; a field whose subtree holds none of those is returned untouched.
    needs = {n for n, c in lin.nodes.items() if n in p.handlers or lout.nodes.get(n) is not c}
    memo: dict = {}
    plans = {}
    for name, cls in lin.nodes.items():
        steps = []
        for f in cls._declared:
            walk_it = f.kind in lin.nonterminals and bool(reachable(lin, f.kind, memo) & needs)
            splice = walk_it and f.mult == "*" and _splices(lin, f.kind, p.splicing)
            steps.append((f.name, "splice" if splice else f.mult, walk_it))
        out_cls = lout.nodes.get(name)
        plans[cls] = _compile_plan(cls, out_cls, steps)
    return plans


def _walked_for_it(language: Language, production: str, handlers) -> bool:
    """Can an automatic clause reach a node of `production`? Not when it can only stand in
    fields of handled productions (`generics` of a handled `Fn`): the handler that builds
    the parent decides what becomes of it."""
    nt = language.productions[production][0].name
    if nt == language.entry:
        return True
    return any(nt in language.accepts[f.kind]
               for name, cls in language.nodes.items() if name not in handlers
               for f in cls._declared if f.kind in language.nonterminals)


def _splices(language: Language, kind: str, splicing: set[str]) -> bool:
    """Can a node of a splicing production stand directly in a field of this kind?"""
    return any(
        p.name in splicing
        for nt in language.accepts[kind]
        for p in language.nonterminals[nt].productions
    )


def _compile_plan(cls, out_cls, steps) -> Callable:
    """Generate the automatic clause for one production (generated for speed)."""
    same = out_cls is cls
    if same and not any(w for _, _, w in steps):
        return lambda run, node: node
    lines = ["def plan(run, node):", "    walk = run.walk"]
    changed = []
    args = []
    for i, (name, mult, walk_it) in enumerate(steps):
        lines.append(f"    a{i} = node.{name}")
        if not walk_it:
            args.append(f"a{i}")
            continue
        if mult == "splice":
            lines += [
                f"    b{i} = []",
                f"    for x in a{i}:",
                "        r = walk(x)",
                f"        b{i}.extend(r) if type(r) is tuple else b{i}.append(r)",
                f"    b{i} = tuple(b{i})",
            ]
            changed.append(f"len(a{i}) != len(b{i}) "
                           f"or any([x is not y for x, y in zip(a{i}, b{i})])")
        elif mult == "*":
            lines.append(f"    b{i} = tuple([walk(x) for x in a{i}])")
            changed.append(f"any([x is not y for x, y in zip(a{i}, b{i})])")
        elif mult == "?":
            lines.append(f"    b{i} = None if a{i} is None else walk(a{i})")
            changed.append(f"b{i} is not a{i}")
        else:
            lines.append(f"    b{i} = walk(a{i})")
            changed.append(f"b{i} is not a{i}")
        args.append(f"b{i}")
    if same:
        lines.append(f"    if not ({' or '.join(changed)}): return node")
    lines.append(f"    return OUT({', '.join(args)}{', ' if args else ''}span=node.span)")
    env = {"OUT": out_cls}
    return define("\n".join(lines), f"<auto clause {cls._prod}>", "plan", env)
