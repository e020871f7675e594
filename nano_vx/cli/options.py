"""What the commands share: the parser each builds, the usage error, options taken once, and
the options two or more commands take (each command adds only the groups that apply to it)."""

from __future__ import annotations

import argparse
import os
from typing import TextIO

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70


class Usage(Exception):
    """A command line that parses but cannot be carried out; exit status 2."""


class ArgumentProblem(Usage):
    """What argparse refuses (an unknown option, a bad choice): the usage lines come first in
    the text form, as argparse prints them."""

    def __init__(self, message: str, usage: str):
        super().__init__(message)
        self.usage = usage


class Parser(argparse.ArgumentParser):
    """One command's parser. It can list its option strings, so that an option given to the
    wrong command is refused naming the commands that take it."""

    def __init__(self, prog: str, description: str):
        super().__init__(prog=prog, description=description,
                         formatter_class=argparse.RawDescriptionHelpFormatter)

    def flags(self) -> list[str]:
        return [flag for action in self._actions for flag in action.option_strings]

    def refuse_empty(self, args) -> None:
        """An option given an empty value (`-o ''`, `--passes=`) is a usage error: taken as
        given it would mean the default, or nothing, silently."""
        for action in self._actions:
            value = getattr(args, action.dest, None)
            if action.option_strings and isinstance(value, str) and not value.strip():
                raise Usage(f"{'/'.join(action.option_strings)} was given an empty value")

    def error(self, message: str):
        """What argparse refuses is a Usage the command line reports, in text or JSON."""
        raise ArgumentProblem(message, self.format_usage())


class Once(argparse.Action):
    """An option that takes one value: given twice, a usage error naming both values, since
    keeping the last would silently drop the first (--machine A --machine B checks only B)."""

    def __call__(self, parser, namespace, value, option_string=None):
        earlier = getattr(namespace, self.dest)
        if earlier is not None:
            raise argparse.ArgumentError(
                self, f"given twice ({earlier!r} and {value!r}); it takes one value per run")
        setattr(namespace, self.dest, value)


class Joined(argparse.Action):
    """A list of passes that may be given more than once: each list joins the earlier ones
    (--dump-after=a --dump-after=b dumps after both, not after b alone)."""

    def __call__(self, parser, namespace, value, option_string=None):
        if not value.strip():
            raise Usage(f"{'/'.join(self.option_strings)} was given an empty value")
        earlier = getattr(namespace, self.dest)
        setattr(namespace, self.dest, value if earlier is None else f"{earlier},{value}")


def whole(low: int, high: int, unit: str = ""):
    """A whole number from `low` to `high`: the option's documented range."""
    kind = {0: "non-negative", 1: "positive"}.get(low, f"{low:,} or more,")
    of = f"{unit}, " if unit else ""

    def read(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"expected a {kind} whole number, not {text!r} "
                                             f"({of}at most {high:,})")
        return int(text)
    return read


def one_pass(text: str) -> str:
    """A pass's name: --stop-after=a,b would stop after neither."""
    if "," in text:
        raise argparse.ArgumentTypeError(f"names one pass, not a list: {text!r}")
    return text.strip()


# --contract-timeout-ms: z3's time per proof, at most ten minutes (a program has many).
CONTRACT_TIMEOUT_MS = 600_000


def add_machine_files(group) -> None:
    """--machine and --host: `nano-vx FILE` and `nano-vx explore`."""
    group.add_argument("--machine", metavar="FILE", action=Once,
                       help="add a machine file's Memory and Topology declarations (e.g. "
                            "machines/h100-sxm.vx); without one the built-in model is used. "
                            "One per run: to check against several, run once per machine")
    group.add_argument("--host", metavar="FILE|default", action=Once,
                       help="add a host file's declarations; `default` declares "
                            "`Memory CPU_DRAM { managed: explicit }`")


def add_target(group, help_text: str) -> None:
    """--target: `nano-vx spatial` and, for a spatial program, `nano-vx explore`."""
    group.add_argument("--target", metavar="NAME|FILE", action=Once, help=help_text)


def add_no_verify(group) -> None:
    group.add_argument("--no-verify", action="store_true",
                       help="skip checking each pass's output against its IL (faster; "
                            "never used by the tests)")


def add_timing(group) -> None:
    group.add_argument("--timing", action="store_true",
                       help="print the time of each pass on stderr")


def add_error_format(group) -> None:
    group.add_argument("--error-format", choices=["human", "json"], default="human",
                       help="how diagnostics are printed on stderr")


def add_color(group) -> None:
    group.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                       help="colour the diagnostics as rustc does: always, never, or when "
                            "stderr is a terminal (default auto; NO_COLOR in the environment "
                            "turns auto off)")


def add_dumps(parser: Parser, explanation: str) -> None:
    """The dump options, which `nano-vx FILE` and `nano-vx spatial` take with their own
    passes' names; `explanation` says what a dump looks like and how it reads back there."""
    dump = parser.add_argument_group("dumping the IR", explanation)
    dump.add_argument("--dump-after", metavar="PASS[,PASS]|all", action=Joined,
                      help="print the IR after these passes")
    dump.add_argument("--dump-before", metavar="PASS[,PASS]|all", action=Joined,
                      help="print the IR before these passes")
    dump.add_argument("--dump-changed", action="store_true",
                      help="with --dump-after, only passes that changed the IR (implies "
                           "--dump-after=all when that is not given)")
    dump.add_argument("--dump-diff", action="store_true",
                      help="print a unified diff of each dumped pass's input and output "
                           "text instead of the whole IR (implies --dump-after=all when "
                           "that is not given)")
    dump.add_argument("--dump-dir", metavar="DIR",
                      help="write each dump to its own file in DIR, named by its pass "
                           "(implies --dump-after=all when no pass is named)")
    dump.add_argument("--dump-format", metavar="FORMAT[,FORMAT]", type=dump_formats,
                      default=("text",),
                      help="text (default), Graphviz dot, dot rendered to SVG, or JSON; "
                           "several (text,dot,json) with --dump-dir write a file in each "
                           "from one run")


DUMP_FORMATS = ("text", "dot", "svg", "json")


def dump_formats(text: str) -> tuple[str, ...]:
    """--dump-format: one format or several, in DUMP_FORMATS's order (svg draws the dot text
    the dot format made, rather than making it again)."""
    named = [name.strip() for name in text.split(",")]
    unknown = [name for name in named if name not in DUMP_FORMATS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"no format {', '.join(map(repr, unknown))}; the formats are "
            f"{', '.join(DUMP_FORMATS)} (several joined by commas)")
    if len(set(named)) != len(named):
        raise argparse.ArgumentTypeError(f"names a format twice: {text!r}")
    return tuple(name for name in DUMP_FORMATS if name in named)


def wants_color(choice: str, stderr: TextIO) -> bool:
    """--color: `auto` is a terminal on stderr that has not asked for none (NO_COLOR, or
    TERM=dumb)."""
    if choice != "auto":
        return choice == "always"
    return (stderr.isatty() and not os.environ.get("NO_COLOR")
            and os.environ.get("TERM") != "dumb")
