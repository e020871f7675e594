"""Struct and enum values. A struct is a name and its fields, immutable: assigning a field
makes a new value, so a struct is copied by value, as a Rust struct of plain data is."""

from __future__ import annotations


class StructValue:
    __slots__ = ("name", "fields")

    def __init__(self, name: str, fields: dict):
        self.name, self.fields = name, fields  # field name -> value, in declaration order

    @property
    def kind(self) -> str:  # what `describe` names it
        return self.name

    def with_field(self, field: str, value) -> "StructValue":
        return StructValue(self.name, {**self.fields, field: value})


class EnumValue:
    """`Shape::Circle(1.5)`: a variant of an enum and the values it carries."""

    __slots__ = ("enum", "variant", "args")

    def __init__(self, enum: str, variant: str, args: tuple):
        self.enum, self.variant, self.args = enum, variant, args

    @property
    def kind(self) -> str:
        return self.enum
