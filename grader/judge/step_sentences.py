"""The sentences about a training loop (ex15's train, ex05's grad_history): the loss it took, the
size and direction of its steps, what each optimizer.step() found in the parameters' .grad, and
how many steps it ran.

They follow the rules of ``grader.judge.sentences``: placeholders carry only what the student's
run shows or the probe named, never a number.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayStep(Sentence):
    """One way a training loop's loss or steps differ from the statement's, and the sentence that says so."""

    STEPS_IGNORED = N_("{label} ran backward the same number of times in every call, whatever steps it was "
                       "given: how many steps your loop runs does not follow steps.")
    OTHER_LOSS = N_("{label} is not nn.mse_loss(model(inputs), targets) of the model you were given, before "
                    "its first update.")
    # the first loss is the list's last (``~reversed``)
    LOSSES_REVERSED = N_("{label} is not nn.mse_loss(model(inputs), targets) of the model you were given before its "
                         "first update, but the last loss of the list is: train put the first step's loss at the "
                         "end of its list, where the statement's list runs from the first step to the last.")
    LOSS_SUMMED = N_("{label} is the sum of the squared errors of the model you were given, not "
                     "their mean, which nn.mse_loss(model(inputs), targets) is.")
    LOSS_AFTER_UPDATE = N_("{label} is not the loss of the model you were given: the last loss "
                           "returned is that of the model after the last update, so each loss "
                           "was taken after its step's update, not before it.")
    LOSS_AFTER_ONE_UPDATE = N_("{label} is not the loss of the model you were given: the one loss returned is that "
                               "of the model after the update, where the statement records each step's loss before "
                               "its update.")
    LAST_LOSS_AFTER = N_("{label} is the loss of the model after the last update, as train left it, where the "
                         "statement records each step's loss before its update (the first loss returned is that of "
                         "the model you were given, as it should be).")
    LOSS_ROUNDED = N_("{label} is nn.mse_loss(model(inputs), targets) of the model you were given, before its first "
                      "update, rounded to fewer digits: the statement records loss.item() as it is.")
    LOSS_OF_ONE_ROW = N_("{label} is nn.mse_loss of one row of the batch alone (one prediction against its target), "
                         "not nn.mse_loss(model(inputs), targets) of the whole batch.")
    STEPS_ON_ONE_ROW = N_("{label} took its steps on the loss of one row of the batch alone (the statement's loop on "
                          "that row alone leaves the parameters where yours left them), not on "
                          "nn.mse_loss(model(inputs), targets) of the whole batch.")
    LOSSES_FEWER = N_("{label} returned fewer losses than the steps it was given: the statement's list holds one "
                      "loss per step.")
    LOSSES_MORE = N_("{label} returned more losses than the steps it was given: the statement's list holds one "
                     "loss per step.")
    STOPPED_ON_FITTED = N_("{label} returned fewer losses than the steps it was given on data the model fits at once "
                           "(its loss 0 from the first step, or a tiny fraction of its first by the second step), and "
                           "one loss per step on other data: the loop stopped before it had run steps steps; the "
                           "statement's list holds one loss per step, however small the loss gets.")
    ONE_STEP_FEWER = N_("{label} returned one loss fewer than the steps it was given, and ran as many backward "
                        "passes as it returned losses: the loop ran one step fewer than steps.")
    ONE_STEP_MORE = N_("{label} returned one loss more than the steps it was given, and ran as many backward "
                       "passes as it returned losses: the loop ran one step more than steps.")
    PARAMETER_LEFT = N_("{label} never changed {name}: it holds the number it started with, while other parameters "
                        "of the model moved; each step updates every parameter.")
    LEFT_AT_ZERO = N_("{label} left {name} at the number it started with, and the gradient the last backward pass "
                      "wrote into its .grad is 0, so the last step, by lr times it, moved it by nothing: the loss "
                      "{label} backpropagated does not change with {name} there.")
    LAYER_LEFT = N_("{label} never changed the parameters of {name}: they hold the numbers they started with, while "
                    "the other layers' moved; each step updates every parameter of the model.")
    FROM_AN_OUTPUT = N_("{label} started a backward pass from an entry of model(inputs), not from the loss computed "
                        "from them: the gradients it stepped on are those of one prediction, not of "
                        "nn.mse_loss(prediction, targets).")
    SEED_UNUSED = N_("{label} built models of the same parameters for different seeds: the seed it is given does not "
                     "decide the weights, where manual_seed(seed) before the build does.")
    IMPORT_LEFT_OFF = N_("{label} switched grad mode off and left it off: code that imports your file records no "
                         "graph afterwards, until something switches grad mode on again.")
    IMPORT_LEFT_OFF_AT = N_("{label} switched grad mode off at {where} and left it off: code that imports your "
                            "file records no graph afterwards, until something switches grad mode on again.")
    GENERATOR_UNRUN = N_("{label} returned a generator that nothing ran, and ran no backward pass: train holds "
                         "yield, so calling it runs none of its body and only returns the generator; none of its "
                         "steps ran, and the model is as it came.")
    NONE_CLEARED_SPENT = N_("{label} ran backward while .grad still held the gradient of an earlier pass: no "
                            "parameter's .grad was zeroed or set to None since that pass, so backward added to it. "
                            "Your {name} holds the generator model.parameters() returned, which the optimizer made "
                            "of it read to its end: a loop over {name} after that gets no parameter, and runs zero "
                            "times.")
    ROWS_BY_ID = N_("{label}, given a new inputs list at the id of an earlier call's list, freed since, trained on "
                    "that earlier call's rows: something kept between calls is keyed by id(inputs), which Python hands "
                    "to a new object once the old one is gone.")
    LOSSES_ALIKE = N_("the losses {label} returned are one number at every step: the model's loss did not "
                      "change from one step to the next, so no step changed the model.")
    LOSSES_ALIKE_CAUGHT = N_("the losses {label} returned are one number at every step, so no step changed the model; "
                             "your code caught an error that the engine's {name}() raised when it called it, and went "
                             "on: that call of {name}() stopped at its error, without finishing its work.")
    OTHER_STEP = N_("{label} moved every parameter by one multiple of its gradient of the statement's loss, "
                    "but not by lr times it.")
    STEP_NOT_LR = N_("{label} moved every parameter by another multiple of its .grad than lr: the size of "
                     "its step does not follow the lr train was given.")
    STEP_REPEATED = N_("{label}, given one step, changed every parameter in place more than once and moved each by "
                       "lr times its .grad once for every change: the gradient of that step was applied more than once, "
                       "where one step is one update.")
    STEP_ONCE_MORE = N_("{label} updated every parameter once more after its last step, by lr times the .grad that "
                        "step left: one update more than steps, the last gradient applied twice.")
    STEP_ALONG_GRAD = N_("{label} moved every parameter along its .grad (p + lr * p.grad), where an SGD step moves "
                         "it against it (p - lr * p.grad).")
    STEP_DECAYED = N_("{label} moved every parameter by more than lr times its .grad: the rest of each step is one "
                      "same multiple of the parameter's own number (weight decay), where the statement's step is "
                      "p -= lr * p.grad.")
    LOSS_COMPUTED_AGAIN = N_("{label} is not the loss its backward pass started from: it holds loss_fn's number at w "
                           "as your update left it, so your code computed the loss again after changing w, where the "
                           "statement returns the loss computed before the update.")
    LOSS_NOT_BACKPROPAGATED = N_("{label} is not the loss its backward pass started from: your code called loss_fn "
                                 "more than once and ran backward from another Value than the loss it returned, where "
                                 "the statement runs backward from the very loss it returns.")
    STEP_OTHER_LOSS = N_("{label} took its steps on another loss than nn.mse_loss(model(inputs), targets): given one "
                         "step, it moved every parameter by lr times its .grad, as an SGD step does, but the first loss "
                         "it returned is not that loss, and those .grad are not its gradients.")
    LOSS_SCALED = N_("{label} took its steps on a loss that is a fixed multiple of nn.mse_loss(model(inputs), "
                     "targets), not on that loss: the losses it returned and every update differ by that factor.")
    STEPPED_ON_CLEARED = N_("{label} called optimizer.step() when every parameter's .grad was None or zero, "
                            "cleared after a backward pass had written it: the step had nothing to apply "
                            "(zero_grad() belongs before backward, not between backward and step).")
    STEPPED_ON_ZEROS = N_("{label} called optimizer.step() when backward had written a gradient of zero into every "
                          "parameter's .grad: the loss it backpropagated does not change with the parameters, so the "
                          "step had nothing to apply.")
    STEPPED_BEFORE_BACKWARD = N_("{label} called optimizer.step() before any backward pass, when no parameter's "
                                 ".grad held a gradient: the step had nothing to apply (backward comes before step).")
    STEPPED_OTHER_MODEL = N_("{label} called optimizer.step() on an optimizer that holds none of the parameters "
                             "of the model it was given: that step updates other parameters, not these.")
    NEVER_STEPPED = N_("{label} never called optimizer.step(), and no parameter of the model it was given changed: "
                       "the gradients its backward passes wrote were never applied.")
    # a loop whose steps were not watched: whether it called step() is not known (``~unchanged``)
    NOTHING_APPLIED = N_("{label} changed no parameter of the model it was given, in place or otherwise, though it "
                         "ran backward passes: nothing applied their gradients to the parameters, as "
                         "optimizer.step() does.")
    STEPPED_ON_NOTHING = N_("{label} called optimizer.step() when no parameter's .grad held a "
                            "gradient (each was None or zero): the step had nothing to apply.")
    STEP_NOT_BY_GRAD = N_("{label}: an optimizer.step() moved a parameter by another amount than -lr * p.grad, "
                          "the .grad that step found.")
    LATER_STEP_NOT_BY_GRAD = N_("{label}: from the second optimizer.step() on, a parameter moved by another amount "
                                "than -lr * p.grad, the .grad that step found (the first step moved each by exactly "
                                "that): a later update depends on more than that step's gradient and the lr given.")
    GENERATOR_ELSEWHERE = N_("{label} did not leave the generator as manual_seed(seed) followed by building the model "
                             "leaves it: a number drawn right after make_model(seed) differs, so the weights were not "
                             "drawn in this call from the generator just seeded with seed.")
