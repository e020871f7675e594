"""The spatial lane: targets, the text form of its ILs, tile semantics, shared helpers."""


def is_spatial_program(node) -> bool:
    """Is `node` the Graph of a spatial IL (whose dumps have forms of their own)?"""
    if getattr(node, "_prod", None) != "Graph":
        return False
    from .text import LANGUAGES

    return type(node)._language in LANGUAGES
