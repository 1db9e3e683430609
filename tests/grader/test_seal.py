"""``seal``: what a module's namespace held, compared by identity after each step; what a sealed
module and a frozen class (``freeze``) refuse."""

from __future__ import annotations

import dataclasses
import sys
import types

import pytest

from grader.sandbox.child import freeze, seal


def _module(name: str, **names: object) -> types.ModuleType:
    module = types.ModuleType(name)
    vars(module).update(names)
    return module


def test_an_untouched_namespace_is_not_changed_and_its_own_rebound_names_may_change() -> None:
    engine = _module("micrograph.engine", run=len, _warned=False)
    snapshot = seal.Snapshot([engine])
    vars(engine)["_warned"] = True  # the module's own ``global`` write
    assert snapshot.changed() is None


def test_a_class_given_another_attribute_is_seen_and_only_its_own_classes_are_kept() -> None:
    made = type("Value", (), {"__module__": "micrograph.value", "item": len})
    module = _module("micrograph.value", Value=made, Borrowed=type("Borrowed", (), {}))
    snapshot = seal.Snapshot([module])
    vars(module)["Borrowed"].anything = 1  # made elsewhere (its __module__ is this test's)
    assert snapshot.changed() is None
    made.item = abs
    made.item = len  # put back before the step ends: not seen (only what is there after it)
    assert snapshot.changed() is None
    made.item = abs
    assert snapshot.changed() == "micrograph.value"


def test_a_name_given_another_object_is_seen_even_an_equal_one() -> None:
    kept = _module("grader.spec.probe", limit=1000.5)
    other = _module("micrograph.observe", passes=len)
    snapshot = seal.Snapshot([other, kept])
    vars(kept)["limit"] = float("1000.5")  # equal, not the same object
    assert snapshot.changed() == "grader.spec.probe"


def test_a_name_lost_is_seen_even_when_it_held_none_and_its_module_named() -> None:
    module = _module("grader.spec.probe", nothing=None)
    snapshot = seal.Snapshot([_module("micrograph.observe", passes=len), module])
    del vars(module)["nothing"]
    assert snapshot.changed() == "grader.spec.probe"


def test_a_sealed_module_refuses_the_generic_setattr_of_a_frozen_dataclass_and_reads_as_before() -> None:
    @dataclasses.dataclass(frozen=True)
    class Swap:
        run: object
        isinstance: object

    module = _module("micrograph.engine", run=len)
    seal.seal([module])
    try:
        Swap.__init__(module, abs, abs)  # object.__setattr__(module, "run", abs) inside
    except PermissionError:
        pass
    else:
        raise AssertionError("the frozen dataclass wrote past the seal")
    assert module.run is len and "isinstance" not in vars(module)  # a builtin's name: not shadowed
    for name in ("run", "isinstance"):
        try:
            object.__delattr__(module, name)
        except PermissionError:
            continue
        raise AssertionError(f"{name} deleted past the seal")


def test_a_new_dunder_is_seen_and_a_new_submodule_or_warning_registry_is_not() -> None:
    module = _module("micrograph.engine", run=len)
    snapshot = seal.Snapshot([module])
    vars(module)["viz"] = types.ModuleType("micrograph.viz")  # the import system binds a submodule
    vars(module)["__warningregistry__"] = {}  # warnings.warn keeps its registry there
    assert snapshot.changed() is None
    object.__setattr__(module, "__getattr__", lambda name: len)  # no class holds a new name
    assert snapshot.changed() == "micrograph.engine"


def test_a_dunder_written_and_taken_back_within_a_step_is_seen_where_a_pass_looked() -> None:
    module = _module("micrograph.engine", run=len)
    snapshot = seal.Snapshot([module])
    vars(module)["viz"] = types.ModuleType("micrograph.viz")
    snapshot.check_grown()  # a pass starts: a submodule bound is no dunder
    assert snapshot.changed() is None
    object.__setattr__(module, "__getattr__", lambda name: len)
    snapshot.check_grown()  # a pass starts while it is there
    del vars(module)["__getattr__"]
    assert snapshot.changed() == "micrograph.engine"


def test_a_sealed_module_binds_no_dunder_nor_object_as_a_submodule() -> None:
    """The import system binds a submodule it has just put in ``sys.modules``; a dunder or an
    object that is no module put there first is no submodule."""
    module = _module("micrograph.engine", run=len)
    seal.seal([module])
    sneaked = {"micrograph.engine.__getattr__": lambda name: len, "micrograph.engine.helper": len}
    sys.modules.update(sneaked)
    try:
        for full, value in sneaked.items():
            with pytest.raises(PermissionError):
                setattr(module, full.rsplit(".", 1)[1], value)
    finally:
        for full in sneaked:
            del sys.modules[full]


def test_a_sealed_module_refuses_the_generic_setattr_of_its_import_names() -> None:
    module = _module("micrograph.engine", run=len, __builtins__={}, __file__="engine.py")
    seal.seal([module])
    for name in ("__builtins__", "__file__"):
        try:
            object.__setattr__(module, name, {"isinstance": abs})
        except PermissionError:
            continue
        raise AssertionError(f"{name} written past the seal")
    assert module.__file__ == "engine.py" and module.__builtins__ == {}


def test_frozen_classes_refuse_every_write_and_their_subclasses_do_not() -> None:
    made = type("Value", (), {"__module__": "micrograph.value", "item": len})
    refused: list[tuple[str, str]] = []

    def refuse(module: str, name: str) -> None:
        refused.append((module, name))
        raise PermissionError(name)

    assert freeze.freeze(seal.own_classes([_module("micrograph.value", Value=made)]), refuse)
    for write in (lambda: setattr(made, "item", abs), lambda: type.__setattr__(made, "item", abs),
                  lambda: delattr(made, "item")):
        try:
            write()
        except (TypeError, PermissionError):  # type.__setattr__: the flag; else the metaclass
            continue
        raise AssertionError("a frozen class took a write")
    assert refused == [("micrograph.value", "item")] * 2 and type(made).__name__ == "type"
    assert made.item is len
    sub = type("Mine", (made,), {})
    sub.item = abs
    assert sub.item is abs and made.item is len


def test_a_snapshot_settled_after_trusted_code_counts_its_new_dunders_as_known() -> None:
    module = _module("micrograph.engine", run=len)
    snapshot = seal.Snapshot([module])
    vars(module)["__getattr__"] = len  # as a test module's loading might, before any submission
    snapshot.settle()
    assert snapshot.changed() is None
    vars(module)["__dir__"] = len
    assert snapshot.changed() == "micrograph.engine"


def test_no_test_module_changes_what_a_snapshot_compares() -> None:
    """A batch's worker reuses the snapshot its supervisor took before any test module was
    loaded: loading one must leave every name of the engine's modules and of builtins as it was."""
    import builtins
    import sys
    from pathlib import Path

    import grader.exercises
    import micrograph  # noqa: F401 - its modules are what the snapshot holds

    engine = [m for n, m in sorted(sys.modules.items()) if n.split(".")[0] == "micrograph" and type(m) is types.ModuleType]
    snapshot = seal.Snapshot([*engine, builtins])
    for path in sorted(Path(grader.exercises.__file__).parent.glob("ex*.py")):
        module = types.ModuleType(f"loaded_{path.stem}")
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), vars(module))
        assert snapshot.changed() is None, path.name
