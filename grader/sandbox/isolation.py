"""Which isolation this machine gives the sandboxed children, decided once, said everywhere.

Three modes, strongest first (docs/instructor.md says what each guarantees):

``namespaces``   each child in its own user, pid, ipc, net and mount namespaces, a uid of its
                 own, no capabilities, a file system of read-only system folders plus a tmpfs
                 scratch, seccomp and rlimits (``grader.sandbox.child.namespaces``);
``uid+seccomp``  where namespaces are refused (Docker's default seccomp profile, Gradescope's
                 containers) and the grader is root: a uid of its own per child from a reserved
                 range, no capabilities, the isolation seccomp filter, rlimits, and a scratch
                 budget the parent enforces;
``limits only``  rlimits and whatever Landlock/seccomp layers the platform has (reported per
                 child); on Linux as root, the child also drops to a uid of its own with no
                 capabilities, as in ``uid+seccomp``: no promise about other processes of its
                 uid, IPC or the network.

``available()`` probes the kernel once per process by starting a throwaway child that goes
through the real isolation steps (so what is announced is what works).  ``current()`` is that
mode, lowered by ``$GRADE_ISOLATION`` when set (tests use it to simulate a kernel without
namespaces); asking for more than the machine gives is an error, never a silent downgrade.
A child never keeps root on Linux: a root grader whose children cannot drop to a uid of their
own refuses to run them.  Off Linux (no uid switch is made there) a root grader refuses
``limits only`` unless ``GRADE_ISOLATION=limits-only`` says so explicitly.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Literal, NamedTuple, Sequence

import grader
from grader.sandbox.said import N_, Said, _
from grader.sandbox.uids import UID_BASE, UID_COUNT, IsolationUnavailable, child_uid, running_as_root

Mode = Literal["namespaces", "uid+seccomp", "limits only"]
NAMESPACES: Mode = "namespaces"
UID_SECCOMP: Mode = "uid+seccomp"
LIMITS_ONLY: Mode = "limits only"
ORDER: tuple[Mode, ...] = (LIMITS_ONLY, UID_SECCOMP, NAMESPACES)
ENV = "GRADE_ISOLATION"
LANDLOCK_ENV = "GRADE_LANDLOCK"  # "off": children skip Landlock, as on a kernel without it
SENTINEL_ENV = "GRADE_SENTINEL"  # "off": children set no sentinel (to test the layers beneath)
FREEZE_ENV = "GRADE_FREEZE"  # "off": the engine's classes stay mutable, as where ctypes is missing
# (``grader.sandbox.child.freeze``): the security tests reach the comparisons standing in for it so
_PROBE_SECONDS = 20.0
_LIMITS_HERE = {  # what ``grader.sandbox.child.confine`` can apply there, in one sentence
    "darwin": N_("macOS: a separate process with a time limit and rlimits (CPU, file size, open "
                 "files, no new processes), no memory limit (macOS does not enforce RLIMIT_AS), "
                 "no sandbox"),
    "win32": N_("Windows: a separate process with a time limit, no memory limit, no sandbox"),
}
_LIMITS_ELSEWHERE = N_("{system}: a separate process with a time limit and rlimits (CPU, file "
                       "size, open files, no new processes), no sandbox")


def _package_root(name: str) -> str:
    """The folder that holds package ``name``, found without importing it (importing
    ``micrograph`` runs the engine's modules)."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None, name
    return str(Path(spec.origin).resolve().parents[1])


ROOTS = sorted({str(Path(grader.__file__).resolve().parents[1]), _package_root("micrograph")})


class Isolation(NamedTuple):
    """The mode children run in, why nothing stronger, the interpreter they start with, and
    the layers a child of this mode applied when probed (empty where no probe runs).  A named
    tuple, not a dataclass: ``dataclasses`` imports ``inspect``, which the probe would wait for."""

    mode: Mode
    reasons: tuple[Said, ...]
    python: str
    layers: tuple[str, ...] = ()

    @property
    def reason(self) -> str:
        return _("; ").join(map(str, self.reasons))

    def describe(self) -> str:
        if not self.reasons:
            return _("isolation: {mode}", mode=self.mode)
        return _("isolation: {mode} ({reason})", mode=self.mode, reason=self.reason)

    def describe_layers(self) -> str:
        """The layers a child of this mode applied when probed (``no landlock`` said where it
        could not apply Landlock), for ``grade --version``; "" where no probe ran."""
        if not self.layers:
            return ""
        return _("layers: {names}", names=layer_names(self.layers))

    def summary(self) -> str:
        """``describe`` and ``describe_layers`` on one line (``grade --version``, the
        Gradescope run's output for staff)."""
        return _("; ").join(filter(None, (self.describe(), self.describe_layers())))


_LAYER_NAMES = {"namespaces": "namespaces", "caps": N_("no capabilities"), "seccomp": "seccomp",
                "landlock": "landlock", "rlimit": "rlimits", "sentinel": "sentinel"}


def layer_names(layers: Sequence[str]) -> str:
    """A child's layers as ``grade --version`` names them, each once, ``no landlock`` added
    where it could not apply Landlock (``namespaces, own uid, no capabilities, seccomp, ...``)."""
    names = [_layer_name(layer) for layer in layers]
    if not any(layer.startswith("landlock") for layer in layers):
        names.append(_("no landlock"))
    return _(", ").join(dict.fromkeys(names))


def _layer_name(layer: str) -> str:
    """A child's layer ("uid:1900000123", "landlock:abi7+net") as ``--version`` names it."""
    kind, detail = layer.partition(":")[::2]
    if kind == "uid":
        own = detail.isdigit() and UID_BASE <= int(detail) < UID_BASE + UID_COUNT
        return _("own uid") if own else _("the grader's uid")
    return _(_LAYER_NAMES[kind]) if kind in _LAYER_NAMES else layer


def landlock_wanted() -> bool:
    """False when ``$GRADE_LANDLOCK=off`` simulates a kernel without Landlock."""
    return os.environ.get(LANDLOCK_ENV, "").strip().lower() != "off"


def sentinel_wanted() -> bool:
    """False when ``$GRADE_SENTINEL=off`` asks children for no sentinel: the security tests
    reach the layers beneath it so (the parent still reads the source, ``grader.sandbox.reach``)."""
    return os.environ.get(SENTINEL_ENV, "").strip().lower() != "off"


def plan(mode: Mode, uid: int | None, scratch: str, submissions: list[str],
         scratch_bytes: int, scratch_inodes: int) -> dict[str, object]:
    """The isolation plan a child gets (``grader.sandbox.child.plan.Plan``, as plain data)."""
    return {"mode": mode, "uid": uid, "scratch": scratch, "submissions": submissions,
            "scratch_bytes": scratch_bytes, "scratch_inodes": scratch_inodes,
            "landlock": landlock_wanted(), "sentinel": sentinel_wanted(),
            "freeze": os.environ.get(FREEZE_ENV, "").strip().lower() != "off"}


def keeps_writes_in_scratch(mode: Mode) -> bool:
    """Whether a layer of the kernel keeps a child's writes in its scratch folder: its own
    file system (``namespaces``), or Landlock, where a probe child of ``mode`` applied it."""
    if mode == NAMESPACES:
        return True
    return landlock_wanted() and any(layer.startswith("landlock") for layer in _probe(mode)[1])


def drops_uid(mode: Mode) -> bool:
    """Whether children of ``mode`` switch to a uid of their own on a real folder (the
    parent then hands them their scratch and sweeps what they left): every mode but
    ``namespaces`` (whose scratch is its own tmpfs), as root on Linux."""
    return mode != NAMESPACES and running_as_root() and sys.platform == "linux"


# --- uids of their own --------------------------------------------------------------------

def scratch_parent(mode: Mode) -> str | None:
    """Where the scratch folders go: the temp folder (None), except where a child drops to a
    uid of its own that could not reach it (a private ``$TMPDIR``): then a root-owned folder
    of ``/tmp`` that others may cross but not list (0711)."""
    if not drops_uid(mode) or others_can(tempfile.gettempdir(), 0o1):
        return None
    folder = os.path.join("/tmp", "micrograph-scratch")
    os.makedirs(folder, mode=0o711, exist_ok=True)
    st = os.lstat(folder)
    if st.st_uid != 0 or not os.path.isdir(folder) or os.path.islink(folder):
        raise IsolationUnavailable(f"{folder} is not a root-owned folder: remove it")
    os.chmod(folder, 0o711)
    return folder


# --- the interpreter children start with --------------------------------------------------

def others_can(path: str, bits: int) -> bool:
    """Whether a user with no relation to the files (a child's own uid) has ``bits`` on
    ``path`` and can search every folder above it."""
    try:
        real = os.path.realpath(path)
        parts = Path(real).parents
        if not all(os.stat(p).st_mode & 0o001 for p in parts):
            return False
        return os.stat(real).st_mode & bits == bits
    except OSError:
        return False


def _stdlib_of(python: str) -> str:
    """Where ``python``'s standard library is (the usual layout: PREFIX/lib/pythonX.Y)."""
    if os.path.realpath(python) == os.path.realpath(sys.executable):
        return os.path.dirname(os.__file__)
    prefix = os.path.dirname(os.path.dirname(os.path.realpath(python)))
    return os.path.join(prefix, "lib", f"python{sys.version_info.major}.{sys.version_info.minor}")


def interpreter(mode: Mode) -> str:
    """This Python, except where a child drops to a uid of its own that could not import from
    its standard library (a pyenv or venv under a private home): then the system's Python of
    the same version.  (The namespaces mode mounts the library for the child, and the child
    imports the grader and micrograph before it changes uid, so their folders may be private.)"""
    if not drops_uid(mode) or others_can(_stdlib_of(sys.executable), 0o5):
        return sys.executable
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (f"/usr/bin/{version}", f"/usr/local/bin/{version}"):
        if os.path.isfile(candidate) and others_can(_stdlib_of(candidate), 0o5):
            return candidate
    return sys.executable  # the probe will say what fails


# --- detection ----------------------------------------------------------------------------

def refusal(mode: Mode) -> Said | str | None:
    """Why children cannot run in ``mode`` here (one line), or None when they can: probed once
    per process, for the mode detected and for a mode ``$GRADE_ISOLATION`` lowers to alike."""
    python = interpreter(mode)
    library = _stdlib_of(python)
    if drops_uid(mode) and not others_can(library, 0o5):
        return Said(N_("a child's own uid cannot read the standard library of {python} ({library}): "
                       "install {version} where every user can read it (the system's, or under /usr/local)"),
                    (("python", python), ("library", library),
                     ("version", f"python{sys.version_info.major}.{sys.version_info.minor}")))
    return _probe(mode)[0]


@functools.cache
def _probe(mode: Mode) -> tuple[str | None, tuple[str, ...]]:
    """Start one child that isolates and confines itself as in ``mode`` and imports a module
    of the standard library afterwards: (None, the layers it applied) when that worked, else
    (why not, in one line, ())."""
    from grader.sandbox import scratch

    with child_uid() as uid:
        folder = tempfile.mkdtemp(prefix="grade-probe-", dir=scratch_parent(mode))
        try:
            if uid is not None and drops_uid(mode):
                os.chown(folder, uid, uid)
            request = plan(mode, uid, folder, ["probe.py"], 1 << 20, 64)
            boot = (f"import sys; sys.path[:0] = {ROOTS!r}; "
                    "from grader.sandbox.child.isolate import self_test; self_test()")
            try:
                done = subprocess.run([interpreter(mode), "-I", "-S", "-c", boot],
                                      input=json.dumps(request).encode(), capture_output=True,
                                      timeout=_PROBE_SECONDS, cwd=folder, start_new_session=True)
            except (OSError, subprocess.SubprocessError) as exc:
                return f"cannot start a child: {exc}", ()
            lines = done.stdout.decode("utf-8", "replace").strip().splitlines()
            if done.returncode == 0 and len(lines) >= 2 and lines[-1] == "ok":
                return None, tuple(json.loads(lines[-2]))
            err = done.stderr.decode("utf-8", "replace").strip().splitlines()
            return (lines or err or [f"exit status {done.returncode}"])[-1][:200], ()
        finally:
            scratch.remove_tree(folder)


def _found(mode: Mode, reasons: tuple[Said, ...], python: str) -> Isolation:
    """``mode`` as detected, with the layers its probe child applied."""
    return Isolation(mode, reasons, python, _probe(mode)[1])


@functools.cache
def available() -> Isolation:
    """The strongest mode this machine gives (probed once per process)."""
    if sys.platform != "linux":  # namespaces, seccomp and Landlock are Linux's
        here = _LIMITS_HERE.get(sys.platform)
        said = Said(here) if here else Said(_LIMITS_ELSEWHERE, (("system", sys.platform),))
        return Isolation(LIMITS_ONLY, (said,), sys.executable)
    from grader.sandbox.child import seccomp

    if seccomp.this_arch() is None:
        import platform  # for this sentence only

        system = f"{platform.system()} {platform.machine()}"
        return Isolation(LIMITS_ONLY, (Said(N_("no seccomp on {system}"), (("system", system),)),),
                         sys.executable)
    why = refusal(NAMESPACES)
    if why is None:
        return _found(NAMESPACES, (), sys.executable)
    reasons = [Said(N_("namespaces refused: {why}"), (("why", why),))]
    if running_as_root():
        why_uid = refusal(UID_SECCOMP)
        if why_uid is None:
            return _found(UID_SECCOMP, tuple(reasons), interpreter(UID_SECCOMP))
        reasons.append(Said(N_("uid+seccomp failed: {why}"), (("why", why_uid),)))
    else:
        reasons.append(Said(N_("uid+seccomp needs root")))
    return _found(LIMITS_ONLY, tuple(reasons), interpreter(LIMITS_ONLY))


def _wanted() -> Mode | None:
    value = os.environ.get(ENV, "").strip().lower().replace("-", " ").replace("_", " ")
    if not value:
        return None
    for mode in ORDER:
        if value == mode or value == mode.replace("+", " "):
            return mode
    raise IsolationUnavailable(Said(N_("{variable}={value} is not one of namespaces, uid+seccomp, limits-only"),
                                    (("variable", ENV), ("value", repr(os.environ[ENV])))))


def current() -> Isolation:
    """The mode children run in now: ``available()``, or less when ``$GRADE_ISOLATION`` asks;
    raises IsolationUnavailable when the ask is more than the machine gives, or when a root
    grader would run children as root without being told to."""
    wanted = _wanted()
    best = available()
    if wanted is None or wanted == best.mode:
        if best.mode == LIMITS_ONLY and running_as_root():
            _refuse_root(best.reason, explicit=wanted is not None)
        return best
    if ORDER.index(wanted) > ORDER.index(best.mode):
        raise IsolationUnavailable(Said(N_("{variable} asks for {mode}, but this machine gives only {best} ({reason})"),
                                        (("variable", ENV), ("mode", wanted), ("best", best.mode),
                                         ("reason", best.reason))))
    if wanted == UID_SECCOMP and not running_as_root():
        raise IsolationUnavailable(Said(N_("{variable} asks for uid+seccomp, which needs root (a uid of its own "
                                           "for each child)"), (("variable", ENV),)))
    why = refusal(wanted) if wanted != LIMITS_ONLY or drops_uid(wanted) else None
    if why is not None:  # said in the language asked where it is shown (the probe may start first)
        raise IsolationUnavailable(Said(N_("{variable} asks for {mode}, which fails here: {why}"),
                                        (("variable", ENV), ("mode", wanted), ("why", why))))
    return _found(wanted, (Said(N_("lowered by {variable}"), (("variable", ENV),)),), interpreter(wanted))


def _refuse_root(reason: str, explicit: bool) -> None:
    """``limits only`` as root: on Linux the children drop to a uid of their own, checked by
    a probe (raises when that fails); elsewhere no drop is made, so only an ``explicit``
    ``GRADE_ISOLATION=limits-only`` lets them run as root."""
    if sys.platform == "linux":
        why = refusal(LIMITS_ONLY)
        if why is not None:
            raise IsolationUnavailable(Said(N_("grade runs as root but cannot give submissions a uid of their "
                                               "own here ({why}): run grade as an ordinary user"), (("why", why),)))
        return
    if explicit:
        return
    raise IsolationUnavailable(Said(N_("grade runs as root but cannot give submissions a uid of their own here "
                                       "({reason}): run grade as an ordinary user, or set {variable}=limits-only "
                                       "to let submissions run as root"), (("reason", reason), ("variable", ENV))))
