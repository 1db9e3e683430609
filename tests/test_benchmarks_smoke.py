"""The engine benchmark still runs (tiny sizes) and its report holds every part. No timing is asserted."""

from __future__ import annotations

import pytest

from benchmarks import against_torch, callgrind, workloads
from benchmarks.__main__ import main
from benchmarks.engines import micrograph
from benchmarks.turns import CpuLaps


@pytest.mark.parametrize("engine", ["micrograph", "torch"])
def test_each_workload_reports_its_phases(engine: str) -> None:
    e = micrograph() if engine == "micrograph" else against_torch.torch_engine()
    if e is None:
        pytest.skip(f"torch is not installed here ({against_torch.INSTALL}): its adapter is not run")
    runs = {
        "chain": lambda laps: workloads.chain(e, laps, ops=200),
        "sum": lambda laps: workloads.product_sum(e, laps, n=200),
        "mlp-kept": lambda laps: workloads.mlp(e, laps, clear=False, points=6),
        "mlp-cleared": lambda laps: workloads.mlp(e, laps, clear=True, points=6),
        "training": lambda laps: workloads.training(e, laps, rows=(2, 4)),
    }
    for workload in workloads.WORKLOADS:
        laps = CpuLaps()
        runs[workload.key](laps)
        expected = workload.phases if workload.key != "training" else (
            workloads.rows_backward(2), workloads.rows_backward(4))
        assert set(laps.seconds) == set(expected), workload.key
    if engine == "micrograph":
        assert workloads.bytes_per_node(e, ops=500) > 0


def test_callgrind_child_marks_each_phase_it_closes() -> None:
    marks = callgrind.child("micrograph", ["chain"])
    assert marks == [None, ("chain", "forward"), None, ("chain", "backward")]


def test_without_valgrind_the_counts_say_why() -> None:
    counts = callgrind.count(["micrograph"], ["chain"], valgrind=None)
    assert counts.counts == {} and "valgrind is not installed" in (counts.unavailable or "")


def test_report_gives_each_target_its_status(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--only", "chain", "--rounds", "1", "--callgrind", "none"])
    report = capsys.readouterr().out
    assert report.startswith("## Engine speed")
    assert "| chain of 10,000 ops (y = y*c + d) | forward |" in report
    assert "bytes per node" in report and "not counted (--callgrind none)" in report


def test_unknown_workload_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--only", "chian"])
    assert "unknown workload(s) chian" in capsys.readouterr().err


@pytest.mark.parametrize("x0", [1.5, -2.0])
def test_the_floor_engine_computes_the_gradients_micrograph_does(x0: float) -> None:
    """The bare algorithm of ``benchmarks.floor`` is an honest engine: its floor is not a shortcut."""
    import micrograph as mg
    from benchmarks.floor import Bare

    grads = []
    for make in (Bare, mg.Value):
        w, x = make(0.5, requires_grad=True), make(x0, requires_grad=True)
        y = (w * x + w).relu() * 3 + x * x + 2 * w
        y.backward()
        grads.append([float(w.grad), float(x.grad)])
    assert grads[0] == grads[1]
