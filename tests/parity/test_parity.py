"""Every parity program, run on micrograph, must observe what torch observed.

The expectations in ``expected/`` were recorded from PyTorch by ``record.py``;
this file never imports torch.
"""

from __future__ import annotations

import pytest

from .backends import MicrographBackend
from .harness import compare, load_expected, program_names, run_program

# One worker runs the programs in order, in one process: the micrograph backend, like torch, warns
# once per process (program 39's create_graph warning is recorded where it first happens).
pytestmark = pytest.mark.xdist_group("parity")


@pytest.fixture(scope="module")
def backend() -> MicrographBackend:
    return MicrographBackend()


@pytest.mark.parametrize("name", program_names())
def test_matches_torch(name: str, backend: MicrographBackend) -> None:
    mismatches = compare(load_expected(name), run_program(name, backend))
    if mismatches:
        header = f"{name}: {len(mismatches)} observation(s) differ from torch:"
        pytest.fail("\n".join([header, *mismatches]), pytrace=False)
