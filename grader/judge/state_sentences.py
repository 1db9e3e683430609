"""The sentences about state kept between calls: a result that depends on an earlier call of the
student's function, or an object an earlier call returned, returned again.

The probes call each function again, on other inputs and on the first ones once more, in another
order, and in a fresh import of the student's file, keeping earlier results alive
(``grader.spec.repeat``); these sentences tell what that showed.  They follow the rules of
``grader.judge.sentences``: placeholders carry only what the student's run shows, never a number.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayState(Sentence):
    """One way a call showed state kept between calls, and the sentence that explains it."""

    FROM_EARLIER_CALL = N_("a number returned for {label} is a gradient the engine produced in an earlier call, not "
                           "during this one: this call returns what an earlier call left (state kept between calls).")
    HOOKS_REWRITE = N_("{label} returned a list that a backward pass through {leaf} after the call wrote into: "
                       "hooks your code registered on {leaf} are still registered, and write into that list again "
                       "whenever a later pass reaches them.")
    KEPT_OBJECT = N_("{label} is still {of}, kept between calls and returned again.")
    EARLIER_LEAF_WRITTEN = N_("no backward pass of your code wrote {label}: they wrote into a leaf given to an earlier "
                              "call, kept between calls, not the leaf you were given.")
    NOT_SAME_AGAIN = N_("{label}, called again with the inputs of an earlier call (after a call on "
                        "other inputs), returned something else than the first time: what it "
                        "returns depends on state kept between calls.")
    EFFECT_AGAIN = N_("{label}, called again with the inputs of an earlier call (after a call on other inputs), "
                      "returned what the first call returned, but did not change what it was given as the first "
                      "call did: what it does depends on state kept between calls.")
    KEPT_ERROR = N_("{label} is an error the engine raised during an earlier call, where the statement's call "
                    "raises none: no backward pass of this call raised it, so your code returned an error kept "
                    "between calls.")
    KEPT_RESULT = N_("{label}, called again with the inputs of an earlier call (after a call on other inputs), "
                     "returned the very object that call returned, not a new one: its result is kept between calls "
                     "and handed out again.")
    ERROR_KEPT_AGAIN = N_("{label}, called again with the inputs of an earlier call (after a call on other inputs), "
                          "returned in a new result the very error object that call returned: your code keeps the "
                          "error between calls and hands it out again, where the statement's raises a new one at each call.")
    VALUES_KEPT_AGAIN = N_("{label}, called again with the inputs of an earlier call (after a call on other inputs), "
                           "returned in a new dict the very Values that call returned: your code keeps them between "
                           "calls and hands them out again, where the statement's makes new ones at each call.")
    RAISED_AGAIN = N_("{label}, called again with the inputs of an earlier call (after a call on "
                      "other inputs), raised an error where the first call returned: what it does "
                      "depends on state kept between calls.")
    NOT_SAME_FRESH = N_("{label} returned something else than the same call returns in a fresh import of your "
                        "code, where it is the first call: what it returns depends on state kept between calls.")
    KEPT_WARNING_TEXT = N_("{label} returned, without reading .grad, the text of a warning caught in an earlier call: "
                           "your code keeps that text between calls (made first in a fresh import of your code, the "
                           "same call returns something else).")
    NOT_SAME_GROWN = N_("{label}, called again on a root after an in-place op on it (root.add_(x)) gave it "
                        "a new grad_fn, returned something else than the same call returns in a fresh "
                        "import of your code: what it returns depends on state kept between calls.")
    DEFAULT_AFTER_CALL = N_("{label}, made after a call of {function} that passed {name} another value than the "
                            "stub's default, did something else than after the same call passing that default: what it "
                            "does with {name} left out depends on state kept between calls.")
    LEFT_ON_GRAPH = N_("{label}, called on a graph after {function} on it, returned something else than on a new "
                       "graph of the same numbers, where it is the first call: what it returns depends on something "
                       "that earlier call left on the graph (on its nodes or Values).")
    FREED_GRAPH_KEPT = N_("{label} returned what it returned for an earlier graph, freed before this y was made: "
                          "a result kept between calls, found again by an id that this y's node took over from the freed one.")
    # a new graph of other numbers whose list or Value took the id of an earlier graph's (``~graph``)
    FREED_ANSWER_KEPT = N_("{label} returned, for a new graph, what it returned for an earlier graph of other numbers, "
                           "let go of before the new one was made: a result kept between calls, found again by the id "
                           "of an object of the new graph (a list or a Value), which took it over from the earlier one's.")
    # ex15's new model at a freed trained model's id (``~model``)
    FREED_MODEL_KEPT = N_("{label}, given a new model that took the id of a trained model let go of, returned the "
                          "losses of the call that trained that earlier model and left the new model's parameters as "
                          "they were: a result kept between calls, found again by the id the new model took over.")
    KEPT_PAST_CHANGE = N_("{label} returned what the call before that change returned, on the same y: an in-place "
                          "op on y gave it a new grad_fn, and your code handed back an answer kept between calls "
                          "instead of reading y's graph as it is now.")
    STATE_IN_HELPER = N_("With each call of {function} made in a fresh import of your code, {label} returns the "
                         "same every time: the state is kept by your {function}, which it calls.")
    FIRST_CHANGED = N_("what a first call of {label} returned changed when {label} was called again on other "
                       "inputs: that result holds state kept between calls, which the later call changed.")
    EARLIER_CHANGED = N_("{label} changed a parameter (its number or its .grad) of a model given to"
                         " an earlier call: through something kept between calls, it reached the "
                         "parameters of a model it was not given.")
    # the new model took a freed trained model's id (``~freed_id``)
    EARLIER_FREED_CHANGED = N_("{label}, given a new model that took the id of a trained model let go of (its parameters "
                               "kept), changed a parameter (its number or its .grad) of that earlier model: something "
                               "kept between calls and found again by the id the new model took over reached the "
                               "parameters of a model it was not given.")
    EARLIER_LEAVES_CHANGED = N_("{label} changed the .grad of a leaf given to an earlier call, not to this "
                                "one: through state kept between calls, it reached leaves it was not given.")
    OTHER_BACKWARD_AGAIN = N_("{label}, run again on the same node (y.backward(retain_graph=True), then "
                              "y.backward()), passed on another gradient: it depends on state kept between calls.")
    OTHER_AFTER_LATER = N_("{label}'s node, backpropagated once a later call {function} had run, passed on another "
                           "gradient than when backpropagated right after its own forward: its backward read what the "
                           "later call's forward left (state kept between calls), not what its own forward kept on ctx.")
    SECOND_CHANGED_LATER = N_("{label} is another number where another Clip backward ran between the two grad calls "
                              "than where none did: the graph of the gradient your Clip.backward returned depends on "
                              "something a later call of Clip.backward changed (state kept between calls), where the "
                              "statement's holds nothing another call reaches.")
    SENT_OTHER_AGAIN = N_("{label}: a later backward through the same graph, whose nodes and edges the earlier ones "
                          "left as they were, had the nodes' apply calls return other gradients than the first backward "
                          "did, where PyTorch's returns the same at each pass: what your backward hands a node depends "
                          "on state kept between calls, not on that pass alone.")
    HOOKED_AFTER_LATER = N_("{label}'s node, backpropagated once a later call {function} had run, left another "
                            "number in a.grad than when backpropagated right after its own forward: a hook your code "
                            "registered on a ran in that pass and chose a.grad's number, and a hook registered on a "
                            "stays on it for every later backward pass through a.")
    NOTES_ON_CLASS = N_("{label}'s node, backpropagated once a later call {function} had run, passed on another "
                        "gradient than when backpropagated right after its own forward: forward sets {name} on the "
                        "class, which every node shares, so this node's backward read the later call's {name}, not "
                        "its own (one call's notes go on ctx).")
    OTHER_SECOND_TIME = N_("{label}, called a second time on the same leaves after another backward, did not do to "
                           "their .grad what its first call did: what it does depends on state kept between calls.")
    OTHER_FRESH_EFFECT = N_("{label} did not do to the .grad of new leaves what the same calls do "
                            "in a fresh import of your code, where they are the first: what it does"
                            " depends on state kept between calls.")
    LEAF_HANDED_AGAIN = N_("{label} handed build the same leaf an earlier call of {label} had handed it: a leaf kept "
                           "between calls, where the statement creates a new leaf at each call.")
    LEAF_KEPT_GRAD = N_("{label}'s first backward pass wrote into a leaf whose .grad still held the gradient earlier "
                        "calls left: the pass added to it, so what this call recorded depends on state kept between "
                        "calls, where the statement builds new leaves at each call.")
    INPUT_EMPTIED = N_("{label} emptied a list it was given, which the statement's only reads: called again with "
                       "that list, it got an empty one, and returned something else.")
    VALUE_CHANGED = N_("{label}({leaf}) changed the Value it was given, which the statement's only reads: its {name} "
                       "after the call is not what it was before.")
    GIVEN_GRAD_CLEARED = N_("{label} set {leaf}.grad to None, where the statement's leaves every .grad as the caller "
                            "left it: a gradient the caller had accumulated there is lost.")
    GIVEN_GRAD_ZEROED = N_("{label} zeroed {leaf}.grad, where the statement's leaves every .grad as the caller left "
                           "it: a gradient the caller had accumulated there is lost.")
    GIVEN_GRAD_WRITTEN = N_("{label} wrote into {leaf}.grad (after the call it holds another Value or another number), "
                            "where the statement's leaves every .grad as the caller left it.")
    GIVEN_DETACHED = N_("{label} cut {leaf} off its graph, in place (as detach_() does): {leaf} had a grad_fn when "
                        "the call began and has none after it, where the statement's leaves the caller's graph as "
                        "it was.")
    GIVEN_NUMBER_CHANGED = N_("{label} changed the number {leaf} holds, where the statement's leaves the Values it "
                              "is given as the caller left them.")
    GIVEN_HOOKED = N_("{label} left a hook on {leaf}: a backward pass through {leaf} after the call did not add to "
                      "{leaf}.grad the gradient the pass sent it, as the hook still runs in every later pass, where the "
                      "statement's leaves the Values it is given as the caller left them.")
    GIVEN_RETAINED = N_("{label}({leaf}) made the Value it was given retain its gradient: its retains_grad is True "
                        "after the call, as retain_grad() sets it, where the statement's only reads its attributes.")
    GIVEN_FLAG_CHANGED = N_("{label} changed {leaf}.requires_grad, where the statement's leaves that flag as the "
                            "caller set it.")
    INPUT_CHANGED = N_("{label} changed a list it was given (entries replaced, added or removed), which the "
                       "statement's only reads: called again with that list, it got other entries, and returned "
                       "something else.")
    INPUT_CHANGED_RAISED = N_("{label} changed a list it was given (entries replaced, added or removed), which the "
                              "statement's only reads: called again with that list, it got other entries, and raised an "
                              "error.")
    ANSWER_KEPT_ON_VALUE = N_("{label}, called again once {function} had changed that Value, returned what its first "
                              "call returned, where a new Value so changed gets another answer: your code keeps its "
                              "answer between calls, tied to the Value.")
    LR_OF_EARLIER_CALL = N_("{label}, called again on the {name} an earlier call was given, stepped with that call's "
                            "lr, not the lr it was given: an optimizer kept on the {name}, or between calls, is used again.")
    SAME_ON_OBJECT = N_("{label}, called again on the {name} an earlier call was given, returned that call's result "
                        "(the very object, or the same numbers) where the statement's returns a result of its own: "
                        "something kept on the {name}, or between calls, is handed out again.")
    STEP_KEPT_ON_LEAF = N_("{label}, called again on a leaf an earlier call of it stepped, moved w by another amount "
                           "than lr * w.grad, where its first step on that leaf, and the same step on a new leaf holding "
                           "that number, move w by lr * w.grad: the earlier step left something on w (an attribute, "
                           "or state kept for that leaf) that the later one used.")
