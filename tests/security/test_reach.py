"""The parent's reading of a submission's source (``grader.sandbox.reach``): every way of
naming grading's internals is found, with its line; what the course's own answers and stubs
write is not."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from grader.sandbox.child.wire import Touch
from grader.sandbox.reach import MAX_FOUND, TOO_DEEP, Reach, reaches

REPO = Path(__file__).resolve().parents[2]

FOUND = [
    ("import sys\nf = sys._getframe(1).f_back\n", Touch.FRAMES),
    ("def f():\n    try:\n        1 / 0\n    except ZeroDivisionError as e:\n        return e.__traceback__\n", Touch.FRAMES),
    ("import inspect\nframes = inspect.stack()\n", Touch.FRAMES),
    ("from inspect import getouterframes\n", Touch.FRAMES),
    ("import inspect as i\nparts = i.getmembers(len)\n", Touch.DYNAMIC),
    ("import pkgutil\nthing = pkgutil.resolve_name('micrograph.observe:passes')\n", Touch.DYNAMIC),
    ("import string\nfield = string.Formatter().get_field('0.x', (1,), {})\n", Touch.DYNAMIC),
    ("import sys\nsys.setprofile(None)\n", Touch.HOOKS),
    ("from sys import getprofile as g\n", Touch.HOOKS),
    ("from micrograph import observe\nobserve._passes += 1\n", Touch.OBSERVER),
    ("def f(call, x):\n    call.probe_held[id(x)] = x\n", Touch.OBSERVER),
    ("def f(v):\n    v._grad_write = None\n", Touch.OBSERVER),
    ("from micrograph import observe\nwith observe.observing(observe.Observer()):\n    pass\n", Touch.OBSERVER),
    ("def f(g):\n    return g.__globals__\n", Touch.CODE),
    ("import pickle\n", Touch.CODE),
    ("import builtins\nbuiltins.isinstance = lambda *a: True\n", Touch.CODE),
    ("from micrograph.hooks import write_grad\n", Touch.OBSERVER),
    ("import micrograph.hooks as h\ndef write_grad(v, g):\n    h.write_grad(v, g, False, None)\n", Touch.OBSERVER),
    ("from micrograph import observe\nw = observe.Writer.ACCUMULATE_GRAD\n", Touch.OBSERVER),
    ("import gc\n", Touch.MEMORY),
    ("import ctypes.util\n", Touch.MEMORY),
    ("import sys as s\nm = s.modules\n", Touch.MODULES),
    ("def f(o, n, v):\n    setattr(o, n, v)\n", Touch.DYNAMIC),
    ("def f(o):\n    delattr(o, '_pa' + 'sses')\n", Touch.DYNAMIC),
    ("store = setattr\n", Touch.DYNAMIC),
    ("def f(o):\n    return getattr(o, '__dict__')\n", Touch.DYNAMIC),
    ("x = eval('1')\n", Touch.DYNAMIC),
    ("def f(o):\n    return o.__dict__\n", Touch.DYNAMIC),
    ("def f(o, k, v):\n    o.__dict__[k] = v\n", Touch.DYNAMIC),
    ("def f(o, more):\n    o.__dict__.update(more)\n", Touch.DYNAMIC),
    ("def f(o):\n    names = o.__dict__\n    return names\n", Touch.DYNAMIC),
    ("def f(o, k):\n    vars(o)[k] = 1\n", Touch.DYNAMIC),
    ("def f(o):\n    o.__dict__['_grad'] = 1\n", Touch.DYNAMIC),  # written under a private name
    ("def f(o):\n    vars(o)['probe_held'] = []\n", Touch.DYNAMIC),  # or grading's own
    ("def f(o):\n    o.__dict__['__class__'] = int\n", Touch.DYNAMIC),
    ("from micrograph import observe as seen\nvars(seen)['passes'] = len\n", Touch.DYNAMIC),  # not its own
    ("def f(o):\n    o.__dict__['previous'] = 1\n", Touch.DYNAMIC),
    ("def f(o):\n    o.__dict__.setdefault('previous', 1)\n", Touch.DYNAMIC),  # not its own object
    ("class N:\n    def f(self, k):\n        self.__dict__.setdefault(k, 0)\n", Touch.DYNAMIC),  # a computed name
    ("class N:\n    def f(self):\n        vars(self).setdefault('__class__', 0)\n", Touch.DYNAMIC),  # a special one
    ("import zipimport\nm = zipimport.zipimporter('e.zip').load_module('micrograph')\n", Touch.MODULES),
    ("see = vars\n", Touch.DYNAMIC),
    ("def f(m, k):\n    return super(type(m), m).__dict__.get(k)\n", Touch.DYNAMIC),
    ("import types\ndef f(m, k):\n    return types.ModuleType.__dict__[k].__get__(m)\n", Touch.DYNAMIC),
    # operator's lookups and __import__ given a name not written out (or private, or handed on)
    ("import operator\nf = operator.attrgetter(name)\n", Touch.DYNAMIC),
    ("import operator\nf = operator.attrgetter('_grad')\n", Touch.DYNAMIC),
    ("import operator\nf = operator.attrgetter('grad_fn.__class__')\n", Touch.DYNAMIC),
    ("from operator import methodcaller\nf = methodcaller(*names)\n", Touch.DYNAMIC),
    ("from operator import attrgetter\nget = attrgetter\n", Touch.DYNAMIC),
    ("from operator import attrgetter as a\nf = a('x')\n", Touch.DYNAMIC),
    ("import operator\nf = operator.attrgetter('f_back.f_globals')\n", Touch.FRAMES),  # as x.f_back would be
    ("import operator\nf = operator.methodcaller('probe_held')\n", Touch.OBSERVER),
    ("m = __import__(name)\n", Touch.DYNAMIC),
    ("m = __import__('ma' + 'th')\n", Touch.DYNAMIC),
    ("load = __import__\n", Touch.DYNAMIC),
    ("o = __import__('os')\no.write(5, b'{}')\n", Touch.DYNAMIC),  # os's names are read from its import's alias
    ("s = __import__('sys')\n", Touch.DYNAMIC),
    ("m = __import__('micrograph.observe', fromlist=['passes'])\n", Touch.DYNAMIC),
    ("g = __import__('grader.spec')\n", Touch.TESTS),  # as import grader.spec is
    ("name = 'observe._observers'\n", Touch.OBSERVER),
    ("import os\nos.write(5, b'{}')\n", Touch.WIRE),
    ("from os import dup2\n", Touch.WIRE),
    # os.path imported binds os (import os.path) or is os.path, whose os is os again
    ("import os.path\nos.write(5, b'{}')\n", Touch.WIRE),
    ("import os.path as p\np.os.write(5, b'{}')\n", Touch.WIRE),
    ("from os import path\npath.os.dup2(5, 1)\n", Touch.WIRE),
    ("import posixpath\nposixpath.os.write(5, b'{}')\n", Touch.WIRE),
    ("import os\nos.path.os.write(5, b'{}')\n", Touch.WIRE),
    ("import os.path\nmodule = os\n", Touch.MODULES),  # handed on, as after import os
    ("from os import path as p\nmodule = p\n", Touch.MODULES),
    ("import os\nmodule = os.path.os\n", Touch.MODULES),
    ("path = '/proc/self/fd'\n", Touch.WIRE),
    ("path = '/proc/1/cmdline'\n", Touch.MACHINE),  # another process's entry: no pipe of the grader's
    ("path = '/proc/self/mem'\n", Touch.MEMORY),
    ("real = print.__self__.getattr\n", Touch.DYNAMIC),
    ("real = (1.0).hex.__reduce_ex__(2)[0]\n", Touch.DYNAMIC),
    ("import timeit\n", Touch.DYNAMIC),
    ("from unittest import mock\n", Touch.DYNAMIC),
    ("import logging.config\n", Touch.DYNAMIC),
    ("import typing\ndef f(g, space):\n    return typing.get_type_hints(g, globalns=space)\n", Touch.DYNAMIC),
    ("import shelve\n", Touch.DYNAMIC),
    ("import grader.spec\n", Touch.TESTS),
    ("def f(m):\n    return m.EXERCISE\n", Touch.TESTS),
    ("def f(x):\n    match x:\n        case object(_observers=o):\n            return o\n", Touch.OBSERVER),
    # functools' copiers of attributes look the names they are given up with the real getattr
    ("import functools\ndef f(box, frame, back):\n    functools.update_wrapper(box, frame, assigned=(back,))\n",
     Touch.DYNAMIC),
    ("from functools import wraps\ndef f(g):\n    return wraps(g, ('f_globals',))\n", Touch.DYNAMIC),
    ("from functools import update_wrapper as copy_over\n", Touch.DYNAMIC),
    ("import functools\ncopies = [functools.wraps]\n", Touch.DYNAMIC),
    ("from xmlrpc.server import resolve_dotted_attribute\n", Touch.DYNAMIC),
    # annotations are code when evaluated: written as strings, given as it runs, or evaluated
    ("def f(x: 'exec(source)') -> None:\n    pass\n", Touch.DYNAMIC),
    ("def f(x) -> 'eval(source)':\n    pass\n", Touch.DYNAMIC),
    ("def f(x):\n    pass\nf.__annotations__ = {'x': text}\n", Touch.DYNAMIC),
    ("import inspect\ndef f(g):\n    return inspect.signature(g, eval_str=True)\n", Touch.DYNAMIC),
    # a magic's name is one only where get_ipython() is IPython's: of the source's own, an attribute's
    ("def get_ipython():\n    return x\nget_ipython().run_line_magic('timeit', 'f()')\n", Touch.DYNAMIC),
    ("get_ipython().run_line_magic('_getframe', 'f()')\n", Touch.FRAMES),
    ("get_ipython().run_line_magic('timeit', 'sys._getframe')\n", Touch.FRAMES),
]


@pytest.mark.parametrize("source, touch", FOUND, ids=[f"{t.name}-{i}" for i, (_, t) in enumerate(FOUND)])
def test_each_way_of_reaching_is_found(source: str, touch: Touch) -> None:
    found = reaches(source)
    assert touch in {r.touch for r in found}, found
    assert all(1 <= r.line <= source.count("\n") for r in found)


@pytest.mark.parametrize("source", [
    "def f(node):\n    return getattr(node, 'variable', None)\n",
    "def f(node):\n    return hasattr(node, 'variable')\n",
    # computed names: the submission's own getattr refuses grading's internals as it runs
    "def f(o, name):\n    return getattr(o, name)\n",
    "def f(v):\n    return [getattr(v, n) for n in ('data', 'grad')]\n",
    "def f(o, name):\n    return hasattr(o, name)\n",
    # a namespace only read: printed, indexed, searched, walked
    "def f(v):\n    print(v.__dict__)\n    return 'grad' in v.__dict__\n",
    "def f(o):\n    return {k: x for k, x in o.__dict__.items()}, o.__dict__['x'], f'{o.__dict__}'\n",
    "def f(o):\n    for key in o.__dict__:\n        print(key, o.__dict__.get(key))\n",
    "def f(o):\n    print(vars(o))\n    return sorted(vars(o).items()), vars(o)['x']\n",
    # a method's own object written under a literal name: what self.was_enabled = ... or setattr(self, '_memo', ...) do
    "class NoGrad:\n    def __enter__(self):\n        self.__dict__['was_enabled'] = 1\n        vars(self)['depth'] = 2\n",
    "class Node:\n    def release(self):\n        self.__dict__.setdefault('times_released', 0)\n",
    "class Node:\n    def unpack(self, name):\n        return self.__dict__.setdefault('_memo', {}), vars(self).setdefault('_grad', 0)\n",
    # tracebacks and signatures, not frames; a breakpoint left in (a no-op while graded)
    "import inspect\ndef f(g):\n    return inspect.signature(g), inspect.getsource(g)\n",
    "import sys\ndef f():\n    kind, error, tb = sys.exc_info()\n    return kind\n",
    "def f(y):\n    breakpoint()\n    y.backward()\n",
    "made = {}\nheld = [made]\n",  # ordinary words as names, not attributes
    # ... nor as a build-track engine's own attributes: the probes' records have names of their own
    "class AccumulateGrad:\n    made = []\n    def apply(self, g):\n        self.held, self.wrote = g, True\n"
    "        AccumulateGrad.made.append(self)\n",
    "def write_grad(v, g):\n    v.grad = g\n\nwrite_grad(w, 1.0)\n",  # a student's own function of that name
    "def f(Writer, pass_started):\n    return Writer(pass_started)\n",  # parameters are the source's own
    "import logging, unittest, os.path\n",
    "import os, sys, math, traceback\nprint(os.path.join('a', 'b'), sys.float_info.max)\n",
    "import os.path\nprint(os.path.join('a', 'b'), os.getcwd())\n",
    "from os import path\nprint(path.join('a', 'b'), path.exists('a'))\n",
    "import os.path as p\nprint(p.join('a', 'b'), p.sep)\n",
    "def f(y):\n    y.backward()\n    return y.grad.item()\n",
    "def broken(:\n",  # a syntax error: the import error says why
    # annotations that are names or prose, and signatures read as written
    "def f(x: 'Value', n: 'the number of steps') -> 'list[float]':\n    pass\n",
    "import inspect\ndef f(g):\n    return inspect.signature(g, eval_str=False)\n",
    # a decorator that keeps the wrapped function's name and documentation
    "import functools\ndef logged(g):\n    @functools.wraps(g)\n    def run(*a):\n        return g(*a)\n    return run\n",
    # names written out: read as the statement each stands for (import math, node.variable)
    "math = __import__('math')\nprint(math.pi)\n",
    "import operator\nby_variable = operator.attrgetter('variable')\nfirst = operator.attrgetter('grad_fn.name', 'data')\n",
    "from operator import attrgetter, methodcaller\nf, g = attrgetter('data'), methodcaller('backward', retain_graph=True)\n",
    "from functools import wraps, update_wrapper\ndef keep(run, g):\n"
    "    update_wrapper(run, g, assigned=('__doc__',), updated=())\n    return wraps(g)(run)\n",
    # Jupyter's "Download as .py" of %timeit f(): a magic's name, not an attribute's
    "get_ipython().run_line_magic('timeit', 'f()')\nget_ipython().run_cell_magic('timeit', '', 'f()\\n')\n",
])
def test_ordinary_code_reaches_nothing(source: str) -> None:
    assert reaches(source) == []


@pytest.mark.parametrize("path", sorted((REPO / "solutions").glob("ex*.py")) +
                         sorted((REPO / "exercises").glob("ex*.py")), ids=lambda p: p.name)
def test_the_courses_answers_and_stubs_reach_nothing(path: Path) -> None:
    assert reaches(path.read_text(encoding="utf-8")) == []


def test_at_most_a_few_places_are_named_in_source_order() -> None:
    source = "".join(f"setattr(o, n{i}, {i})\n" for i in range(10))
    found = reaches(source)
    assert len(found) == MAX_FOUND and [r.line for r in found] == sorted(r.line for r in found)


def test_a_source_nested_deeper_than_a_recursive_walk_is_read_whole() -> None:
    # a sum of 900 terms compiles (each + one node deeper); a visitor calling itself per node
    # stopped at the recursion limit there, before the reach after it
    source = "x = " + " + ".join(["1"] * 900) + "\nimport os\nos.write(1, b'{}')\n"
    compile(source, "deep.py", "exec")
    assert [(r.touch, r.line) for r in reaches(source)] == [(Touch.WIRE, 3)]


def test_a_source_nested_deeper_than_the_parents_reading_is_a_reach() -> None:
    # compile() goes deeper than ast.parse, which makes an object of every node: a source
    # between the two would otherwise hide what it names from the parent's reading
    # (Python 3.10's ast.parse makes its objects at any depth its parser takes: read whole)
    depths = range(2000, 20000, 50)
    depth = next((n for n in depths if _parse_fails("x = " + " + ".join(["1"] * n))), depths[-1])
    source = "x = " + " + ".join(["1"] * depth) + "\nfrom micrograph import observe\nobserve._observers[-1].probe_held.clear()\n"
    if _parse_fails(source):
        assert reaches(source) == [Reach(Touch.DYNAMIC, 1, TOO_DEEP)]
    else:
        assert [(r.touch, r.line) for r in reaches(source)] == [(Touch.OBSERVER, 3)] * 2


def _parse_fails(source: str) -> bool:
    try:
        ast.parse(source)
    except RecursionError:
        return True
    return False


def test_a_module_imported_is_told_as_an_import() -> None:
    # a debugger or a doctest run left in a correct answer: its feedback says to remove the import
    assert reaches("if __name__ == '__main__':\n    import doctest\n") == [Reach(Touch.DYNAMIC, 2, "doctest", True)]
    assert reaches("from logging import config\n") == [Reach(Touch.DYNAMIC, 1, "logging", True)]
    assert [r.imported for r in reaches("import sys\nf = sys._getframe(1)\n")] == [False]


def test_a_refused_module_under_any_attribute_name_a_worker_holds_is_a_reach() -> None:
    """The real ``builtins`` (whose ``getattr`` looks any name up unguarded), ``sys`` (whose
    ``modules`` holds every module) and the modules the parent refuses to see imported are
    attributes of other modules too (``traceback.sys``, ``collections._sys``, ``enum.bltns``,
    ``inspect.importlib``): each name they go by in the standard library and the engine a
    worker loads is one the source may not write."""
    import builtins
    import gc
    import importlib
    import marshal
    import sys
    import sysconfig

    import micrograph.viz  # noqa: F401 - what a worker loads
    import grader.sandbox.child.main  # noqa: F401

    refused = {id(m): m.__name__ for m in (sys, builtins, importlib, gc, marshal)}
    library = sysconfig.get_paths()["stdlib"]
    holding = {f"{name}.{key}": refused[id(value)] for name, module in list(sys.modules.items())
               if name.startswith("micrograph") or (getattr(module, "__file__", None) or "").startswith(library)
               for key, value in list(vars(module).items())
               if id(value) in refused and not key.startswith("__")}
    assert holding  # traceback.sys at least
    unread = {where: held for where, held in holding.items()
              if not reaches(f"import x\nthing = x.{where.rsplit('.', 1)[1]}\n")}
    assert not unread, unread


@pytest.mark.parametrize("source", ["from micrograph import Value", "import micrograph",
                                    "import micrograph.value as v", "from micrograph.node import Node"])
def test_the_course_engine_imported_by_an_engine_of_its_own_is_a_reach(source: str) -> None:
    assert reaches(source, own_engine=True) == [Reach(Touch.ENGINE, 1, source.split()[1], True)]
    assert reaches(source) == []  # ex01-ex15 are written with it


def test_a_module_imported_by_its_name_written_out_is_found_as_its_import_is() -> None:
    # __import__("grader") is import grader, told as an import (of the module's name, once)
    assert reaches("g = __import__('grader')\n") == [Reach(Touch.TESTS, 1, "grader", True)]
    assert reaches("i = __import__('importlib')\n") == [Reach(Touch.DYNAMIC, 1, "importlib", True)]
    assert reaches("m = __import__('micrograph')\n", own_engine=True) == [Reach(Touch.ENGINE, 1, "micrograph", True)]
    assert reaches("m = __import__('micrograph')\n") == []
