"""`--list-passes`, `--list-languages`, `--show-language`, `--diff-language`, as text or, with
`--format=markdown`, as the tables the docs hold (README.md, ARCHITECTURE.md, docs/spatial.md
keep them between markers, and tests/test_pass_tables.py holds them to `pass_table` and
`language_table`)."""

from __future__ import annotations

from typing import TextIO

from .nanopass import Analysis, diff_languages, show_language
from .pipeline import BACK_END, LANGUAGES, PIPELINE


def show(args, out: TextIO, usage) -> int:
    if args.format == "markdown":
        out.write("\n".join(_markdown_sections(args.list_passes, args.list_languages)))
    else:
        if args.list_passes:
            _passes(out)
        if args.list_languages:
            _text_languages(out)
    if args.show_language:
        out.write(show_language(_language(args.show_language, usage)))
    if args.diff_language:
        names = [n.strip() for n in args.diff_language.split(",")]
        if len(names) != 2:
            raise usage("--diff-language takes two languages: A,B")
        out.write(diff_languages(_language(names[0], usage), _language(names[1], usage)))
    return 0


def lanes() -> dict:
    """Each lane of passes by the name a doc's marker gives it (`<!-- passes: back end -->`):
    its title and its passes, in the order `--list-passes` prints them."""
    from .spatial_pipeline import VX_PIPELINE

    return {
        "front end": ("the front end (every run)", PIPELINE.passes),
        "back end": ("the back end (native code: the default run, --action emit-mlir, "
                     "emit-llvm)", BACK_END),
        "spatial": ("the spatial lane (nano-vx spatial PROGRAM --target TARGET; a Vx program "
                    "starts at from-vx, after the front end)", VX_PIPELINE.passes),
    }


def language_lanes() -> dict:
    """The ILs of each lane by the name a doc's marker gives them (`<!-- languages: vx -->`),
    in pipeline order."""
    from .spatial_pipeline import SPATIAL_LANGUAGES

    return {"vx": LANGUAGES, "spatial": SPATIAL_LANGUAGES}


def _passes(out: TextIO) -> None:
    """Each lane as a table: each pass, its kind, its ILs, the facts it reads from the
    compilation and leaves there, and its summary. The front end comes first, then the back
    end's passes (run for native code), then the spatial lane (`nano-vx spatial`), each after
    a blank line and its title."""
    for i, (title, passes) in enumerate(lanes().values()):
        if i:
            out.write(f"\n{title}:\n")
        _table(out, passes)


def _table(out: TextIO, passes) -> None:
    header = ("pass", "kind", "input", "output", "requires", "provides", "summary")
    rows = [(p.name, _kind(p), p.input.name if p.input else "text", p.output.name,
             ",".join(p.requires) or "-", ",".join(p.provides) or "-", p.summary)
            for p in passes]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    for r in [header, *rows]:
        out.write("  ".join(f"{c:<{w}}" for c, w in zip(r, widths)) + f"  {r[-1]}\n")


def _text_languages(out: TextIO) -> None:
    for lang in _languages().values():
        parent = f" (extends {lang.parent.name})" if lang.parent else ""
        out.write(f"{lang.name}{parent}: {lang.doc}\n")


def pass_table(lane: str, facts: bool = False) -> str:
    """A lane's passes as a markdown table: each pass, its input and output IL, and what it
    does, its summary (the first paragraph of its docstring); with `facts`, also its kind and the
    facts it requires and provides."""
    rows = []
    for p in lanes()[lane][1]:
        ils = f"{_il(p.input)} -> {_il(p.output)}"
        rows.append([f"`{p.name}`", _kind(p), ils, _facts(p), p.summary] if facts
                    else [f"`{p.name}`", ils, p.summary])
    header = ["pass", "kind", "IL in -> out", "facts", "what it does"] if facts else \
        ["pass", "IL in -> out", "what it does"]
    return _markdown(header, rows)


def language_table(lane: str) -> str:
    """A lane's ILs as a markdown table: each IL and what it is, its docstring."""
    return _markdown(["IL", "what it is"],
                     [[f"`{lang.name}`", lang.doc] for lang in language_lanes()[lane].values()])


def _markdown_sections(passes: bool, languages: bool) -> list[str]:
    """Each lane's table under its title: the passes with their kinds and facts, the ILs."""
    return ([f"{title}:\n\n{pass_table(lane, facts=True)}"
             for lane, (title, _) in lanes().items()] if passes else []) + \
        ([f"the ILs of the {lane} lane:\n\n{language_table(lane)}"
          for lane in language_lanes()] if languages else [])


def _markdown(header: list[str], rows: list[list[str]]) -> str:
    lines = [header, ["---"] * len(header), *rows]
    # A `|` inside a cell, even in a code span, would end the cell.
    return "".join("| " + " | ".join(c.replace("|", "\\|") for c in line) + " |\n"
                   for line in lines)


def _kind(p) -> str:
    return "analysis" if isinstance(p, Analysis) else "rewrite"


def _il(language) -> str:
    return f"`{language.name}`" if language else "text"


def _facts(p) -> str:
    said = [f"{verb} {', '.join(f'`{f}`' for f in facts)}"
            for verb, facts in (("requires", p.requires), ("provides", p.provides)) if facts]
    return "; ".join(said)


def _languages() -> dict:
    """Every IL of both lanes by name, the front end's first."""
    return {name: lang for langs in language_lanes().values() for name, lang in langs.items()}


def _language(name: str, usage):
    languages = _languages()
    if name not in languages:
        raise usage(f"no language {name!r}; the languages are {', '.join(languages)}")
    return languages[name]
