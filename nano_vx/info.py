"""`--list-passes`, `--list-languages`, `--show-language`, `--diff-language`."""

from __future__ import annotations

from typing import TextIO

from .nanopass import Analysis, diff_languages, show_language
from .pipeline import BACK_END, LANGUAGES, PIPELINE


def show(args, out: TextIO, usage) -> int:
    if args.list_passes:
        _passes(out)
    if args.list_languages:
        for lang in _languages().values():
            parent = f" (extends {lang.parent.name})" if lang.parent else ""
            out.write(f"{lang.name}{parent}: {lang.doc}\n")
    if args.show_language:
        out.write(show_language(_language(args.show_language, usage)))
    if args.diff_language:
        names = [n.strip() for n in args.diff_language.split(",")]
        if len(names) != 2:
            raise usage("--diff-language takes two languages: A,B")
        out.write(diff_languages(_language(names[0], usage), _language(names[1], usage)))
    return 0


def _passes(out: TextIO) -> None:
    """Each lane as a table: each pass, its kind, its ILs, the facts it reads from the
    compilation and leaves there, and its summary. The front end comes first, then the back
    end's passes (run for native code), then the spatial lane (`nano-vx spatial`), each after
    a blank line and its title."""
    from .spatial_pipeline import VX_PIPELINE

    _table(out, PIPELINE)
    out.write("\nthe back end (native code: the default run, --action emit-mlir, emit-llvm):\n")
    _table(out, BACK_END)
    out.write("\nthe spatial lane (nano-vx spatial PROGRAM --target TARGET; a Vx program starts "
              "at from-vx, after the front end):\n")
    _table(out, VX_PIPELINE)


def _table(out: TextIO, pipeline) -> None:
    header = ("pass", "kind", "input", "output", "requires", "provides", "summary")
    rows = [(p.name, "analysis" if isinstance(p, Analysis) else "rewrite",
             p.input.name if p.input else "text", p.output.name,
             ",".join(p.requires) or "-", ",".join(p.provides) or "-", p.summary)
            for p in pipeline]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    for r in [header, *rows]:
        out.write("  ".join(f"{c:<{w}}" for c, w in zip(r, widths)) + f"  {r[-1]}\n")


def _languages() -> dict:
    """Every IL of both lanes by name, the front end's first."""
    from .spatial_pipeline import SPATIAL_LANGUAGES

    return {**LANGUAGES, **SPATIAL_LANGUAGES}


def _language(name: str, usage):
    languages = _languages()
    if name not in languages:
        raise usage(f"no language {name!r}; the languages are {', '.join(languages)}")
    return languages[name]
