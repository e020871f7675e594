"""Print a language flat, and print what changed between two languages."""

from __future__ import annotations

from .language import Language


def show_language(lang: Language) -> str:
    lines = [f"language {lang.name}" + (f" (extends {lang.parent.name})" if lang.parent else "")]
    if lang.doc:
        lines.append(f"  -- {lang.doc}")
    lines.append(f"  entry {lang.entry}")
    lines.append("  terminals")
    width = max((len(t) for t in lang.terminals), default=0)
    for t in lang.terminals.values():
        lines.append(f"    {t.name:<{width}}  {t.doc}".rstrip())
    for nt in lang.nonterminals.values():
        inc = f"  (includes {', '.join(nt.includes)})" if nt.includes else ""
        lines.append(f"  {nt.name} ::={inc}")
        for p in nt.productions:
            lines.append(f"    {p.signature()}")
    return "\n".join(lines) + "\n"


def _entries(lang: Language) -> dict[str, str]:
    out = {f"terminal {t}": f"terminal {t}" for t in lang.terminals}
    for nt in lang.nonterminals.values():
        for p in nt.productions:
            out[f"{nt.name}.{p.name}"] = f"{nt.name} ::= {p.signature()}"
        for inc in nt.includes:
            out[f"{nt.name}<{inc}"] = f"{nt.name} ::= {inc} (included)"
    return out


def diff_languages(a: Language, b: Language) -> str:
    """'-' lines for what `a` has and `b` lacks, '+' for the reverse; a changed production
    shows as both."""
    ea, eb = _entries(a), _entries(b)
    lines = [f"--- {a.name}", f"+++ {b.name}"]
    if b.doc:
        lines.append(f"  -- {b.doc}")
    for key in ea:
        if key not in eb or ea[key] != eb[key]:
            lines.append(f"- {ea[key]}")
        if key in eb and ea[key] != eb[key]:
            lines.append(f"+ {eb[key]}")
    for key in eb:
        if key not in ea:
            lines.append(f"+ {eb[key]}")
    if len(lines) == 2 + bool(b.doc):
        lines.append("  (no difference)")
    return "\n".join(lines) + "\n"
