"""Random trees of any IL, drawn from its declarations: every production its entry reaches,
every field filled from its kind (a terminal from values its predicate admits, a node from
the productions its nonterminal accepts), down to a depth. Not only trees a pass makes: a
tree no form fits is written in the generic form, and must read back all the same."""

from __future__ import annotations

from hypothesis import strategies as st

NAMES = ["a", "b", "x", "y", "k", "T", "N", "S", "Pair", "GPU"]
SCALARS = ["i32", "i64", "u8", "f32", "f64", "bool"]

TERMINALS = {
    "name": st.sampled_from(NAMES),
    "fname": st.sampled_from(NAMES + ["S::f", "Pair::new"]),
    "uname": st.sampled_from(NAMES + ["x#1", "k#12"]),
    "iname": st.sampled_from(NAMES + ["f$i32", "S::f$4", "g$Tensor<f32,[4],CPU_DRAM>",
                                      "h$GPU$NPU[0]", "id$&mut-i32", "Pair$(&i32,Point)",
                                      "id$*const-f32-in-Memory::CPU_DRAM",
                                      "id$Tensor<i32,[?,n#1+1]>"]),
    "label": st.sampled_from(["bb0", "bb1", "bb12"]),
    "int": st.integers(-5, 2 ** 64),
    "float": st.sampled_from([0.5, 1.0, 2.25, 1e-3, 1e20, 0.1, -1.5, float("inf"),
                              float("-inf")]),
    "bool": st.booleans(),
    "false": st.just(False),
    "string": st.text(max_size=6),
    "binop": st.sampled_from("|| && == != < <= > >= | ^ & << >> + - * / %".split()),
    "unop": st.sampled_from(["-", "!"]),
    "assignop": st.sampled_from(["=", "+=", "<<=", "%="]),
    "scalar": st.sampled_from(SCALARS),
    "decimal": st.sampled_from(["1", "40", "31.5", "0.25"]),
    "unit": st.sampled_from(["B", "KiB", "GB/s", "B/cyc", "GHz"]),
    "variant": st.sampled_from(["Available", "Saturated"]),
    "mark": st.sampled_from(["sync", "relaxed"]),
    "clause": st.sampled_from(["Reachable<A, B>", "Reachable<CPU, D>"]),
    "cost": st.sampled_from(["0", "50", "63/134"]),
    "via": st.sampled_from(["edge", "within"]),
}


# For a terminal kind not above (one a new IL adds): the values of this pool it admits.
POOL = [*NAMES, "S::f", "x#1", "f$i32", "bb0", 0, 1, 7, 2 ** 40, -3, 0.5, -2.0, True, False,
        "", "text", "sync", "edge", "50", "1.5"]


def terminal(language, kind: str):
    """A strategy for the values of a terminal kind; None when the pool has none."""
    if kind in TERMINALS:
        return TERMINALS[kind]
    admits = language.terminals[kind].predicate
    values = [v for v in POOL if admits(v)]
    return st.sampled_from(values) if values else None


def _heights(language) -> dict[str, int]:
    """The least depth of a tree of each nonterminal (a production with only terminals,
    optional and sequence fields is a leaf)."""
    height = {t: 0 for t in language.terminals}
    accepted = {nt: set(_productions(language, nt)) for nt in language.nonterminals}
    changed = True
    while changed:
        changed = False
        for name, (_, p) in language.productions.items():
            needs = [height.get(f.kind) for f in p.fields if f.mult == ""]
            if None in needs:
                continue
            h = 1 + max([0, *needs])
            for nt in language.nonterminals:
                if name in accepted[nt] and h < height.get(nt, 10 ** 9):
                    height[nt] = h
                    changed = True
    return height


def _productions(language, kind: str) -> list[str]:
    return [p.name for nt in language.nonterminals.values() if nt.name in language.accepts[kind]
            for p in nt.productions]


class Trees:
    """Strategies for the trees of one language."""

    def __init__(self, language, depth: int = 4, width: int = 2):
        self.language = language
        self.depth = depth
        self.width = width
        self.height = _heights(language)
        self.cache: dict = {}

    def of(self, kind: str, depth: int | None = None):
        depth = self.depth if depth is None else depth
        key = (kind, depth)
        if key not in self.cache:
            self.cache[key] = st.deferred(lambda: self._of(kind, depth))
        return self.cache[key]

    def _of(self, kind: str, depth: int):
        options = []
        for name in _productions(self.language, kind):
            built = self.production(name, depth)
            if built is not None:
                options.append(built)
        return st.one_of(options) if options else st.nothing()

    def production(self, name: str, depth: int):
        """A strategy for one production's nodes, or None when the depth cannot hold it or a
        terminal kind has no values here (made once: a production several kinds accept is
        one strategy, which hypothesis validates once)."""
        key = ("production", name, depth)
        if key not in self.cache:
            self.cache[key] = self._production(name, depth)
        return self.cache[key]

    def _production(self, name: str, depth: int):
        cls = self.language.nodes[name]
        fields = []
        for f in cls._declared:
            if f.kind in self.language.terminals:
                value = terminal(self.language, f.kind)
                if value is None:
                    return None
            elif f.mult == "" and self.height.get(f.kind, 10 ** 9) > depth - 1:
                return None
            elif depth == 0 or self.height.get(f.kind, 10 ** 9) > depth - 1:
                fields.append(st.just(() if f.mult == "*" else None))
                continue
            else:
                value = self.of(f.kind, depth - 1)
            if f.mult == "*":
                fields.append(st.lists(value, max_size=self.width).map(tuple))
            elif f.mult == "?":
                fields.append(st.none() | value)
            else:
                fields.append(value)
        return st.tuples(*fields).map(lambda values: cls(*values))

    def entry(self):
        return self.of(self.language.entry)
