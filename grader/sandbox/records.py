"""What one child run reports, as the parent keeps it (``ChildReport``), and the records of its
wire sorted into it (``parse_records``): strictly, in the protocol's order, each text made safe to
show (``grader.sandbox.text``).  A malformed, repeated or misplaced record marks the channel as
tampered with.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass, field
from typing import Any

from grader.sandbox import isolation
from grader.sandbox.child import wire
from grader.sandbox.child.wire import TOUCHES, DiagramRecord, ErrorRecord, ProbeRecord, Touch
from grader.sandbox.reach import Reach
from grader.sandbox.text import clean
from grader.spec.limits import Limits

MESSAGE_LIMIT = 2_000  # an exception message shown as feedback


@dataclass
class ChildReport:
    """Everything one child run produced, as untrusted plain data plus how the child ended.

    The records passed ``wire.decode`` and the protocol's order; what they mean, and why a test
    that never reported stayed silent, is for ``grader.judge`` to say.
    """

    limits: Limits
    tests: dict[str, ProbeRecord] = field(default_factory=dict)
    import_error: ErrorRecord | None = None
    diagram: DiagramRecord | None = None
    layers: list[str] = field(default_factory=list)
    isolation: str = ""
    refused: str | None = None  # the child did not run the submission: why
    done: bool = False
    stdout: str = ""
    stdout_lines: int = 0  # lines printed in all, counted before the cap
    stdout_dropped: int = 0  # bytes past the cap, not kept
    returncode: int | None = None
    timed_out: bool = False
    tampered: str | None = None
    touched: list[Touch] = field(default_factory=list)  # what the child's sentinel blocked
    reached: list[Reach] = field(default_factory=list)  # what the source names (``reach``)
    elapsed: float = 0.0
    worker_code: int | None = None  # how the process that ran the submission ended, if said
    ran_as: str = ""  # the scratch copy's path the child imported: what it printed names the file so
    imported: bool = False  # the child said how importing the submission went (it got that far)
    exits: dict[str, int] = field(default_factory=dict)  # a test its worker ended itself in: the status
    diagram_exit: int | None = None  # the status its worker ended itself with while drawing the diagram

    def settle(self, code: int | None) -> None:
        """The child's exit status: ``code`` (the process the grader started or waited for),
        unless that process ended normally after saying how its worker ended."""
        self.returncode = self.worker_code if code == 0 and self.worker_code is not None else code

    @property
    def signal(self) -> str | None:
        """The name of the signal that ended the child ("SIGKILL"), if one did."""
        code = self.returncode
        return None if code is None or code >= 0 else signal_name(-code)


def signal_name(number: int) -> str:
    """``SIGKILL``, ``SIGRTMIN+3``, or ``signal 99``: never fails, whatever the number."""
    try:
        return signal.Signals(number).name
    except ValueError:
        pass
    low, high = getattr(signal, "SIGRTMIN", 0), getattr(signal, "SIGRTMAX", -1)
    return f"SIGRTMIN+{number - low}" if low <= number <= high else f"signal {number}"


def _required_layers(mode: isolation.Mode) -> tuple[str, ...]:
    """The layers a child of ``mode`` must claim, by prefix: its namespaces, or its own uid
    wherever it drops to one (``uid+seccomp``, and ``limits only`` as root)."""
    if mode == isolation.NAMESPACES:
        return ("namespaces:", "uid:")
    return ("uid:",) if isolation.drops_uid(mode) else ()


def _clean_error(error: dict[str, Any] | None) -> dict[str, Any] | None:
    """An error record with its text made safe to show (see ``grader.sandbox.text``)."""
    if error is None:
        return None
    function, caller = error["function"], error["caller"]
    return {"type": clean(error["type"], wire.MAX_NAME),
            "message": clean(error["message"], MESSAGE_LIMIT),
            "function": None if function is None else clean(function, wire.MAX_NAME),
            "caller": None if caller is None else clean(caller, wire.MAX_NAME),
            "line": error["line"],
            "step": None if error["step"] is None else clean(error["step"], wire.MAX_NAME),
            "fresh": error["fresh"]}


def parse_records(data: bytes, report: ChildReport, tests: list[str]) -> None:
    """Sort the records into the report.  They must follow the protocol's order (confined or
    refused, import, diagram?, the tests in the order asked, done, then how the worker ended);
    a malformed, repeated or misplaced record, or the relay's ``tampered``, marks the channel
    as tampered with, which forfeits every test of the run.
    A child that does not claim the isolation the grader announced ran nothing it counts."""
    stage, asked = "start", iter(tests)
    for line in data.splitlines():
        try:
            record = wire.decode(line)
        except wire.WireError as exc:
            report.tampered = report.tampered or f"malformed record: {exc}"
            continue
        kind = record["kind"]
        if "error" in record:
            record["error"] = _clean_error(record["error"])
        if kind == "refused" and stage == "start":
            report.refused = ("the sandbox could not be set up: "
                              f"{clean(record['reason'], wire.MAX_NAME)}")
            stage = "done"
        elif kind == "confined" and stage == "start":
            report.layers = [clean(x, wire.MAX_NAME) for x in record["layers"]]
            stage = "confined"
            for prefix in _required_layers(report.isolation):
                if not any(x.startswith(prefix) for x in report.layers):
                    report.refused = f"the sandbox did not apply {report.isolation}"
        elif kind == "import" and stage == "confined":
            report.import_error, report.imported = record["error"], True
            stage = "imported" if report.import_error is None else "failed"
        elif kind == "diagram" and stage == "imported" and report.diagram is None:
            report.diagram = record
        elif kind == "test" and stage == "imported" and record["name"] == next(asked, None):
            report.tests[record["name"]] = record
        elif kind == "done" and stage in ("imported", "failed"):
            report.done, stage = True, "done"
        elif kind == "tampered" and stage not in ("start", "ended"):
            report.tampered = report.tampered or clean(record["reason"], wire.MAX_NAME)
            stage = "done"
        elif kind == "flagged" and stage not in ("start", "ended"):
            report.touched += [TOUCHES[t] for t in record["touched"] if TOUCHES[t] not in report.touched]
        elif kind == "ended" and stage not in ("start", "ended"):
            report.worker_code, stage = record["code"], "ended"
        else:
            report.tampered = report.tampered or f"unexpected {kind} record"
