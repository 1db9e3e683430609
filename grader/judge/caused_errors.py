"""A probe's error that tells the student's error with its cause before it: the helper that
returned an earlier call's result, the argument an earlier call changed in place, the graph an
earlier call walked, the leaf detached in place, the given function run under no_grad.  The
probe raises its own exception (``grader.spec.helpers``, ``graph_state``, ``detached_leaf``,
``given_untracked``) whose message holds the fact's words and, at its end, the student's error
as ``"<Type>: <message>"``; ``tell`` says that error as ``grader.judge.explain.test_error``
says any other."""

from __future__ import annotations

from typing import Callable

from grader.i18n import N_, _
from grader.judge.build_causes import number_operand, shared_key
from grader.judge.cut_sentences import SPELLINGS, cut_sentence
from grader.judge.labels import shown_label
from grader.judge.said import Tell, said_error
from grader.sandbox.child.wire import ErrorRecord
from grader.spec.flag_gradient import UNNAMED as FLAG_UNNAMED
from grader.spec.given_untracked import RETAIN_UNTRACKED, UNLINED, UNSPELLED
from grader.spec.grad_unwritten import CLEARED, UNREACHED, UNTRACKED
from grader.spec.kept_loss import FREED
from grader.spec.made_untracked import DECORATED, NO_GRAD, SET_GRAD, UNNAMED
from grader.spec.shadowed import STAR


EARLIER_RESULT = "EarlierResult"  # grader.spec.helpers.EarlierResult: a helper returned an earlier call's result
RAISED_ONLY_AGAIN = "RaisedOnlyAgain"  # grader.spec.helpers.RaisedOnlyAgain: not on a fresh import
ARGUMENT_CHANGED = "ArgumentChanged"  # grader.spec.helpers.ArgumentChanged: on a list or graph an earlier call changed
WALKED_AGAIN = "WalkedAgain"  # grader.spec.graph_state.WalkedAgain: on a graph an earlier call walked, not on a fresh import
DETACHED_LEAF = "DetachedLeaf"  # grader.spec.detached_leaf.DetachedLeaf: raised after detach_() on a leaf
GIVEN_UNDER_NO_GRAD = "GivenUnderNoGrad"  # grader.spec.given_untracked: raised after a given function ran under no_grad
MADE_UNDER_NO_GRAD = "MadeUnderNoGrad"  # grader.spec.made_untracked: a backward from what a Value made under no_grad cut off
DETACHED_ROOT = "DetachedRoot"  # grader.spec.made_untracked: a backward called on a detach() of a Value requiring grad
DETACHED_GIVEN = "DetachedGiven"  # grader.spec.made_untracked: a given function handed a detach(), a backward from what it made
DIRTY_LEAF = "DirtyLeaf"  # grader.spec.applied.DirtyLeaf: apply raised on a leaf forward marked dirty
NOT_DIFFERENTIABLE = "NotDifferentiable"  # grader.spec.applied.NotDifferentiable: forward marked its output so
GRAPH_AGAIN = "GraphAgain"  # grader.spec.graph_again.GraphAgain: a pass from the graph an earlier pass started from
EARLIER_GRAPH = "EarlierGraph"  # grader.spec.graph_again.EarlierGraph: a pass through a graph an earlier call's pass freed
GRAD_UNWRITTEN = "GradUnwritten"  # grader.spec.grad_unwritten.GradUnwritten: raised on a .grad no backward pass wrote
SHADOWED_BUILTIN = "ShadowedBuiltin"  # grader.spec.shadowed.ShadowedBuiltin: raised in micrograph's abs, pow or sum
KEPT_ROOT_RAISED = "KeptRootRaised"  # grader.spec.kept_loss.KeptRootRaised: a pass from an earlier call's loss
MODE_UNCALLED = "ModeUncalled"  # grader.spec.uncalled_mode.ModeUncalled: `with no_grad:`, the class not called
FLAG_AS_GRADIENT = "FlagAsGradient"  # grader.spec.flag_gradient.FlagAsGradient: loss.backward(True)
SHARED_KEY = "SharedKey"  # grader.spec.shared_key.SharedKey: a buffer looked up by a key two nodes share
NUMBER_OPERAND = "NumberOperand"  # grader.spec.number_operand.NumberOperand: a number handed on where a Value belongs
RAISED_IN_CALL = "RaisedInCall"  # grader.spec.raised_in_call.RaisedInCall: one of a test's calls raised


def _earlier_result(error: ErrorRecord, tell: Tell) -> str:
    """The error the function tested raised, after the helper it called returned what an earlier
    call of that helper returned (``grader.spec.helpers.EarlierResult``), or that the helper
    raised where a fresh import's same call returns (``RaisedOnlyAgain``): that fact first, as
    the cause lies in the helper."""
    helper, function, said = error["message"].split(" ", 2)
    raised = tell(said_error(error, said))
    if error["type"] == EARLIER_RESULT:
        return _("{function} called {helper}, which returned what an earlier call of {helper} returned (the "
                 "same object, not a new one): what {helper} returns depends on state kept between calls; "
                 "with it, {error}", function=function, helper=helper, error=raised)
    if function == helper:  # the test called it itself
        return _("{helper} raised an error where the same call returns, as the first call of a fresh "
                 "import of your code: what {helper} does depends on state kept between calls; {error}",
                 helper=helper, error=raised)
    return _("{function} called {helper}, which raised an error where the same call returns, as the first "
             "call of a fresh import of your code: what {helper} does depends on state kept between calls; "
             "{error}", function=function, helper=helper, error=raised)


def _argument_changed(error: ErrorRecord, tell: Tell) -> str:
    """The error the student's helper raised on a list an earlier call of it had changed in place
    (``grader.spec.helpers.ArgumentChanged``), or on a graph whose nodes it set attributes on:
    that earlier change first, as what the later call met; a fresh import raises on the changed
    argument too, so no state of the module is blamed."""
    helper, function, parameter, kind, said = error["message"].split(" ", 4)
    raised = tell(said_error(error, said))
    if kind == "graph":
        return _("an earlier call of {helper} set attributes on the nodes of the graph of the {parameter} it was "
                 "given (state that stays on the graph, whatever your module keeps), and {helper} was called again on "
                 "that same graph: {error}", helper=helper, parameter=parameter, error=raised)
    if function == helper:  # the test called it itself
        return _("an earlier call of {helper} changed the list {parameter} it was given, in place (other objects are "
                 "in it now), and the test called {helper} again on that same list: {error}",
                 helper=helper, parameter=parameter, error=raised)
    return _("{function} called {helper} on a list that an earlier call of {helper} had changed in place "
             "({parameter}: other objects are in it now): {error}",
             function=function, helper=helper, parameter=parameter, error=raised)


def _walked_again(error: ErrorRecord, tell: Tell) -> str:
    """The error the student's function raised when called again on a graph an earlier call of it
    was given, where the same call returns as the first call of a fresh import
    (``grader.spec.graph_state.WalkedAgain``): that second call first, as what the error needs."""
    function, parameter, said = error["message"].split(" ", 2)
    return _("{function} was called again on a graph an earlier call of it had walked (the graph of {parameter}) "
             "and raised, where the same call returns as the first call of a fresh import of your code: what "
             "{function} does depends on state it keeps between calls, which the earlier call left; {error}",
             function=function, parameter=parameter, error=tell(said_error(error, said)))


def _detached_leaf(error: ErrorRecord, tell: Tell) -> str:
    """The error the function tested raised after it called detach_() on a leaf that requires grad
    (``grader.spec.detached_leaf.DetachedLeaf``): that call first, as what made the line raise."""
    function, leaf, said = error["message"].split(" ", 2)
    raised = tell(said_error(error, said))
    return _("{function} called {leaf}.detach_(): detach_() detaches the leaf {leaf} itself, in place, so {leaf} "
             "no longer requires grad and nothing computed from it is recorded (detach() returns a new Value "
             "and leaves {leaf} as it is); after it, {error}",
             function=function, leaf=leaf, error=raised)


_RETAIN, _UNLINED, _LINED = "retain", "unlined", "lined"  # what the backward line met, and whether the call's line is known
_GIVEN_UNDER = {  # by how grad mode was off (no_grad, one spelling, several or none seen, a decorated function of the student's)
    (NO_GRAD, _RETAIN): N_("{function} called {given} while grad mode was off (no_grad): what it computed then is "
                           "recorded by no graph and requires no grad, and retain_grad() on such a Value raises; {error}"),
    (NO_GRAD, _UNLINED): N_("{function} called {given} while grad mode was off (no_grad): what it computed then is "
                            "recorded by no graph, and a backward from a Value no graph records raises; {error}"),
    (NO_GRAD, _LINED): N_("{function} called {given} at {where} while grad mode was off (no_grad): what it computed then "
                          "is recorded by no graph, and a backward from a Value no graph records raises; {error}"),
    (UNSPELLED, _RETAIN): N_("{function} called {given} while grad mode was off: what it computed then is recorded by no "
                             "graph and requires no grad, and retain_grad() on such a Value raises; {error}"),
    (UNSPELLED, _UNLINED): N_("{function} called {given} while grad mode was off: what it computed then is recorded by "
                              "no graph, and a backward from a Value no graph records raises; {error}"),
    (UNSPELLED, _LINED): N_("{function} called {given} at {where} while grad mode was off: what it computed then is "
                            "recorded by no graph, and a backward from a Value no graph records raises; {error}"),
    (SET_GRAD, _RETAIN): N_("{function} called {given} while grad mode was off ({spelling}): what it computed then "
                            "is recorded by no graph and requires no grad, and retain_grad() on such a Value raises; "
                            "{error}"),
    (SET_GRAD, _UNLINED): N_("{function} called {given} while grad mode was off ({spelling}): what it computed then "
                             "is recorded by no graph, and a backward from a Value no graph records raises; {error}"),
    (SET_GRAD, _LINED): N_("{function} called {given} at {where} while grad mode was off ({spelling}): what it computed "
                           "then is recorded by no graph, and a backward from a Value no graph records raises; {error}"),
    (DECORATED, _RETAIN): N_("{function} called {given} inside {helper}, a function of yours decorated to run with grad "
                             "mode off: what it computed then is recorded by no graph and requires no grad, and "
                             "retain_grad() on such a Value raises; {error}"),
    (DECORATED, _UNLINED): N_("{function} called {given} inside {helper}, a function of yours decorated to run with grad "
                              "mode off: what it computed then is recorded by no graph, and a backward from a Value no "
                              "graph records raises; {error}"),
    (DECORATED, _LINED): N_("{function} called {given} at {where}, inside {helper}, a function of yours decorated to run "
                            "with grad mode off: what it computed then is recorded by no graph, and a backward from a "
                            "Value no graph records raises; {error}"),
}
"""The sentences of ``_given_under_no_grad``: a spelling of ``SPELLINGS`` is told by ``SET_GRAD``'s, naming it."""


def _given_under_no_grad(error: ErrorRecord, tell: Tell, named: Callable[[int], str]) -> str:
    """The engine's "does not have a grad_fn" (or its refusal of retain_grad()) the function tested raised
    after it called the function it was given with grad mode off (``grader.spec.given_untracked``): that call first, with
    its line where the probe saw it (``named``: as feedback names a line), as what the backward line met.  Where grad
    mode was off only inside a function of the student's decorated to run so, the call's line comes first, if known."""
    function, given, line, said = error["message"].split(" ", 3)
    given, _sep, how = given.partition(":")  # ``loss_fn:set_grad_enabled``: the only spelling the call turned it off with
    kind, _sep, helper = how.partition(":")  # ``decorated:_graph``: inside that function of the student's
    retain = RETAIN_UNTRACKED in said
    if kind == DECORATED and helper.isidentifier():
        mode, met = DECORATED, _LINED if line.isdigit() else _RETAIN if retain else _UNLINED
    else:
        mode = SET_GRAD if how in SPELLINGS else UNSPELLED if how == UNSPELLED else NO_GRAD
        met = _RETAIN if retain else _UNLINED if line == UNLINED else _LINED
    return _(_GIVEN_UNDER[mode, met], function=function, given=given, helper=helper, spelling=SPELLINGS.get(how, ""),
             where=named(int(line)) if line.isdigit() else line, error=tell(said_error(error, said)))


def _made_under_no_grad(error: ErrorRecord, tell: Tell) -> str:
    """The engine's "does not have a grad_fn" from a backward whose root was computed from a Value
    the function tested made with grad mode off out of one that requires grad
    (``grader.spec.made_untracked``): that Value first, as where the graph was cut."""
    function, name, source, where, how, said = error["message"].split(" ", 5)
    kind, _sep, helper = how.partition(":")  # ``decorated:_shifted``: made inside that function of the student's
    how = how if kind != DECORATED or helper.isidentifier() else NO_GRAD
    return _(cut_sentence(how, where, source != UNNAMED), function=function, name=name, source=source,
             spelling=SPELLINGS.get(how, NO_GRAD), helper=helper, error=tell(said_error(error, said)))


def _detached_root(error: ErrorRecord, tell: Tell) -> str:
    """The engine's "does not have a grad_fn" from a backward the function tested called on what
    detach() returned for a Value that requires grad (``grader.spec.made_untracked.DetachedRoot``):
    that detach() first, as why the Value has no graph."""
    function, name, said = error["message"].split(" ", 2)
    return _("{function} called backward on {name}, which is what detach() returned for a Value that requires "
             "grad: a new Value that no graph records (it requires no grad and has no grad_fn), so a backward "
             "from it raises; {error}", function=function, name=name, error=tell(said_error(error, said)))


def _detached_given(error: ErrorRecord, tell: Tell) -> str:
    """The engine's "does not have a grad_fn" after the function tested handed the function it was
    given what detach() returned for a Value that requires grad (``grader.spec.made_untracked.DetachedGiven``):
    that detach() first, as why what it made has no graph."""
    function, given, said = error["message"].split(" ", 2)
    return _("{function} handed {given} what detach() returned for a Value that requires grad: a new Value that no "
             "graph records, so what {given} made from it has no graph either, and a backward from it raises; {error}",
             function=function, given=given, error=tell(said_error(error, said)))


def _dirty_leaf(error: ErrorRecord, tell: Tell) -> str:
    """The engine's in-place error raised by a Function's apply itself, as its forward returned
    (``grader.spec.applied.DirtyLeaf``): no line of the student's raised it, and the test had not
    used what apply returns yet; what forward marked is the cause.  The engine's text is quoted."""
    function, said = error["message"].split(" ", 1)
    return _("{function}.apply raised as {function}.forward returned: forward marked its input with ctx.mark_dirty "
             "(changed in place and returned), and that input is a leaf that requires grad, which the engine does "
             "not let change in place: {error}", function=function, error=said)


def _not_differentiable(error: ErrorRecord, tell: Tell) -> str:
    """A Function's output with no grad_fn though an input requires grad
    (``grader.spec.applied.NotDifferentiable``): only ctx.mark_non_differentiable gives that."""
    function = error["message"]
    return _("{function}.apply returned a Value with no grad_fn although an input requires grad and grad mode is on: "
             "{function}.forward marked its output with ctx.mark_non_differentiable, so no graph records it and no "
             "gradient flows back through {function}", function=function)


def _graph_again(error: ErrorRecord, tell: Tell) -> str:
    """The error a backward pass raised that ran through nodes an earlier pass of the function
    tested ran through (``grader.spec.graph_again.GraphAgain``): that graph first, as what the
    pass met (a prediction made once, before a training loop)."""
    function, said = error["message"].split(" ", 1)
    return _("{function} ran a later backward pass through nodes of the graph an earlier pass had run through, "
             "not through a graph built again for its step (what is computed once, before the loop, such as "
             "the prediction, is one graph for every step): {error}",
             function=function, error=tell(said_error(error, said)))


def _earlier_graph(error: ErrorRecord, tell: Tell) -> str:
    """The engine's "backward through the graph a second time" from a pass of the function tested
    through nodes a pass of an earlier call of it ran through (``grader.spec.graph_again.EarlierGraph``):
    that graph, kept between calls, first."""
    function, said = error["message"].split(" ", 1)
    return _("{function} ran a backward pass through nodes of a graph that a backward pass of an earlier call of "
             "{function} had run through (a graph kept between calls): that earlier pass had freed what they saved; "
             "{error}", function=function, error=tell(said_error(error, said)))


def _grad_unwritten(error: ErrorRecord, tell: Tell) -> str:
    """The error on None the function tested raised after reading the .grad of a Value it was
    given, which holds None, where it ran no backward pass before the error, set that .grad to
    None once one had run, or that Value requires no grad (``grader.spec.grad_unwritten``): why
    .grad is None first."""
    function, name, why, said = error["message"].split(" ", 3)
    if why == UNTRACKED:
        return _("{function} read {name}.grad, which is None: {name} does not require grad, so no backward pass "
                 "writes its .grad; {error}", function=function, name=name, error=tell(said_error(error, said)))
    if why == UNREACHED:
        return _("{function} read {name}.grad, which is None: the backward passes it ran went through graphs that do "
                 "not reach this {name}, so none wrote its .grad; {error}",
                 function=function, name=name, error=tell(said_error(error, said)))
    if why == CLEARED:
        return _("{function} read {name}.grad, which is None: your code set it to None after a backward pass of "
                 "this call had started, and read it after that; {error}",
                 function=function, name=name, error=tell(said_error(error, said)))
    return _("{function} read {name}.grad, which is None: it ran no backward pass before this error, so none "
             "wrote it; {error}", function=function, name=name, error=tell(said_error(error, said)))


def _shadowed_builtin(error: ErrorRecord, tell: Tell, named: Callable[[int], str]) -> str:
    """The error raised inside micrograph's version of a Python built-in the student's module binds in its
    place (``grader.spec.shadowed``): that import first, as what made the built-in's name micrograph's, at
    its line as feedback names one (``named``: in a notebook, its cell and the line in it)."""
    function, name, line, how, said = error["message"].split(" ", 4)
    raised = tell(said_error(error, said))
    where = named(int(line)) if line.isdigit() else line
    if how == STAR:
        return _("the {name} {function} calls is micrograph's {name}, which takes Values: `from micrograph import *` at "
                 "{where} put it in place of Python's built-in {name}; {error}", name=name, function=function,
                 where=where, error=raised)
    return _("the {name} {function} calls is micrograph's {name}, which takes Values, imported at {where} in place "
             "of Python's built-in {name}; {error}", name=name, function=function, where=where, error=raised)


def _kept_root_raised(error: ErrorRecord, tell: Tell) -> str:
    """The engine's error from a backward pass the function tested started from the loss an earlier call
    of it returned (``grader.spec.kept_loss``): that kept loss first, as what the pass ran through."""
    function, why, said = error["message"].split(" ", 2)
    if why == FREED:
        return _("{function} ran its backward pass from the loss an earlier call of {function} returned, kept between "
                 "calls, not from a loss computed in this call: a backward pass had freed that loss's graph already; "
                 "{error}", function=function, error=tell(said_error(error, said)))
    return _("{function} ran its backward pass from the loss an earlier call of {function} returned, kept between "
             "calls, not from a loss computed in this call: that loss's graph reaches w, which earlier calls of "
             "{function} had changed in place, and a value the graph saved was changed in place after it was saved; "
             "{error}", function=function, error=tell(said_error(error, said)))


def _mode_uncalled(error: ErrorRecord, tell: Tell) -> str:
    """The TypeError raised at a ``with`` given a grad mode class itself (``grader.spec.uncalled_mode``):
    the missing call first, as Python's text names neither the class nor the call."""
    function, written, args, said = error["message"].split(" ", 3)
    return _("{function} wrote `with {written}:`, which gives the with statement {written} itself, not called: "
             "the context manager is what {written}{args} returns; {error}",
             function=function, written=written, args=args, error=tell(said_error(error, said)))


def _flag_as_gradient(error: ErrorRecord, tell: Tell) -> str:
    """The engine's TypeError on a bool handed to backward as its gradient (``grader.spec.flag_gradient``):
    that argument first, as the engine's text names neither backward's parameter nor the flag."""
    function, name, flag, said = error["message"].split(" ", 3)
    if name == FLAG_UNNAMED:
        return _("{function} called backward with {flag} as its gradient argument (backward's first parameter; "
                 "retain_graph is its second), so {flag} went in as the gradient, not as retain_graph; "
                 "{error}", function=function, flag=flag, error=tell(said_error(error, said)))
    return _("{function} called {name}.backward with {flag} as its gradient argument (backward's first parameter; "
             "retain_graph is its second), so {flag} went in as the gradient, not as retain_graph; "
             "{error}", function=function, name=name, flag=flag, error=tell(said_error(error, said)))


def _raised_in_call(error: ErrorRecord, tell: Tell) -> str:
    """The error one of a test's several calls of a function raised (``grader.spec.raised_in_call``):
    that call first, as the line alone names the function, not which of its calls raised."""
    call, said = _call_and_said(error["message"])
    return _("{call} raised an error: {error}", call=shown_label(call), error=tell(said_error(error, said)))


def _call_and_said(message: str) -> tuple[str, str]:
    """The call's label and the student's error (``"<Type>: <message>"``) of a ``RaisedInCall``'s message,
    ``"<length of the label> <label> <error>"``."""
    length, _sep, rest = message.partition(" ")
    size = int(length) if length.isdigit() else 0
    return rest[:size], rest[size + 1:]


def student_error(error: ErrorRecord) -> ErrorRecord:
    """The student's own error where a probe raised it again naming the call (``RaisedInCall``), else
    ``error``: for the rules that read its type and text (a name an except handler deleted, a builtin
    the file rebound, a stub left below its own definition), which the call's name changes nothing of."""
    return said_error(error, _call_and_said(error["message"] or "")[1]) if error["type"] == RAISED_IN_CALL else error


# A probe's error that tells the student's error with its cause before it: the function telling
# it, and how many words at least its message has (what each splits off, and the error's text).
WITH_CAUSE = {EARLIER_RESULT: (_earlier_result, 3), RAISED_ONLY_AGAIN: (_earlier_result, 3),
               ARGUMENT_CHANGED: (_argument_changed, 5), WALKED_AGAIN: (_walked_again, 3), DETACHED_LEAF: (_detached_leaf, 3),
               DIRTY_LEAF: (_dirty_leaf, 2),
               MADE_UNDER_NO_GRAD: (_made_under_no_grad, 6), DETACHED_ROOT: (_detached_root, 3), DETACHED_GIVEN: (_detached_given, 3),
               NOT_DIFFERENTIABLE: (_not_differentiable, 1), GRAPH_AGAIN: (_graph_again, 2), EARLIER_GRAPH: (_earlier_graph, 2),
               GRAD_UNWRITTEN: (_grad_unwritten, 4), MODE_UNCALLED: (_mode_uncalled, 4),
               KEPT_ROOT_RAISED: (_kept_root_raised, 3), FLAG_AS_GRADIENT: (_flag_as_gradient, 4),
               SHARED_KEY: (shared_key, 4), RAISED_IN_CALL: (_raised_in_call, 3), NUMBER_OPERAND: (number_operand, 4)}
# The same, for an error whose cause has a line of the student's file: told with ``named``, which names
# it as feedback names a line (in a notebook, by its cell).
LINED = {SHADOWED_BUILTIN: (_shadowed_builtin, 5), GIVEN_UNDER_NO_GRAD: (_given_under_no_grad, 4)}


def kept_before(error: ErrorRecord, told: str) -> str:
    """``told``, the error of a test whose probe, run again on fresh imports of the student's file, raised
    nothing (``grader.sandbox.child.again``), after that fact: the error needs what earlier calls left, state
    kept between calls (the inputs of a first call kept in a module-level name, and met by a later call on other
    inputs), in the function of the file it went through (the one that ran a comprehension it went through).
    An error whose cause the probe tells already (``WITH_CAUSE``, ``LINED``) is told as it was, and so is one
    that never went through a function of the file."""
    function = next((f for f in (error["function"], error["caller"]) if f and not f.startswith("<")), None)
    if not error["fresh"] or function is None or error["type"] in WITH_CAUSE or error["type"] in LINED:
        return told
    return _("the same test raised no error when run again on fresh imports of your file, in which no earlier "
             "test had made a call: this error, in {function}, depends on state kept between calls, such as a "
             "module-level variable or a default argument that an earlier call set; in this run, {error}",
             function=function, error=told)
