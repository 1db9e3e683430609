"""The benchmark workloads still run (on micrograph alone, tiny sizes). No timing is asserted here."""

from benchmarks import workloads
from benchmarks.engines import micrograph


def test_workloads_run_and_report_phases() -> None:
    e = micrograph()
    assert set(workloads.chain(e, 200)) == {"forward", "backward", "gc"}
    assert set(workloads.wide(e, 200)) == {"forward", "backward", "gc"}
    assert {"forward", "backward", "step"} <= set(workloads.mlp(e))
    m = workloads.memory(e, 500)
    assert m["bytes_per_node"] > 0
    tracked = workloads.tracked_objects(e, 1_056)  # two points of the mlp layer
    assert 0 < tracked["chain"] < 7 and 0 < tracked["layer"] < 7  # micrograd keeps 7 per op


def test_chain_of_a_million_ops_fits_in_the_workload_shape() -> None:
    # the benchmark's deep chain must not recurse: 20,000 steps here, 1e6 in `python -m benchmarks`
    e = micrograph()
    assert workloads.chain(e, 20_000)["backward"] >= 0.0
