"""trace_backward: the recorded steps against the engine, the JSON data, and the page's text."""

import json
import sys

import pytest

import micrograph as mg
from micrograph import Value
from micrograph.viz import BackwardTrace, trace_backward


def documents_graph(x=2.0, w=1.0):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a = x + w
    b = w + 1
    return w, x, a, b, a * b


def hook_order(values):
    """Each value's name in the order the engine calls its hook: the engine's own order of nodes."""
    fired = []
    for name, v in values.items():
        v.register_hook(lambda g, name=name: fired.append(name))
    return fired


def names_of_steps(trace, values):
    """The name of the value each step's node made (or wrote, for AccumulateGrad)."""
    by_id = {}
    for node in trace.data["graph"]["nodes"]:
        if node["kind"] == "value" and node["name"]:
            by_id[node["id"]] = node["name"]
    return [by_id.get(trace.data["nodes"][s["node"]]["value"]) for s in trace.steps]


def test_documents_graph_steps_follow_the_engine():
    w, x, a, b, y = documents_graph()
    names = {"w": w, "x": x, "a": a, "b": b, "y": y}
    fired = hook_order(names)
    trace = trace_backward(y, names=names)
    # a = x + w makes x and w ready together: torch runs them in a's edge order (recorded from torch 2.13)
    assert names_of_steps(trace, names) == fired == ["y", "b", "a", "x", "w"]
    nodes = trace.data["nodes"]
    assert [nodes[s["node"]]["name"] for s in trace.steps] == [
        "MulBackward0", "AddBackward0", "AddBackward0", "AccumulateGrad", "AccumulateGrad"]
    mul, add_b, add_a, acc_x, acc_w = trace.steps
    assert [e["grad"] for e in mul["sent"]] == [2.0, 3.0] and mul["released"]
    assert add_b["sent"][1] == {"to": None, "edge": add_b["sent"][1]["edge"], "grad": None}  # the constant 1
    assert acc_w["received"] == w.grad.item() == 5.0 and acc_w["contributions"] == 2
    assert acc_w["wrote"]["label"] == "w" and acc_w["wrote"]["grad"] == 5.0 and acc_w["wrote"]["by"] == "AccumulateGrad"
    assert acc_w["ready"] == [] and trace.error is None
    assert trace.data["pass"]["dependencies"][acc_w["node"]] == 2
    assert json.loads(json.dumps(trace.steps, allow_nan=False)) == trace.steps


def test_tracing_changes_no_result():
    w1, *_, y1 = documents_graph(1.25, -0.5)
    w2, *_, y2 = documents_graph(1.25, -0.5)
    y1.backward()
    trace_backward(y2)
    assert w1.grad.item().hex() == w2.grad.item().hex()
    with pytest.raises(RuntimeError, match="second time"):
        y2.backward()  # freed as usual


def test_diamond_sums_both_paths():
    x = Value(0.7, requires_grad=True)
    s = x * 2
    top = (s + 1) * (s * 3)
    trace = trace_backward(top, names={"s": s, "x": x})
    step = next(st for st in trace.steps if trace.data["nodes"][st["node"]]["label"] == "s")
    arriving = [e["grad"] for st in trace.steps for e in st["sent"] if e["to"] == step["node"]]
    assert step["contributions"] == 2 == len(arriving) and step["received"] == arriving[0] + arriving[1]
    assert trace.steps[-1]["wrote"]["grad"] == x.grad.item()


def test_retained_non_leaf_is_written_by_retain_grad():
    w, x, a, b, y = documents_graph()
    a.retain_grad()
    trace = trace_backward(y, names={"a": a})
    writes = [s["wrote"] for s in trace.steps if s["wrote"] and s["wrote"]["by"] == "retain_grad"]
    assert writes == [{"value": writes[0]["value"], "label": "a", "by": "retain_grad", "grad": a.grad.item()}]


def test_retain_graph_is_passed_to_backward():
    *_, y = documents_graph()
    first = trace_backward(y, retain_graph=True)
    second = trace_backward(y)
    assert not any(s["released"] for s in first.steps) and second.steps[0]["released"]
    assert first.data["pass"]["retain_graph"] and not second.data["pass"]["retain_graph"]


def test_failing_second_backward_raises_the_engines_error_with_the_trace():
    *_, y = documents_graph()
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time") as raised:
        trace_backward(y)
    trace = raised.value.trace
    assert trace.steps == [] and trace.error["step"] == 0 and trace.error["type"] == "RuntimeError"
    assert trace.data["nodes"][trace.error["node"]]["name"] == "MulBackward0"
    recorded = trace_backward(y, errors="record")
    assert recorded.error["message"].startswith("Trying to backward") and "failed at step 0" in repr(recorded)


def test_a_chain_past_the_cap_of_drawn_nodes_records_every_node_in_order():
    n = 2 * sys.getrecursionlimit()  # past the cap of drawn nodes, which steps have not, and past recursion
    x = Value(1.0, requires_grad=True)
    y, values = x, {}
    for i in range(n):
        y = y * 1.0001
        values[f"v{i}"] = y
    fired = hook_order(values)
    trace = trace_backward(y)
    assert len(trace.steps) == n + 1
    op_order = [trace.data["nodes"][s["node"]]["name"] for s in trace.steps]
    assert op_order == ["MulBackward0"] * n + ["AccumulateGrad"]
    assert len(fired) == n and fired[0] == f"v{n - 1}"  # the engine runs the chain from the top
    assert all(s["contributions"] == 1 for s in trace.steps) and trace.steps[-1]["received"] == x.grad.item()
    assert len(trace.data["graph"]["nodes"]) <= 401  # drawn capped, as diagrams are


def test_trace_survives_json_and_from_json():
    w, x, a, b, y = documents_graph()
    trace = trace_backward(y, names={"w": w})
    again = BackwardTrace.from_json(json.loads(trace.to_json()))
    assert again.steps == trace.steps and again.data["pass"] == trace.data["pass"]


@pytest.mark.parametrize("mutate, problem", [
    (lambda d: d.update(format="x"), "format"),
    (lambda d: d["steps"][0].update(node="n999"), "node of the trace"),
    (lambda d: d["steps"][0].update(received="1e9999"), "number"),
    (lambda d: d["steps"][0]["sent"][0].update(edge="<script>"), "diagram id"),
    (lambda d: d["nodes"]["n0"].update(name=None), "string"),
    (lambda d: d.update(steps="all"), "steps"),
])
def test_from_json_refuses_a_forged_trace(mutate, problem):
    *_, y = documents_graph()
    data = json.loads(trace_backward(y).to_json())
    mutate(data)
    with pytest.raises(ValueError, match=problem):
        BackwardTrace.from_json(data)


def test_page_is_self_contained_and_escapes_names(tmp_path):
    w, x, a, b, y = documents_graph()
    hostile = "</script><script>alert(1)</script>"
    path = trace_backward(y, names={hostile: w, "y": y}).save_html(tmp_path / "sub" / "backward.html")
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page
    assert "<script>alert(1)" not in page and page.count("<script") == 2
    for fetches in ("<script src", "<link", "@import", "url(", "<img", "<iframe"):
        assert fetches not in page
    assert '"total": 5' in page


def test_repr_html_is_an_isolated_iframe():
    *_, y = documents_graph()
    out = trace_backward(y)._repr_html_()
    assert out.startswith("<iframe srcdoc=") and "&lt;script&gt;" in out


def test_arguments_are_checked():
    with pytest.raises(TypeError, match="Value"):
        trace_backward(3.0)
    with pytest.raises(ValueError, match="errors"):
        trace_backward(documents_graph()[-1], errors="ignore")
    with pytest.raises(TypeError):
        trace_backward(documents_graph()[-1], not_a_backward_argument=1)


def test_grad_of_a_sum_of_roots_via_gradient_argument():
    w = Value(3.0, requires_grad=True)
    y = mg.mul(w, w)
    trace = trace_backward(y, gradient=Value(2.0))
    assert trace.data["pass"]["roots"][0]["grad"] == 2.0 and trace.steps[-1]["wrote"]["grad"] == 12.0


# -- first_backward: the grader records the submission's own backward ---------------------------
def test_first_backward_records_a_backward_started_under_any_name_and_labels_late():
    from micrograph.engine import backward as run_it
    from micrograph.viz import first_backward

    with first_backward() as recording:
        w, x, a, b, y = documents_graph()
        run_it(y)
        y2 = documents_graph()[-1]
        y2.backward()  # a second pass: not part of the trace
    trace = recording.trace(names={"w": w, "y": y})
    assert len(trace.steps) == 5 and trace.data["steps_total"] == 5
    labels = [trace.data["nodes"][s["node"]]["label"] for s in trace.steps]
    assert labels == ["y", None, None, None, "w"]  # x's AccumulateGrad runs before w's, as in torch
    assert [s["wrote"]["label"] for s in trace.steps if s["wrote"]] == [None, "w"]
    named = {n["name"] for n in trace.data["graph"]["nodes"] if n["kind"] == "value"}
    assert {"w", "y"} <= named
    assert BackwardTrace.from_json(json.loads(trace.to_json())).steps == trace.steps


def test_a_value_named_late_shows_its_number_now():
    """The pass draws a from its node before a is named; a was changed under no_grad after its op
    ran (its node is the same), so the page shows what a holds, as graph_json does."""
    from micrograph.viz import first_backward

    with first_backward() as recording:
        w, x, a, b, _ = documents_graph()
        y = a + b  # saves neither: changing a does not stop its backward
        with mg.no_grad():
            a.mul_(4)
        y.backward()
    data = {n["name"]: n["data"] for n in recording.trace(names={"a": a, "b": b}).data["graph"]["nodes"]
            if n["kind"] == "value" and n["name"]}
    assert data == {"a": 12.0, "b": 2.0}


def test_first_backward_without_backward_is_none_and_caps_steps():
    from micrograph.viz import first_backward

    with first_backward() as recording:
        documents_graph()
    assert recording.trace() is None
    x = Value(1.0, requires_grad=True)
    y = x
    for _ in range(50):
        y = y * 1.5
    with first_backward(max_steps=10) as recording:
        y.backward()
    trace = recording.trace()
    assert len(trace.steps) == 10 and trace.data["steps_total"] == 51
    assert '"total": 51' in trace.html()


def test_a_recording_failure_never_breaks_the_backward(monkeypatch):
    from micrograph.viz import first_backward, trace_record

    def broken(*args, **kwargs):
        raise MemoryError("no room for the diagram")

    monkeypatch.setattr(trace_record, "graph_json_with_ids", broken)
    w, *_, y = documents_graph()
    with first_backward() as recording:
        y.backward()
    assert w.grad.item() == 5.0 and recording.trace() is None
