"""A probe's label in the student's language: the English words around the code translated,
the code as written (``shown_label``).  Each way the probes word a label is one pattern and its
whole-label msgid, so a translation catalogue holds each as it stands."""

from __future__ import annotations

import functools
import re

from micrograph.i18n import N_, SOURCE_LANGUAGE, language

from grader.i18n import _

# A probe's label is code (``w.grad``, ``paths(y, w)``), or code inside English words: each
# pattern below is one way the probes word a label, and its whole-label msgid.  The parts
# captured are code, or labels worded the same ways (translated in their turn).  The patterns
# are compiled when a label is first shown in another language (``_label_forms``): an English
# grade never reads them, and compiling them cost every ``grade`` 27 M instructions.
_LABEL_FORMS = (
    # the build track's programs (ex16-ex22): code around a few words
    (r"importing (?P<name>\w+\.py)", N_("importing {name}")),  # the student's file run again (import_mode)
    (r"running the cells of (?P<name>\w+\.ipynb)", N_("running the cells of {name}")),  # a notebook's, so (lines_named)
    (r"each entry of (?P<name>\S+)", N_("each entry of {name}")),  # a matrix's every entry alike (cases)
    (r"reading (?P<label>.+) warns", N_("reading {label} warns")),
    (r"after (?P<call>.+?), reading (?P<label>\S+) warns", N_("after {call}, reading {label} warns")),
    (r"(?P<label>\S+) through (?P<method>\w+\.backward)", N_("{label} through {method}")),
    (r"the number of nodes (?P<call>\S+) ran local_grads on", N_("the number of nodes {call} ran local_grads on")),
    (r"backward through (?P<graph>\w+ = .+)", N_("backward through {graph}")),
    (r"the list of the nodes of (?P<graph>\w+ = .+), in the order backward ran them",
     N_("the list of the nodes of {graph}, in the order backward ran them")),
    (r"(?P<value>\S+) for (?P<graph>\w+ = .+)", N_("{value} for {graph}")),
    (r"the first (?P<call>\S+\(\)), (?P<graph>\w+ = .+)", N_("the first {call}, {graph}")),
    (r"(?P<call>\w+\.backward\(\)), (?P<graph>\w+ = .+ \((?=[^()]*[a-z]{2})[^()]*\))", N_("{call}, {graph}")),
     # y.backward(), y = ... (a note in words): the note translated (``shown_graph``), the rest code
    (r"(?P<call>\S.*?\(\)) after (?P<steps>.+) adds to (?P<value>\S+)", N_("{call} after {steps} adds to {value}")),
    (r"a second (?P<call>\S+) after (?P<steps>.+)", N_("a second {call} after {steps}")),
    (r"a third (?P<call>\S+) after (?P<steps>.+)", N_("a third {call} after {steps}")),
    (r"(?P<when>inside no_grad|outside no_grad, c = Value\(2\)|after the block|after a no_grad block with another "
     r"nested in it|inside no_grad, after a nested no_grad block ended|inside a no_grad block nested in another|"
     r"after a no_grad block that raised|inside a no_grad block, after a y\.backward\(\) in it|"
     r"after z = w \* 3; z\.zero_\(\)|after c = Value\(4\); c\.zero_\(\)|after d = w\.detach\(\)|"
     r"after d = w\.detach\(\); d\.add_\(1\)|after v = Value\(2\); v\.add_\(1\)|"
     r"after c = Value\(-4\); c\.add_\(w\)|after e = h\.detach\(\), h = x \* 3|"
     r"after y = w \* 3; y\.add_\(y\)|after c = Value\(2\); c\.requires_grad = True|"
     r"after w \* 3; w\.requires_grad = False|"
     r"after y = w \* 2; y\.zero_\(\) under no_grad|after y = w \* 2; y\.add_\(1\) under no_grad): "
     r"(?P<label>.+)", N_("{when}: {label}")),
    (r"with (?P<name>\w+) = 0: (?P<label>.+)", N_("with {name} = 0: {label}")),  # a product's zero factor (ex16)
    (r"(?P<call>.+) on a leaf that requires grad", N_("{call} on a leaf that requires grad")),
    (r"(?P<call>(?:(?! after ).)+) under no_grad", N_("{call} under no_grad")),
    (r"the list of operands that (?P<what>\S+) saved, after (?P<steps>.+)",
     N_("the list of operands that {what} saved, after {steps}")),
    (r"the list of operands that (?P<what>.+) saved", N_("the list of operands that {what} saved")),
    (r"(?P<what>\S+) is released by (?P<call>\S+\(\)), (?P<graph>\w+ = .+)", N_("{what} is released by {call}, {graph}")),
    (r"(?P<what>\S+|\(.+\)\.grad_fn) saved (?P<source>\S+|\(.+\)) itself as (?P<name>\"\w+\")",
     N_("{what} saved {source} itself as {name}")),
    (r"(?P<call>.+) on a Value that requires no grad", N_("{call} on a Value that requires no grad")),
    (r"the order the hooks of (?P<names>.+) ran in", N_("the order the hooks of {names} ran in")),
    (r"the hooks on (?P<name>\w+) ran during (?P<call>.+)", N_("the hooks on {name} ran during {call}")),
    (r"the gradient the hook (?P<name>.+) received", N_("the gradient the hook {name} received")),
    (r"the backward of y = w \* 3 whose hook on w raises (?P<name>\w+)",
     N_("the backward of y = w * 3 whose hook on w raises {name}")),
    (r"(?P<value>\S+) is None or a Value like (?P<name>\S+)", N_("{value} is None or a Value like {name}")),
    (r"after (?P<steps>.+), only (?P<node>\S+)'s run wrote (?P<value>\S+)",
     N_("after {steps}, only {node}'s run wrote {value}")),  # a retained gradient written by its own node (ex18)
    (r"the backward of (?P<graph>.+) after (?P<reset>.+) gives (?P<value>\S+) the number the first gave",
     N_("the backward of {graph} after {reset} gives {value} the number the first gave")),
    (r"the (?P<nth>first|second|third|fourth) backward of (?P<graph>[^(]+) "
     r"\((?P<reset>.+) before the third\)",
     N_("the {nth} backward of {graph} ({reset} before the third)")),
    (r"the (?P<nth>first|second|third|fourth) backward of (?P<graph>[^(]+)",
     N_("the {nth} backward of {graph}")),
    (r"(?P<value>\S+) \(after (?P<call>[^()=]+ \+?= [^()]+)\)", N_("{value} (after {call})")),  # a2 (after a += 1)
    (r"(?P<value>\S+) \((?P<note>[a-z][^=()]*)\)", N_("{value} ({note})")),
    (r"(?P<value>\S+) \((?P<note>[a-z][^()]*; [^()]*)\)", N_("{value} ({note})")),  # several cases, w == x among them
    (r"(?P<value>\S+) \((?P<note>[a-z][^()]*, \w+ == \w+)\)", N_("{value} ({note})")),  # flags, w == x: one note
    (r"(?P<value>[^\s(]+(?:\([^()]*\))?(?: (?:from|through) \S+)?) \((?P<note>(?:(?:[a-z]+ [<=>] [a-z0-9]+(?: < [a-z]+)?|x far below 0)(?:; )?)+)\)",
     N_("{value} ({note})")),
    (r"(?P<value>[^\s(]+\([^()]*\)) \((?P<note>[a-z][^()]*)\)", N_("{value} ({note})")),  # a call and its cases' notes
    (r"(?P<value>[^\s(]+\([^()]*\)) \((?P<note>[a-z][^()]*)\)(?P<index>(?:\[[^\]]+\])+)",
     N_("{value} ({note}){index}")),  # an entry of what the call returned
    (r"the error for (?P<label>.+)", N_("the error for {label}")),
    (r"for (?P<name>\w+) = (?P<graph>.+), (?P<what>[A-Za-z_][\w.]*\(.*\)(?:\[.*\])*)",
     N_("for {name} = {graph}, {what}")),
    (r"the error (?P<call>\w+\(.*\)) returned", N_("the error {call} returned")),
    (r"the (?P<name>\w+) given to (?P<call>\w+\(.*\))", N_("the {name} given to {call}")),
    (r"the (?P<name>\w+) given to an earlier call of (?P<call>\w+)", N_("the {name} given to an earlier call of {call}")),
    (r"the (?P<name>[\w.]+) returned", N_("the {name} returned")),
    (r"the leaf (?P<name>\w+) you were given", N_("the leaf {name} you were given")),
    (r"(?P<call>\w+)'s backward", N_("{call}'s backward")),  # the graph a function's first pass walked
    (r"a node below its root", N_("a node below its root")),
    (r"a node below (?P<label>.+)", N_("a node below {label}")),
    (r"\[(?P<index>[^\]]+)\] of (?P<label>.+)", N_("[{index}] of {label}")),
    (r"(?P<value>[^ ]+) from (?P<source>[^ ]+)", N_("{value} from {source}")),
    (r"(?P<value>\S+) after (?P<steps>a (?:second|third) .+)", N_("{value} after {steps}")),  # w.grad after a second ...
    (r"(?P<value>.+?) after (?P<call>[^ ]+)", N_("{value} after {call}")),
    (r"(?P<value>.+?\(\)) after (?P<steps>adding through .+)", N_("{value} after {steps}")),  # steps in words
    (r"(?P<value>.+?\(\)) after (?P<call>.+)", N_("{value} after {call}")),  # a program's step after the ones before
    (r"(?P<value>.+?) before (?P<call>[^ ]+)", N_("{value} before {call}")),
    (r"(?P<value>[^ ]+(?: nodes)?) in (?P<where>.+)", N_("{value} in {where}")),
    (r"(?P<value>grad\(grad\(.+\)) in (?P<where>\w+ = .+)", N_("{value} in {where}")),  # a second derivative
    (r"(?P<value>\S+) after backward through (?P<chain>.+)", N_("{value} after backward through {chain}")),
    (r"(?P<value>\S+(?: (?:is|==) \S+)?) after (?P<steps>.+)", N_("{value} after {steps}")),
    (r"(?P<value>[^,]+?) is (?P<name>\w+), (?P<graph>\w+ = .+)", N_("{value} is {name}, {graph}")),  # c + 0 is c, c = ...
    (r"(?P<call>\S+\)) is (?P<label>\S+)", N_("{call} is {label}")),  # w.detach() is w: what the call returned
    (r"(?P<value>\S+) is (?P<label>\S+)", N_("{value} is {label}")),  # a.grad is g: one object
)


@functools.cache
def _label_forms() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(pattern), msgid) for pattern, msgid in _LABEL_FORMS)


_CODE_PARTS = ("graph", "what", "source", "call", "where", "name", "names", "reset")  # told as written, not translated


def shown_label(label: str) -> str:
    """A probe's label (``w.grad``, ``the error returned``, ``for y = w * x, paths(y, w)``) in
    the student's language: the words around the code translated, the code as written."""
    if label == "the error returned":
        return _("the error returned")
    if language() == SOURCE_LANGUAGE:
        return _case_notes(label) if CASES in label else label
    whole = _(label)
    if whole != label:  # a probe's wording the catalogue translates whole: never split by a pattern
        return whole
    for pattern, msgid in _label_forms():
        found = pattern.fullmatch(label)
        if found is not None:
            parts = {k: shown_graph(v) if k == "graph" else _names_listed(v) if k == "names" else v if k in _CODE_PARTS
                     else _notes(v) if k == "note" else shown_label(v) for k, v in found.groupdict().items()}
            return _(msgid, **parts)
    return _(label)  # code as written; a fixed wording of a probe's is a msgid of its own


_LISTED = re.compile(r"[\w.]+(?:, [\w.]+)* and [\w.]+")  # names a probe listed in English: "a, b and w"


def _names_listed(names: str) -> str:
    """Names a probe listed in English ("a, b, c, d and w"), listed as the student's language lists
    them (Chinese: "a、b、c、d、w"), the names as written; anything else as written."""
    if _LISTED.fullmatch(names) is None:
        return names
    parts = re.split(r", | and ", names)
    if len(parts) == 2:
        return _("{first} and {last}", first=parts[0], last=parts[1])
    return _("{notes}, and {last}", notes=_(", ").join(parts[:-1]), last=parts[-1])


_GRAPH_NOTE = re.compile(r"(?P<graph>.+) \((?P<note>[^()]*[a-z]{2}[^()]*)\)")  # "w * w + x (w at zero)"


def shown_graph(graph: str) -> str:
    """A graph as written (``y = w * x``), and the note after it in the student's language
    (``w * w + x (w at zero)``: which case of the graph it is); a note without words, or code
    (``(w == x)``, ``(w * x)``), as written."""
    found = _GRAPH_NOTE.fullmatch(graph)
    if found is None or language() == SOURCE_LANGUAGE:
        return graph
    return _("{value} ({note})", value=found.group("graph"), note=_(found.group("note")))  # zh: full-width


CASES = "; "  # between the notes of several cases a difference was seen in ("y (x > 0; x = 0)")
# "y (x = 0)", "x.grad through Clip.backward (x = low)", "Clip.apply(x, low, high) (x = low)": a Value
# or a call, and a note on which case it is of (or the notes of several: ``cases.cases_merged``)
CASE_NOTE = re.compile(r"(?P<base>[^\s(]+(?:\([^()]*\))?(?: (?:from|through) \S+)?) \((?P<note>[^()]*)\)")


def _notes(note: str) -> str:
    """A label's note in the student's language: one note, or the notes of several cases a
    difference was seen in (``x > 0; x = 0``, ``cases.cases_merged``), each translated and
    listed as a sentence lists them ("first and second call"; "w at zero, at the limit, and above
    it").  Conditions on a number are joined by "or" ("x < low or x > high"): "and" would read as
    one condition both hold, where each case meets one of them."""
    parts = [shown_label(part) for part in note.split(CASES)]
    if len(parts) == 1:
        return parts[0]
    if any(", " in part or "，" in part for part in parts):  # a note of its own list: "and" would split it
        return _("; ").join(parts)  # "x without grad; x without grad, w == x"
    if all(_CONDITION.search(part) for part in parts):  # each whole: "x = low or x = high", not "x = low and high"
        if len(parts) == 2:
            return _("{first} or {last}", first=parts[0], last=parts[1])
        return _("{notes}, or {last}", notes=_(", ").join(parts[:-1]), last=parts[-1])
    if language() == SOURCE_LANGUAGE:
        parts = _one_word_apart(parts)
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:  # "first and second call": a comma before "and" only in a list of three or more
        return _("{first} and {last}", first=parts[0], last=parts[1])
    return _("{notes}, and {last}", notes=_(", ").join(parts[:-1]), last=parts[-1])


_CONDITION = re.compile(r" (?:[<>]=?|=) ")  # "x < low", "x = 0": a case told by a comparison


def _one_word_apart(notes: list[str]) -> list[str]:
    """English notes that differ in one word only, said once with the words listed ("first
    call", "second call": "first and second call"; "w at the limit", "w above the limit": "w at
    and above the limit"); the notes as they are otherwise (a sign or a number is no word)."""
    words = [note.split(" ") for note in notes]
    apart = {i for i in range(len(words[0])) if len({len(w) for w in words}) == 1
             and len({w[i] for w in words}) > 1}
    if len(apart) != 1 or not all(w[min(apart)].isalpha() for w in words):
        return notes
    at = apart.pop()
    listed = ", ".join(w[at] for w in words[:-1]) + " and " + words[-1][at]
    return [" ".join([*words[0][:at], listed, *words[0][at + 1:]])]


def _case_notes(label: str) -> str:
    """An English label whose note lists several cases, the cases listed as a sentence does."""
    case = CASE_NOTE.fullmatch(label)
    if case is None or CASES not in case.group("note"):
        return label
    return f"{case.group('base')} ({_notes(case.group('note'))})"


LABEL_FIELDS = ("label", "of", "where", "leaf", "partner")  # the fields of a sentence that hold a probe's label, not a value
_NOT_A = re.compile(r"not (?P<what>an? [\w ]+): (?P<type>[\w.]+)")
# A build-track Value whose item() gives no Python number (``grader.spec.build_reads.number``).
_ITEM_NOT_A = re.compile(r"not a number: its item\(\) returns (?P<type>[\w.]+)")
# What a probe asked a result to be ("not a number: NoneType"), in the student's language: each
# kind a probe names, so that no English word is left in a translated sentence.
_KINDS = {"a number": N_("a number"), "a Value": N_("a Value"), "a list": N_("a list"), "a dict": N_("a dict"),
          "a bool": N_("a bool"), "an int": N_("an int"), "a tuple": N_("a tuple"), "a list of rows": N_("a list of rows"),
          "a list of str": N_("a list of str"), "a dict with keys w and x": N_("a dict with keys w and x"),
          "an exception": N_("an exception")}


def shown_fields(fields: dict[str, str]) -> dict[str, str]:
    """A sentence's fields in the student's language: its labels shown (``shown_label``), and a
    probe's "not a list: NoneType" with its words translated, the type as written; None is told
    as None, the value a function without a ``return`` gives, not by its class's name."""
    shown = {name: shown_label(text) if name in LABEL_FIELDS else shown_graph(text) if name == "root" else text
             for name, text in fields.items()}  # a graph's note in words ("w at zero") translated
    item = _ITEM_NOT_A.fullmatch(shown.get("type", ""))
    if item is not None:
        shown["type"] = _("not a number: its item() returns {type}", type=item.group("type"))
    kind = _NOT_A.fullmatch(shown.get("type", ""))
    if kind is not None:
        what = _(_KINDS[kind.group("what")]) if kind.group("what") in _KINDS else kind.group("what")
        shown["type"] = (_("None, not {what}", what=what) if kind.group("type") == "NoneType"
                         else _("of type {type}, not {what}", what=what, type=kind.group("type")))
    return shown
