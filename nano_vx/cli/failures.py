"""The one error channel: why a command stopped, other than its program's diagnostics, said
one way whatever went wrong. A failure has a kind and an exit status:

  usage        2   the command line cannot be carried out (an unknown option, a file that
                   cannot be read, an output that cannot be written or is an input)
  environment  1   the system failed the work under way (a full disk, a renderer that fails)
  internal     70  a bug in nano-vx
  interrupted  130 Ctrl-C

Under --error-format=json everything said on stderr is one JSON document: the command's
stderr is a JsonChannel, which keeps what the command writes (its diagnostics' document) and
what it records (--timing), and `document` adds the failure as `error`.
"""

from __future__ import annotations

import io
import json
import traceback
from dataclasses import dataclass, field
from typing import TextIO

from .options import EXIT_ERROR, EXIT_INTERNAL, EXIT_USAGE, ArgumentProblem, Usage
from .streams import OutputError

STATUS = {"usage": EXIT_USAGE, "environment": EXIT_ERROR, "internal": EXIT_INTERNAL,
          "interrupted": 130}
BUG = "nano-vx: this is a bug in nano-vx, not in your program\n"


@dataclass
class Failure:
    kind: str
    message: str
    # The lines a person reads, when they say more than `prog: error: message`.
    text: str | None = None
    data: dict = field(default_factory=dict)

    @property
    def status(self) -> int:
        return STATUS[self.kind]


def wants_json(parser, argv: list[str]) -> bool:
    """Whether the command line asks for --error-format=json, read before it is parsed, so
    that a command line that does not parse is refused in JSON too. A long option may be
    abbreviated (argparse reads --error-f=json), so any prefix of a flag that takes the
    format counts, and the last one given wins, as argparse reads it."""
    if "--error-format" not in parser.flags():
        return False
    chosen = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        flag, eq, value = word.partition("=")
        if len(flag) > 2 and "--error-format".startswith(flag):
            chosen = value if eq else (argv[i + 1] if i + 1 < len(argv) else "")
    return chosen == "json"


def classify(problem: Exception, prog: str) -> Failure:
    """The failure an exception that reached the command line is."""
    from ..driver import DumpError, InternalError, report_internal_error
    from ..dump.render import RenderError

    if isinstance(problem, ArgumentProblem):
        return Failure("usage", str(problem),
                       text=f"{problem.usage}{prog}: error: {problem}\n")
    if isinstance(problem, Usage):
        return Failure("usage", str(problem), text=f"{prog}: error: {problem}\n")
    if isinstance(problem, (OutputError, DumpError, RenderError, _certificate_error())):
        return Failure("environment", str(problem))
    if isinstance(problem, InternalError):
        text = io.StringIO()
        report_internal_error(problem, text)
        return Failure("internal", str(problem), text=text.getvalue(),
                       data={"pass": problem.pass_name, "ir_file": problem.ir_file})
    if isinstance(problem, _backend_bug()):
        message = f"internal compiler error in the back end: {problem}"
        return Failure("internal", message, data={"pass": "back end"},
                       text=f"nano-vx: {message}\n{BUG}")
    return _unexpected(problem)


def _backend_bug():
    from ..backend.errors import BackendBug

    return BackendBug


def _certificate_error():
    from ..spatial_backend.certify import CertificateError

    return CertificateError


def _unexpected(problem: Exception) -> Failure:
    """An exception outside any pass: a bug of the command itself, its traceback saved."""
    from ..driver import save_report

    message = f"internal compiler error: {type(problem).__name__}: {problem}"
    saved = save_report("nano-vx-ice-command.txt", "nano-vx internal compiler error\n\n"
                        + "".join(traceback.format_exception(problem)))
    where = f"nano-vx: the traceback is in {saved}\n" if saved else ""
    return Failure("internal", message, data={"ir_file": saved},
                   text=f"nano-vx: {message}\n{where}{BUG}")


def say_text(failure: Failure, stderr: TextIO) -> None:
    stderr.write(failure.text or f"nano-vx: error: {failure.message}\n")


class JsonChannel:
    """stderr under --error-format=json: nothing reaches the real stderr until `document`."""

    def __init__(self):
        self.parts: list[str] = []
        self.recorded: dict = {}

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False  # no progress lines, no colour: this is for a program to read

    def record(self, key: str, value) -> None:
        """A part of the document a command adds itself (--timing's `timings`)."""
        self.recorded[key] = value

    def document(self, failure: Failure | None) -> str:
        """The one document: the diagnostics the command wrote (none when it stopped
        before it had any), what it recorded, and the failure that stopped it."""
        from ..diagnostics import JSON_VERSION

        text = "".join(self.parts)
        doc, rest = _leading_document(text)
        if doc is None:
            doc = {"version": JSON_VERSION, "diagnostics": []}
        doc.update(self.recorded)
        if rest.strip():  # a line some part wrote as text: kept, never lost
            doc["messages"] = rest.strip().splitlines()
        if failure is not None:
            doc["error"] = {"kind": failure.kind, "message": failure.message,
                            "exit": failure.status, **failure.data}
        return json.dumps(doc, indent=2) + "\n"


def _leading_document(text: str) -> tuple[dict | None, str]:
    """The diagnostics' document the command wrote, and any text around it."""
    start = 0 if text.startswith("{") else text.find("\n{") + 1
    if text.startswith("{") or start > 0:
        try:
            doc, end = json.JSONDecoder().raw_decode(text, start)
        except ValueError:
            return None, text
        if isinstance(doc, dict) and "diagnostics" in doc:
            return doc, text[:start] + text[end:]
    return None, text
