"""``grade`` starts the isolation probe before loading its commands; the answer is the probe's,
taken once: a second command in the same process (as in these tests) probes afresh."""

from __future__ import annotations

import pytest

from grader.cli import probing
from grader.sandbox import isolation, uids


@pytest.mark.parametrize(("args", "needed"), [
    (["ex03"], True), ([], True), (["batch", "subs/"], True), (["--version"], True),
    (["list"], False), (["--help"], False), (["ex03", "-h"], False),
])
def test_the_probe_starts_early_only_where_a_child_may_run(args: list[str], needed: bool) -> None:
    assert probing.needed(args) is needed


def test_the_early_answer_is_taken_once_then_probed_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    probing.start()
    with probing.probing() as early:
        assert early.result() == isolation.current()
    monkeypatch.setenv(isolation.ENV, "limits-only")  # what a second command of the process asks
    with probing.probing() as afresh:
        assert afresh is not early
        if isolation.drops_uid(isolation.LIMITS_ONLY) and isolation.refusal(isolation.LIMITS_ONLY):
            # a root grader's children would read a Python under a private home as a uid of
            # their own (a pyenv one): the fresh answer is that refusal, not the early mode
            with pytest.raises(uids.IsolationUnavailable, match="limits only"):
                afresh.result()
        else:
            assert afresh.result().mode == isolation.LIMITS_ONLY


def test_a_refusal_is_raised_where_the_answer_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(isolation.ENV, "no-such-mode")
    probing.start()
    with pytest.raises(uids.IsolationUnavailable, match="no-such-mode"):
        probing.current()


def test_the_completion_of_a_shell_needs_no_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(probing.COMPLETION_VAR, "bash_complete")
    assert not probing.needed(["ex0"])
