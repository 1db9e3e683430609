"""The parent's side of the trust boundary, piece by piece: what the gallery reaches through a
child, checked directly with forged data."""

from __future__ import annotations

import os
import signal
import tempfile

import pytest

from grader.sandbox import scratch
from grader.sandbox.child import wire
from grader.sandbox.records import signal_name
from grader.sandbox.text import clean


@pytest.mark.parametrize("line", [
    b'{"kind": "test"}',                                           # missing keys
    b'{"kind": "test", "name": "t", "obs": 1, "error": null, "x": 1}',  # an extra key
    b'{"kind": "import", "error": {"type": "E", "message": "m", "function": null}}',
    b'{"kind": "import", "error": {"type": "E", "message": "m", "function": null, "caller": null, '
    b'"line": true}}',                                              # a bool is not a line
    b'{"kind": "import", "error": {"type": "E", "message": "m", "function": null, "caller": 7, '
    b'"line": null}}',                                              # a caller is a name
    b'{"kind": "import", "error": {"type": "E", "message": "m", "function": null, "caller": null, '
    b'"line": null, "step": null, "fresh": 1}}',                   # fresh is a bool
    b'{"kind": "confined", "layers": ["x", 3]}',
    b'{"kind": "test", "name": "' + b"n" * 300 + b'", "obs": 1, "error": null}',
    b'{"kind": "refused", "reason": 7}',
    b'{"kind": "diagram", "graph": [], "error": null}',
    b'[1, 2]', b'\xff\xfe', b'{"kind": "done"', b"[" * 100_000,
])
def test_a_malformed_record_is_refused(line: bytes) -> None:
    with pytest.raises(wire.WireError):
        wire.decode(line)


def test_every_signal_number_has_a_name() -> None:
    assert signal_name(9) == "SIGKILL"
    assert signal_name(signal.SIGRTMIN + 3) == "SIGRTMIN+3"
    assert signal_name(99) == "signal 99" and signal_name(-5) == "signal -5"


def test_terminal_control_and_lone_surrogates_are_removed_and_length_capped() -> None:
    text = "a\x1b[2Jb\x1b]52;c;ZXZpbA==\x07c\x1b]0;t\x1b\\d\ud800e\x9b31mf\u202eg\x07h\tx\ny"
    assert clean(text, 1000) == "abcd\ufffdefgh\tx\ny"
    assert clean("z" * 50, 10) == "z" * 10 + "\n[truncated, 40 more characters]"


def test_a_folder_nested_far_past_the_recursion_limit_is_removed() -> None:
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None  # a tmpfs: rmdir is cheap there
    root = tempfile.mkdtemp(prefix="deep-", dir=shm)
    fd = os.open(root, os.O_RDONLY)
    try:
        for i in range(1_500):  # sys.getrecursionlimit() is 1,000
            os.mkdir("d", dir_fd=fd)
            if i % 500 == 0:
                os.close(os.open("f", os.O_CREAT | os.O_WRONLY, 0o600, dir_fd=fd))
                os.mkdir("locked", 0, dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)
    scratch.remove_tree(root)
    assert not os.path.exists(root)


def test_usage_stops_counting_past_the_budget() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for i in range(50):
            open(os.path.join(folder, f"f{i}"), "w").close()
        assert scratch.usage(folder, 1 << 20, 10).entries in range(11, 51)
