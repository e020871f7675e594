"""Ltraitless: Lhoisted without Trait, FnSig and ImplFor; an impl of a trait is an impl of its type, and a struct says whether it is `Copy`."""

from __future__ import annotations

from ..nanopass import prod
from .lhoisted import Lhoisted

Ltraitless = Lhoisted.extend(
    "Ltraitless",
    "Lhoisted without traits: `impl T for S` is `impl S` with T's default methods, and a "
    "struct says whether it is Copy",
    remove={"Item": ["Trait", "FnSig", "ImplFor", "StructDecl"]},
    add={"Item": [prod("StructDecl", "name: name, fields: Param*, generics: GParam*, copy: bool",
                       "copy: the program implements `Copy` for it, so a use copies it; "
                       "otherwise passing it by value moves it")]},
)
