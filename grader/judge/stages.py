"""The build track's sentences about another stage (``grader.spec.build``'s EarlierStage and
ThisStage), in the student's language.

The child words them in English: the program an earlier stage's check runs, what that check
found, and the error raised, quoted as the student's engine worded it (``build.quoted``).  The
first two are msgids marked in ``grader.spec.build`` and translated here; the quoted error is
shown as it came.
"""

from __future__ import annotations

import ast
import re

from micrograph.i18n import N_

from grader.i18n import _, sentences
from grader.sandbox.child.wire import ErrorRecord
from grader.spec.build import BORN_RELEASED, CLEARED, CONSTANT_REFUSED, EQUAL, KEPT, LEFT_OFF, NUMBER, ONE_COUNTER, RAISED, \
    SHARED, STUCK, TAKEN, UNPACKED
from grader.spec.buffer_keys import KEYED
from grader.spec.build_checks import FAULT_IN, PROGRAMS
from grader.spec.build_parts import PARTS
from grader.spec.raised import SECOND_BACKWARD

_BACKWARD_ITSELF = ("backward", "Value.backward")  # where a release refused before apply is raised
_NUMBER = re.compile(r"\d")  # a test's line with a number in it may hold a hidden input: not shown

_RAISED = re.compile(re.escape(RAISED).replace(r"\{error\}", "(?P<error>.+)"), re.DOTALL)

_RECORDS = ("gradient_edge", "record", "recording", "Value.__mul__")  # what every check's products run
_BACKWARD = (*_RECORDS, "backward", "dependencies", "store_grad", "AccumulateGrad.apply", "MulBackward0.apply",
             "Node.release", "Node.unpack", "run_hooks")
# The functions each stage's check (``grader.spec.build.CHECKS``) runs in the reference engine of
# every later stage (``tests/grader/test_build_errors.py`` watches them run): ex16's records
# operations only, so no backward written since can make it fail.
CHECK_RUNS: dict[str, frozenset[str]] = {
    "ex16": frozenset((*_RECORDS, "Value.__add__", "Value.is_leaf")),
    "ex17": frozenset((*_BACKWARD, "Value.__add__", "AddBackward0.apply", "Value.grad", "Value.is_leaf")),
    "ex18": frozenset((*_BACKWARD, "Value.grad", "Value.is_leaf", "Value.retain_grad")),
    "ex19": frozenset((*_BACKWARD, "Value.grad", "Value.is_leaf", "Value.zero_", "check_in_place", "Value.__add__",
                       "AddBackward0.apply", "Value.retain_grad")),
    "ex20": frozenset((*_BACKWARD, "Value.__add__", "AddBackward0.apply", "Value.grad", "Value.is_leaf",
                       "Value.retain_grad")),
    "ex21": frozenset((*_RECORDS, "backward", "dependencies", "MulBackward0.apply", "Node.unpack", "run_hooks",
                       "Value.is_leaf", "Value.add_", "Value.data", "Value.detach", "check_in_place", "rebase",
                       "Value.__add__", "Value.zero_")),
}


def earlier_stage(stage: str, display: str, problem: str, exercise: str | None = None,
                  error: ErrorRecord | None = None, where: str = "") -> str:
    """``EarlierStage``: ``stage``'s part of the engine fails its check with ``problem``.  An
    error raised in a function of a later stage (this one's ``Value.retain_grad``, ex19's
    ``store_grad`` pasted into ex20) is that stage's, told with ``where`` it came from
    (`` (in backward, line 12)``).  Otherwise, when a later stage rewrote some of ``stage``'s
    functions in this file (ex19's ``store_grad``, ex18's ``backward``) or this stage added some,
    the fault may be there: the sentence names them, unless ``problem`` names the function at
    fault (``FAULT_IN``) and it is still ``stage``'s answer."""
    if problem.startswith((SHARED, NUMBER, KEYED)):  # told as it is, then the key or number it came from
        return _cause_after(stage, display, problem, exercise, error, where)
    if problem.startswith(TAKEN):  # the error told as it is, then what a fresh run shows of its cause
        return sentences([earlier_stage(stage, display, problem[len(TAKEN):], exercise, error, where),
                          _("In a fresh run of your file, (v * 2).backward() raises an error, v a new leaf holding "
                            "the number of a leaf u whose (u * 2).backward() ran before, while a new leaf of another "
                            "number runs it next: your engine takes v for u because they hold one number (a lookup "
                            "by == on a Value that compares numbers, as a list's `in` does).")])
    if problem.startswith(KEPT):
        return _kept(stage, display, problem[len(KEPT):], exercise)
    if problem.startswith(EQUAL):
        return _kept(stage, display, problem[len(EQUAL):], exercise, equal=True)
    if problem.startswith(STUCK):
        return _stuck(stage, display, problem[len(STUCK):])
    if problem.startswith(UNPACKED):
        return _("this stage builds on {stage}, and {stage}'s check fails in {file} ({problem}). In a fresh run of the "
                 "file, (u * v).grad_fn.unpack(\"other\"), u * v made after a backward through w * x, is not v, the "
                 "Value that node saved: your Node.unpack gives a node another value than the one that node saved.",
                 stage=stage, file=display, problem=_problem_told(problem[len(UNPACKED):]))
    if problem.startswith(CLEARED):
        return _cleared(stage, display, problem[len(CLEARED):], exercise)
    raised = _RAISED.fullmatch(problem)
    owner = _later_owner(stage, exercise, error) if raised else None
    if raised and owner is not None:
        return _later_stage_raised(stage, display, raised["error"], exercise, owner, where)
    at_fault = FAULT_IN.get(problem, "")
    owner = PARTS.get(exercise or "", {}).get(at_fault)
    own = owner is not None and owner <= stage  # the function named is stage's answer, or an earlier one's
    problem = _(RAISED, error=raised["error"]) if raised else _(problem)
    if owner is not None and not own:  # the function named is a later stage's rewrite: the fault is there
        return _("this stage builds on {stage}, and {stage}'s part of the engine does not work in {file} "
                 "({problem}): it must, before this stage's tests can run. The fault is in {function}, which "
                 "this file holds as your {owner} answer, a later stage's rewrite of it.",
                 stage=stage, file=display, problem=problem, function=at_fault, owner=owner)
    if at_fault and owner is None:  # a function the file gives written, part of no stage's answer
        return _("this stage builds on {stage}, and {stage}'s check fails in {file} ({problem}): it must pass before "
                 "this stage's tests can run. The fault is in {function}, a method the file gives you already written, "
                 "not a part of the engine a stage asks you to write.", stage=stage, file=display, problem=problem,
                 function=at_fault)
    rewritten = [] if own else rewritten_since(stage, exercise)
    if rewritten:  # the check runs some of stage's own answer too (``still_answered``): named beside
        return _("this stage builds on {stage}, and {stage}'s check fails in {file} ({problem}): it "
                 "must pass before this stage's tests can run; {parts} changed or came after {stage} (a "
                 "later stage's answer), so the fault may be there as well as in your {stage} answer "
                 "({own}).", stage=stage, file=display, problem=problem, parts=", ".join(rewritten),
                 own=", ".join(still_answered(stage, exercise)))
    return _("this stage builds on {stage}, and {stage}'s part of the engine does not work in "
             "{file} ({problem}): it must, before this stage's tests can run.",
             stage=stage, file=display, problem=problem)


# a fresh y = w * x's two leaves' gradients under one key (``buffer_keys.keyed_prefix``): each leaf given both, or one
_KEYED = {False: N_("Backward through y = w * x, w and x two new leaves, gives each of the two leaves the gradients "
                    "sent to both leaves' AccumulateGrad nodes, summed: a dict in your {function} holds, as a key, the "
                    "{key} of those two nodes, which every AccumulateGrad shares, so their gradients go into one buffer, "
                    "where each node has a buffer of its own, keyed by the node itself."),
          True: N_("Backward through y = w * x, w and x two new leaves, gives one leaf the gradients sent to both "
                   "leaves' AccumulateGrad nodes, summed, and the other 0: a dict in your {function} holds, as a key, the "
                   "{key} of those two nodes, which every AccumulateGrad shares, so their gradients go into one buffer, "
                   "where each node has a buffer of its own, keyed by the node itself.")}


def _cause_after(stage: str, display: str, problem: str, exercise: str | None, error: ErrorRecord | None,
                 where: str) -> str:
    """``stage``'s check raised KeyError on a key that two nodes of the graph share (``SHARED``), or
    AttributeError on a Python number an operator used where a Value belongs (``NUMBER``), or found
    gradients a buffer two leaves share makes (``KEYED``): the finding as any other (the problem after
    the fields), then that key or number, in the function that met it."""
    number, keyed = problem.startswith(NUMBER), problem.startswith(KEYED)
    fields, _sep, rest = problem[len(NUMBER if number else KEYED if keyed else SHARED):].partition(" | ")
    named = fields.split(" ")
    told = earlier_stage(stage, display, rest, exercise, error, where)
    if keyed and len(named) == 3 and named[0].isidentifier() and named[1] in ("name()", "sequence_nr"):
        return sentences([told, _(_KEYED[named[2] == "one"], function=named[0], key=named[1])])
    if len(named) != 3 or not all(part.replace("()", "").isidentifier() for word in named for part in word.split(".")):
        return told
    if number:
        function, name, kind = named
        return sentences([told, _("That AttributeError was raised on a Python number (of type {kind}) your {function} "
                                  "was given as {name} and used where a Value belongs, as it came (as_value makes a "
                                  "Value of a number).", kind=kind, function=function, name=name)])
    function, key, kind = named
    return sentences([told, _("That KeyError's key is the {key} of two different nodes of the graph your {function} "
                              "walked (two {kind} nodes, which have the same {key}): what is kept under such a key (a "
                              "buffer, a count) is one entry for both nodes, where each node has its own, keyed by the "
                              "node itself.", key=key, function=function, kind=kind)])


def _problem_told(problem: str) -> str:
    """``problem`` as a check's failure is told: a raised error in ``RAISED``'s words, any other in
    its own, translated (``_kept`` and ``_stuck`` both quote it)."""
    raised = _RAISED.fullmatch(problem)
    return _(RAISED, error=raised["error"]) if raised else _(problem)


def _kept(stage: str, display: str, problem: str, exercise: str | None, equal: bool = False) -> str:
    """``stage``'s check fails with ``problem`` here, yet passes on a fresh run of the file: the
    engine keeps state between calls, which the programs run before the check changed; with
    ``equal``, a fresh run's ``x * w`` (two leaves of one number) has one node at both edges, so
    what it keeps is found by ==, which takes an earlier program's leaf of the same number."""
    problem = _problem_told(problem)
    said = _("this stage builds on {stage}, and {stage}'s check passes on a fresh run of {file}, but "
             "fails when the tests' other programs ran before it ({problem}): your engine keeps state "
             "between calls, which those programs changed.", stage=stage, file=display, problem=problem)
    if equal:
        said += _(" In a fresh run, x * w, x and w two new leaves holding one number, has one node at both edges, "
                  "where PyTorch's reaches two, each leaf's own AccumulateGrad: your engine finds a leaf's node by "
                  "its number (== on a Value compares numbers), which takes another leaf holding the same number, "
                  "one an earlier program made too, for it.")
    own = [name for name, owner in PARTS.get(exercise or "", {}).items() if owner == exercise]
    return said + (_(" This stage added or rewrote {parts}.", parts=", ".join(own)) if own else "")


def _stuck(stage: str, display: str, problem: str) -> str:
    """``stage``'s check fails with ``problem`` here, and in a fresh run of the file a backward
    after one that raised writes no gradient: what a backward that raised left behind stops the
    later ones, whatever the check's own program asks."""
    problem = _problem_told(problem)
    return _("this stage builds on {stage}, and {stage}'s check fails in {file} ({problem}). In a fresh run of "
             "the file, a backward after one that raised writes no gradient, where PyTorch's runs as usual: "
             "something a backward that raised leaves behind (a flag or counter put back only when backward "
             "returns, not in a finally clause) stops the later ones.", stage=stage, file=display, problem=problem)


def _cleared(stage: str, display: str, problem: str, exercise: str | None) -> str:
    """``stage``'s check fails with ``problem`` here, and in a fresh run of the file a leaf's
    AccumulateGrad holds another variable once its release ran: the error the check met is where
    the node's write reached no leaf, not the fault, which is release's."""
    owner = PARTS.get(exercise or "", {}).get("Node.release", stage)
    return _("this stage builds on {stage}, and {stage}'s check fails in {file} ({problem}). In a fresh run of the "
             "file, the AccumulateGrad that gradient_edge(w) gives, w a new leaf that requires grad, no longer holds w "
             "as its variable once its release() ran: your Node.release, {owner}'s part of the engine, changes more "
             "than what the node saved, so a backward that reaches that node after its release no longer finds the "
             "leaf it writes to.", stage=stage, file=display, problem=_problem_told(problem), owner=owner)


def _later_owner(stage: str, exercise: str | None, error: ErrorRecord | None) -> str | None:
    """The stage after ``stage`` whose part of ``exercise``'s engine raised ``error`` (the
    function it was raised in, or the one that called it: a given ``Node.unpack``), or None."""
    if error is None or exercise is None:
        return None
    parts = PARTS.get(exercise, {})
    owner = parts.get(error["function"] or "") or parts.get(error["caller"] or "")
    return owner if owner is not None and owner > stage else None


def _later_stage_raised(stage: str, display: str, error: str, exercise: str | None, owner: str,
                        where: str) -> str:
    """``stage``'s program raised ``error`` in ``owner``'s part of the engine, a later stage's."""
    if owner == exercise:
        return this_stage(stage, f"{PROGRAMS[stage]} | {error} | {owner}", display, where)
    return _("your {owner} answer in {file} breaks {stage}'s program ({program}): it raised "
             "{error}{where}, in {owner}'s part of the engine, where PyTorch raises none.",
             owner=owner, file=display, stage=stage, program=_(PROGRAMS[stage]), error=error, where=where)


def rewritten_since(stage: str, exercise: str | None) -> list[str]:
    """The functions of ``exercise``'s file that may break ``stage``'s program: those its check
    runs (``CHECK_RUNS``) that ``exercise`` holds as a later stage's answer (``build_parts``:
    their stage is after ``stage``), a rewrite of ``stage``'s own or one added since."""
    runs = CHECK_RUNS.get(stage, frozenset())
    return [name for name, owner in PARTS.get(exercise or "", {}).items() if owner > stage and name in runs]


def still_answered(stage: str, exercise: str | None) -> list[str]:
    """The functions of ``exercise``'s file that ``stage``'s check runs and that are still
    ``stage``'s own answer (ex17's ``dependencies`` in ex20's file): where the fault lies if no
    later rewrite has it."""
    runs = CHECK_RUNS.get(stage, frozenset())
    return [name for name, owner in PARTS.get(exercise or "", {}).items() if owner == stage and name in runs]


def this_stage(earlier: str, fields: str, display: str, where: str, raised_in: str | None = None) -> str:
    """``ThisStage``: an earlier stage's program broken by this stage's code; ``raised_in`` is the
    function the error was raised in (a release refused by backward itself, not by unpack)."""
    program, _sep, rest = fields.partition(" | ")
    error, _sep, owner = rest.rpartition(" | ")  # the quoted error is the student's text: any characters
    seen = owner if owner in (BORN_RELEASED, ONE_COUNTER, CONSTANT_REFUSED) and " | " in error else ""  # a fresh run's
    if seen:
        error, _sep, owner = error.rpartition(" | ")
    if f" | {owner}" in LEFT_OFF.values():
        return _left_off(earlier, program, display, f" | {owner}" == LEFT_OFF["raised"])
    if not owner:
        return _("this stage's code breaks {stage}'s program ({program}) in {file}: nothing is "
                 "recorded, even outside no_grad: grad mode is off although no with no_grad() "
                 "block is open.", stage=earlier, program=_(program), file=display)
    told = _("this stage's code breaks {stage}'s program ({program}) in {file}: it raised "
             "{error}{where}, an error of {owner}'s part of the engine, where PyTorch raises none.",
             stage=earlier, program=_(program), file=display, error=error, where=where,
             owner=owner)
    if SECOND_BACKWARD in error and raised_in in _BACKWARD_ITSELF:  # refused at a node, before any unpack
        return sentences([told, _("Your backward raised it itself, at a node it met, not Node.unpack reading a "
                                  "saved value freed: PyTorch refuses only such a read, so a node that saved "
                                  "nothing (a leaf's AccumulateGrad, which every graph built on that leaf shares, "
                                  "or AddBackward0) runs again in a later backward.")])
    if seen == CONSTANT_REFUSED:  # the leaf check asks only whether the value is a leaf
        return sentences([told, _("In a fresh run of your file, c.zero_(), c = Value(2) a leaf that requires no grad, "
                                  "raises it too: your engine refuses an in-place op on a leaf that requires no grad, "
                                  "such as a .grad's zero_(), where PyTorch refuses one only on a leaf that requires "
                                  "grad.")])
    if seen == ONE_COUNTER:  # not a change to the saved value: one to another Value, on a counter they share
        return sentences([told, _("In a fresh run of your file, b._version changes when a.add_(1) runs, a and b two "
                                  "new Values: your Values share one version counter, so a change to one Value reads "
                                  "as a change to another, such as a value a node saved.")])
    if SECOND_BACKWARD in error and seen:  # not a release of its own: one that reached a node no backward ran
        return sentences([told, _("That one backward through its graph met a node that reads as released, and in a "
                                  "fresh run of your file the node of u * 3, made after a backward through w * 3 and "
                                  "run by no backward, is released already (its unpack raises it): what one node's "
                                  "release did reached other nodes too.")])
    if SECOND_BACKWARD in error:  # those programs run one backward per graph: it met its own release
        return sentences([told, _("That one backward through its graph met a node released already: the node was "
                              "released before it ran, or ran again after its release.")])
    return told


def _left_off(earlier: str, program: str, display: str, raised: bool) -> str:
    """``ThisStage`` where a backward of the student's engine left grad mode off (seen in a fresh
    run of the file: one that ran, or a second one through the same graph, which raised)."""
    if raised:
        return _("this stage's code breaks {stage}'s program ({program}) in {file}: nothing is recorded once a "
                 "backward raised (a second y.backward() through y = w * 3): your backward switched grad mode off "
                 "and did not put back the mode it found when it ended with an error.",
                 stage=earlier, program=_(program), file=display)
    return _("this stage's code breaks {stage}'s program ({program}) in {file}: nothing is recorded after a "
             "backward (y.backward(), y = w * 3): your backward switched grad mode off and did not put back the "
             "mode it found.", stage=earlier, program=_(program), file=display)


def raised_in_part(error: ErrorRecord, exercise: str, line: str, said: str) -> str:
    """An error raised in the student's engine, told with whose part of the engine raised it
    (this stage's, or an earlier one's this stage builds on) and the test's step that ran into
    it: "your code raised KeyError at line 59 (in Node.unpack, called from MulBackward0.apply:
    this stage's part of the engine), while the test ran `y.backward()`: 'other'"."""
    function, caller = error["function"], error["caller"]
    parts = PARTS.get(exercise, {})
    owner = parts.get(function or "") or parts.get(caller or "")
    where = _("{function}, called from {caller}", function=function, caller=caller) if caller else function
    if owner == exercise:
        where = _("{where}: this stage's part of the engine", where=where)
    elif owner is not None:
        where = _("{where}: {stage}'s part of the engine, which this stage builds on", where=where, stage=owner)
    step = error.get("step")
    ran = _(", while the test ran {step}", step=f"`{step}`") if step and _a_program_step(step) else ""
    return _("your code raised {kind} at {line} (in {where}){ran}{said}", kind=error["type"], line=line,
             where=where, ran=ran, said=said)


def _a_program_step(step: str) -> bool:
    """Whether a test's line reads as a step of a program on Values (``y.backward()``, ``a = x + w``),
    so that quoting it says what ran: a whole statement whose every call is a method's. A line with
    a number may hold a hidden input; one that calls a function by its bare name (``kept(...)``,
    ``fact(grad_quiet(w), "w.grad after ...")``) or is the first line of a longer statement is the
    grader's bookkeeping around the step, which would name nothing of the student's code."""
    if _NUMBER.search(step):
        return False
    try:
        tree = ast.parse(step)
    except SyntaxError:
        return False
    return all(isinstance(node.func, ast.Attribute) for node in ast.walk(tree) if isinstance(node, ast.Call))


def _stub_left(source: str, owner: str, name: str) -> bool:
    return f'NotImplementedError("{owner}: {name}")' in source


def begun(source: str, exercise: str) -> bool:
    """Whether a build-track stage's file has a part written: some function of its stub no longer
    raises the stub's NotImplementedError (an earlier stage's answer pasted counts)."""
    return any(not _stub_left(source, owner, name) for name, owner in PARTS.get(exercise, {}).items())


def own_stubs(source: str, exercise: str) -> list[str]:
    """The functions new in (or rewritten by) ``exercise`` that its file still leaves as stubs."""
    return [name for name, owner in PARTS.get(exercise, {}).items()
            if owner == exercise and _stub_left(source, owner, name)]


def parts_left(display: str, parts: list[str]) -> str:
    """A stage begun whose every test reached one of its own new parts, still a stub; in Chinese
    with no space left around a file named in Chinese (a notebook's "这个笔记本")."""
    return sentences([_("begun, but {file} still raises NotImplementedError in this stage's new parts, and "
                        "every test calls one of them: {parts}", file=display, parts=", ".join(parts))])
