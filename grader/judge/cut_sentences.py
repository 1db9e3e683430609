"""The sentences of a backward that raised because a Value it ran from was cut off from its graph
where it was made: under no_grad, under set_grad_enabled(False) or inference_mode(), or from the .data of a Value that
requires grad (``grader.spec.made_untracked``), by where that Value is (the root backward was
called on, or below it) and whether the student's frame names its source.  Apart from the other
caused errors (``caused_errors``), which pick one of these and fill it in."""

from __future__ import annotations

from micrograph.i18n import N_

from grader.spec.made_untracked import BELOW, DATA, DECORATED, INFERENCE, ROOT, SET_GRAD

CUT_UNDER_SPELLED = {
    (ROOT, False): N_("{function} computed {name} from a Value that requires grad while grad mode was off "
                      "({spelling}): no graph records {name}, so a backward from {name} raises; {error}"),
    (ROOT, True): N_("{function} computed {name} from {source} (which requires grad) while grad mode was off "
                     "({spelling}): no graph records {name}, so a backward from {name} raises; {error}"),
    (BELOW, False): N_("{function} computed {name} from a Value that requires grad while grad mode was off "
                       "({spelling}): no graph records {name}, and the Value backward was called on, "
                       "computed from it, has no graph either; {error}"),
    (BELOW, True): N_("{function} computed {name} from {source} (which requires grad) while grad mode was off "
                      "({spelling}): no graph records {name}, and the Value backward was called on, "
                      "computed from it, has no graph either; {error}"),
}
"""The sentence by where the Value made with grad mode off is (the root backward was called on, or below it) and
whether the student's frame names its source; ``{spelling}`` is the code the student's code turned grad mode off
with (``SPELLINGS``), else ``NO_GRAD``'s word, no_grad."""
SPELLINGS = {SET_GRAD: "set_grad_enabled(False)", INFERENCE: "inference_mode()"}
"""The code the student's code turned grad mode off with, by its word in a message (``grader.spec.made_untracked``,
``grader.spec.given_untracked``), where a sentence names it."""
CUT_IN_DECORATED = {
    (ROOT, False): N_("{function} computed {name} from a Value that requires grad inside {helper}, a function of yours "
                      "decorated to run with grad mode off: no graph records {name}, so a backward from {name} raises; "
                      "{error}"),
    (ROOT, True): N_("{function} computed {name} from {source} (which requires grad) inside {helper}, a function of "
                     "yours decorated to run with grad mode off: no graph records {name}, so a backward from {name} "
                     "raises; {error}"),
    (BELOW, False): N_("{function} computed {name} from a Value that requires grad inside {helper}, a function of yours "
                       "decorated to run with grad mode off: no graph records {name}, and the Value backward was called "
                       "on, computed from it, has no graph either; {error}"),
    (BELOW, True): N_("{function} computed {name} from {source} (which requires grad) inside {helper}, a function of "
                      "yours decorated to run with grad mode off: no graph records {name}, and the Value backward was "
                      "called on, computed from it, has no graph either; {error}"),
}
"""The same, where the student's code had turned grad mode off only by calling ``helper``, a function of its
decorated with ``@no_grad()`` (``decorated:<its name>``)."""
CUT_FROM_DATA = {
    (ROOT, False): N_("{function} computed {name} from the .data of a Value that requires grad, which shares its number "
                      "but is no part of its graph (it requires no grad): no graph records {name}, so a backward from "
                      "{name} raises; {error}"),
    (ROOT, True): N_("{function} computed {name} from {source}.data, which shares {source}'s number but is no part of "
                     "its graph (it requires no grad): no graph records {name}, so a backward from {name} raises; {error}"),
    (BELOW, False): N_("{function} computed {name} from the .data of a Value that requires grad, which shares its number "
                       "but is no part of its graph (it requires no grad): no graph records {name}, and the Value "
                       "backward was called on, computed from it, has no graph either; {error}"),
    (BELOW, True): N_("{function} computed {name} from {source}.data, which shares {source}'s number but is no part of "
                      "its graph (it requires no grad): no graph records {name}, and the Value backward was called on, "
                      "computed from it, has no graph either; {error}"),
}
"""The same, for a Value computed from the .data of a Value that requires grad."""


def cut_sentence(how: str, where: str, named: bool) -> str:
    """The untranslated sentence for a Value cut off ``how`` (``DATA``, ``SET_GRAD``, ``INFERENCE``, ``decorated:<name>``,
    else no_grad),
    at the root or below it (``where``), its source ``named`` in the student's frame or not."""
    sentences = (CUT_FROM_DATA if how == DATA else CUT_IN_DECORATED if how.startswith(DECORATED + ":")
                 else CUT_UNDER_SPELLED)
    return sentences[ROOT if where == ROOT else BELOW, named]
