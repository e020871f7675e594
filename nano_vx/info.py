"""`--list-passes`, `--list-languages`, `--show-language`, `--diff-language`."""

from __future__ import annotations

from typing import TextIO

from .nanopass import diff_languages, show_language
from .pipeline import LANGUAGES, PIPELINE


def show(args, out: TextIO, usage) -> int:
    if args.list_passes:
        rows = [(p.name, p.input.name if p.input else "text", p.output.name, p.summary)
                for p in PIPELINE]
        widths = [max(len(r[i]) for r in rows + [("pass", "input", "output", "")])
                  for i in range(3)]
        out.write(f"{'pass':<{widths[0]}}  {'input':<{widths[1]}}  {'output':<{widths[2]}}  "
                  "summary\n")
        for r in rows:
            out.write(f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:<{widths[2]}}  {r[3]}\n")
    if args.list_languages:
        for lang in LANGUAGES.values():
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


def _language(name: str, usage):
    if name not in LANGUAGES:
        raise usage(f"no language {name!r}; the languages are {', '.join(LANGUAGES)}")
    return LANGUAGES[name]
