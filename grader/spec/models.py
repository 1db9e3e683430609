"""The models ex15's probes make and read: each new model made from a seed and kept alive for the
run, a model's parameters layer by layer and its layers as code, and what make_model returned.

They live apart from ex15's tests so that the tests read as the runs of train they judge, and the
models as what those runs are given: the model a probe builds itself (``model``), the
parameters it reads back (``parameters``), and the facts of a model the student's make_model
built (``built``).
"""

from __future__ import annotations

from typing import Any

import micrograph
from micrograph import nn
from micrograph.i18n import N_  # a probe's message, translated where it is shown
from micrograph.seeding import uniform  # bound now, before the submission is imported

from grader.spec.facts import Check
from grader.spec.mode_restored import called
from grader.spec.probe import num, type_name
from grader.spec.provenance import check, result_of, value_of
from grader.spec.repeat import Returned

SIZES = [2, 8, 1]
"""The statement's network: nn.MLP([2, 8, 1])."""

MADE: list[nn.MLP] = []
"""Every model the probes (and the diagram) gave train in this run, kept alive: a call that changes one made
for an earlier call works on that call's model (an optimizer made once and kept), which the
model it is given cannot show."""


def model(seed: int) -> nn.MLP:
    """A new model for train, kept in ``MADE``."""
    micrograph.manual_seed(seed)
    made = nn.MLP(SIZES)
    MADE.append(made)
    return made


def earlier(current: nn.MLP) -> list[Any]:
    """The parameters of every model made for an earlier call."""
    return [p for made in MADE if made is not current for p in made.parameters()]


def _flat(rows: Any) -> list[Any]:
    return [v for row in rows for v in _flat(row)] if type(rows) in (list, tuple) else [rows]


def parameters(made: object, function: str) -> list[Any]:
    """The model's parameters, layer by layer, as ``_layer`` reads them."""
    if not isinstance(made, nn.Module):
        raise TypeError(f"{function} must return the nn.MLP it builds, not {type_name(made)}")
    return [p for layer in made.children() for name in ("weight", "bias")
            for p in _flat(getattr(layer, name, None) or [])]


# One label for every parameter: a difference in all of them (unseeded, never updated) is
# told once.  Code, so that it reads the same in every language.
PARAMETER = "p in model.parameters()"
AT_A_FREED_ID = N_("a parameter of a new model given to train after a trained model was freed (it took its id)")
"""The label of a parameter of the model ex15 gives train at a freed trained model's id (a state kept by
id(model) leaves it as it was); its facts carry ``facts.FOLLOWS_CALLS``: their number is left unsaid
where the test's other calls differ too."""


LAYERS = "list(make_model(seed).children())"  # its layers, told by the first that differs


def _layer(module: object) -> str:
    """``Linear(2, 8)`` or ``Tanh``: a layer as code, so its sizes are not numbers to compare."""
    weight = getattr(module, "weight", None)
    if type(weight) is list and weight and type(weight[0]) is list:
        return f"{type_name(module)}({len(weight[0])}, {len(weight)})"
    return type_name(module)


RETURNED = Returned(N_("the first parameter of the model make_model returned"),
                    N_("the first parameter of a model an earlier call of make_model returned"))
"""The first parameter of every model make_model returned in this run (the diagram's too): a
model cached per seed, and trained by an earlier call of train, is told by its identity."""


def first_parameter(of: list[Any]) -> object:
    """The first of a model's parameters (None for a model without any)."""
    return of[0] if of else None


def built(sub, seed: int) -> dict[str, Any]:
    """make_model(seed) of the student's: whether it seeded before drawing the weights, its
    layers, whether it is a new model, and its parameters."""
    made = called("make_model", sub.make_model, seed)
    after = uniform(0.0, 1.0)  # the generator's next number, as make_model left it
    micrograph.manual_seed(seed)
    seeded_last = after == uniform(0.0, 1.0)  # seeded, and nothing drawn since: after the build
    micrograph.manual_seed(seed)
    statement = [_layer(m) for m in nn.MLP(SIZES).children()]
    left = after == uniform(0.0, 1.0)  # where seeding and building leave it: not a model kept and copied
    its = parameters(made, "make_model")
    layers = [_layer(m) for m in made.children()]
    return {"seeded": check(Check.SEEDED_FIRST, not seeded_last, "make_model"),
            # a model of other layers draws another count of numbers: the generator is left elsewhere by that
            "generator": check(Check.GENERATOR_LEFT, left if layers == statement else None, "make_model"),
            "layers": result_of(layers, LAYERS),
            "new": RETURNED.new(first_parameter(its)),
            "parameters": [value_of(p, PARAMETER) for p in its]}


def weights(made: object) -> list[Any] | str:
    """The numbers of a model's parameters."""
    return [num(p) for p in parameters(made, "make_model")] if isinstance(made, nn.Module) else type_name(made)


def seeds_apart(built_runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The SEED_USED fact of ``built``'s facts for different seeds: some two of the models hold
    other numbers (a make_model that seeds with a number of its own builds one model for all)."""
    numbers = [[fact.get("data") for fact in run["parameters"]] for run in built_runs]
    return check(Check.SEED_USED, any(n != numbers[0] for n in numbers[1:]), "make_model")

