"""The DOT source of a diagram: layout, colours, labels and legend.

One builder for every picture: ``draw`` (the notebook) and ``render_json`` (the
grader) both come here with a validated graph, so a student sees the same
diagram in both places.  The output is deterministic (ids come from the walk, no
memory addresses), which is what lets the tests compare it with golden files.

Conventions, after torchviz: leaves light blue, outputs green, op nodes grey
and named by their ``grad_fn``; added here: retained non-leaves yellow, values
that do not require grad dashed grey, ops whose saved values a backward freed
red and dashed.  Edges point in the forward direction (inputs to op to result)
and the layout runs bottom to top, as the documents draw ``y = (x + w) * (w + 1)``.
"""

from __future__ import annotations

import math
import re

from micrograph.i18n import N_
from micrograph.viz.labels import _, html, min_width, small
from micrograph.viz.dot_text import DotText
from micrograph.viz.graph_format import is_stale
from micrograph.viz.render import LEGEND_TITLE
from micrograph.viz.schema import Graph, OmittedNode, OpNode, SavedItem, ValueNode

FONT = "Helvetica"  # what the layout measures; the SVG's font-family lists CJK fonts (render.FONT_FAMILY)
NODE_SIZE, OP_SIZE, LEGEND_SIZE = 11, 10, 9
LINES_MARGIN = "0.22,0.09"  # inches around an op's label of several lines (Graphviz: 0.11,0.055)
VALUE_FILL = {
    "output": "darkolivegreen1",
    "leaf": "lightblue",
    "retained": "khaki1",
    "intermediate": "white",
    "holding": "thistle1",
    "const": "grey95",
    "bare": "lavenderblush",  # an entry of next_functions that is no pair: no value, so no value's fill
    "unpaired": "lavenderblush",
    "value_entry": "lavenderblush",
}
OP_FILL = "lightgrey"
FREED_FILL = "mistyrose"
WARN = "red3"  # freed or stale saved values
MUTED = "grey40"  # grad None, requires_grad=False
MARK = "blue3"  # a node the grader marks: where a submission's graph first differs
MARK_WIDTH = "4"  # its border, in points: in the drawing and in the legend's swatch alike

LEGEND = {
    "output": N_("output (what was drawn)"),
    "leaf": N_("leaf that requires grad: backward fills its .grad"),
    "retained": N_("non-leaf with retain_grad(): its .grad is kept"),
    "intermediate": N_("non-leaf: .grad stays None (not kept)"),
    "holding": N_("non-leaf that does not retain its grad (its retains_grad is not true), yet holds a .grad"),
    "const": N_("requires_grad=False: no gradient flows to it"),
    "bare": N_("a node in next_functions given without its input number: not a (node, input_nr) pair"),
    "unpaired": N_("an entry of next_functions that is not a (node, input_nr) pair"),
    "value_entry": N_("a Value in next_functions where a node belongs: the Value itself, not a node"),
}
UNPAIRED = {"bare": N_("given without its input number"), "unpaired": N_("not a (node, input_nr) pair"),
            "value_entry": N_("the Value itself, not a node")}
LEGEND_ID = LEGEND_TITLE  # a graph's own ids cannot start with _ (see schema)
_NOT_XML = re.compile("[\x00-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


def build(graph: Graph, *, show_saved: bool = False, legend: bool = True) -> DotText:
    """The diagram of a validated graph (see ``schema.validate``), as DOT text."""
    d = DotText(
        "micrograph",
        graph_attr={"rankdir": "BT", "bgcolor": "white", "nodesep": "0.3", "ranksep": "0.35", "fontname": FONT},
        node_attr={"fontname": FONT, "fontsize": str(NODE_SIZE), "shape": "box", "style": "filled", "margin": "0.1,0.04"},
        edge_attr={"color": "grey30", "arrowsize": "0.7"},
    )
    used = {tail for tail, _ in graph.edges}
    for node in graph.nodes:
        if isinstance(node, ValueNode):
            _value(d, node, node.id in used)
        elif isinstance(node, OpNode):
            _op(d, node, show_saved)
        else:
            _omitted(d, node, graph.omitted)
    omitted_ids = {n.id for n in graph.nodes if isinstance(n, OmittedNode)}
    const_ids = {n.id for n in graph.nodes if isinstance(n, ValueNode) and n.role in ("const", *UNPAIRED)}
    for tail, head in graph.edges:
        if tail in omitted_ids:
            d.edge(tail, head, style="dashed")
        elif tail in const_ids:
            d.edge(tail, head)
        else:
            d.edge(tail, head, weight="3")  # pulled straighter than a constant's edge: chains stay upright
    if legend:
        _legend(d, graph)
    return d


def _value(d: DotText, node: ValueNode, used: bool) -> None:
    if node.role in UNPAIRED:
        _unpaired(d, node)
        return
    lines = [] if node.name is None else [f"<B>{escape(node.name)}</B>"]
    if node.role == "const":
        if node.data is None and node.name is None:
            lines.append(escape(_("constant")))
        if node.data is not None:
            lines.append(f"data {number(node.data)}")
        lines.append(small("requires_grad=False", MUTED))
        if not used:  # a named value the graph keeps no edge to (next_functions holds None)
            lines.append(small(escape(_("not recorded in the graph")), MUTED))
        style = {"style": "filled,dashed", "color": "grey50", **_mark(node.marked)}
        if node.marked:  # solid, as the legend's swatch draws the mark; the fill still says it needs no grad
            style["style"] = "filled"
        d.node(node.id, html(lines), fillcolor=VALUE_FILL["const"], **style, **min_width(lines, NODE_SIZE))
        return
    lines.append(f"data {number(node.data)}")
    lines.append(f'<FONT COLOR="{MUTED}"><I>grad None</I></FONT>' if node.grad is None else f"grad {number(node.grad)}")
    d.node(node.id, html(lines), fillcolor=VALUE_FILL[_fill(node)], **_mark(node.marked),
           **min_width(lines, NODE_SIZE))


def _unpaired(d: DotText, node: ValueNode) -> None:
    """An entry of a student's ``next_functions`` that is no (node, input_nr) pair, drawn as what
    it is: its name is the entry's (a node's name, None, a type), not a value's, so it is not bold,
    and it has no data or grad, being no value."""
    shown = (node.name or "?").rsplit("::", 1)[-1]  # torch::autograd::AccumulateGrad -> AccumulateGrad
    lines = [escape(shown), small(escape(_(UNPAIRED[node.role])), MUTED)]
    style = {"style": "filled" if node.marked else "filled,dotted", "color": "grey30", **_mark(node.marked)}
    d.node(node.id, html(lines), fillcolor=VALUE_FILL[node.role], **style, **min_width(lines, NODE_SIZE))


def _fill(node: ValueNode) -> str:
    """The legend entry a value is drawn as: its role, but a non-leaf that does not retain its
    grad and yet holds one (a student's engine that wrote it without setting retains_grad) is
    drawn as what it shows, never as a box whose legend says its .grad stays None."""
    return "holding" if node.role == "intermediate" and node.grad is not None else node.role


def _op(d: DotText, node: OpNode, show_saved: bool) -> None:
    lines = [escape(node.op.rsplit("::", 1)[-1])]  # torch::autograd::AccumulateGrad -> AccumulateGrad
    stale = [_saved_name(s.slot) for s in node.saved if is_stale(s)]
    if node.freed and show_saved:
        slots = ", ".join(_saved_name(s.slot) for s in node.saved)
        lines.append(small(escape(_("{slots} freed", slots=slots)), WARN))
    elif node.freed:
        lines.append(small(escape(_("saved values freed")), WARN))
    elif show_saved:
        lines.extend(_saved_line(s) for s in node.saved)
    elif stale:
        lines.append(small(escape(_("{slots} modified in place", slots=", ".join(stale))), WARN))
    if node.freed:
        style = {"fillcolor": FREED_FILL, "color": WARN, "style": "rounded,filled,dashed"}
    elif stale:
        style = {"fillcolor": OP_FILL, "color": WARN, "style": "rounded,filled", "penwidth": "2"}
    else:
        style = {"fillcolor": OP_FILL, "style": "rounded,filled"}
    style.update(_mark(node.marked))
    if node.marked:  # solid, as the legend's swatch draws the mark; the fill still says freed
        style["style"] = style["style"].replace(",dashed", "")
    if len(lines) > 1:  # the rounded corners cut into lines drawn at the default margin
        style["margin"] = LINES_MARGIN
    d.node(node.id, html(lines), ordering="in", fontsize=str(OP_SIZE), **style, **min_width(lines, OP_SIZE))
    # ordering="in": inputs a, b left to right


def _mark(marked: bool) -> dict[str, str]:
    """A marked node (where the grader found a graph to differ) gets a thick blue border."""
    return {"color": MARK, "penwidth": MARK_WIDTH} if marked else {}


# Which operand of its op a saved item is, beside torch's name for it: a student reads the
# op's node and finds the operand without knowing torch's attributes.
OPERANDS = {"_saved_self": N_("1st operand"), "_saved_other": N_("2nd operand"),
            "_saved_exponent": N_("the exponent"), "_saved_result": N_("the op's output")}


def _saved_name(slot: str) -> str:
    """A saved item's name as drawn: ``_saved_other (2nd operand)``."""
    operand = OPERANDS.get(slot)
    return slot if operand is None else _("{slot} ({operand})", slot=slot, operand=_(operand))


def _saved_line(s: SavedItem) -> str:
    name = _saved_name(s.slot)
    if s.saved_version is None:
        return small(escape(_("{slot} = {data}", slot=name, data=number(s.data))), "black")
    if is_stale(s):
        text = _("{slot}: version {saved}, now {now} (modified in place)",
                 slot=name, saved=s.saved_version, now=s.version)
        return small(escape(text), WARN)
    text = _("{slot} = {data} (version {saved})", slot=name, data=number(s.data), saved=s.saved_version)
    return small(escape(text), "black")


def _omitted(d: DotText, node: OmittedNode, count: int) -> None:
    text = [escape(_.n("... {count} more node not drawn", "... {count} more nodes not drawn", count, count=f"{count:,}")),
            small(escape(_("the drawing is capped (max_nodes)")), MUTED)]
    d.node(node.id, html(text), shape="note", fillcolor="white", style="filled,dashed", **min_width(text, NODE_SIZE))


def _legend(d: DotText, graph: Graph) -> None:
    """One table listing only what this picture contains."""
    roles = {_fill(n) for n in graph.nodes if isinstance(n, ValueNode)}
    rows = [(VALUE_FILL[r], "black", _(text)) for r, text in LEGEND.items() if r in roles]
    ops = [n for n in graph.nodes if isinstance(n, OpNode)]
    if ops:
        rows.append((OP_FILL, "black", _("op: the grad_fn that made the value above it")))
    rows += _accumulating(graph, {n.id for n in ops})
    if any(n.freed for n in ops):
        rows.append((FREED_FILL, WARN, _("saved values freed by backward: a second backward fails")))
    if any(is_stale(s) for n in ops for s in n.saved):
        rows.append((OP_FILL, WARN, _("a saved value was modified in place: backward fails")))
    swatches = [f'BGCOLOR="{fill}" COLOR="{color}"' for fill, color, _text in rows]
    texts = [text for _fill, _color, text in rows]
    if any(isinstance(n, (ValueNode, OpNode)) and n.marked for n in graph.nodes):  # as _mark draws it
        swatches.append(f'BGCOLOR="white" COLOR="{MARK}" BORDER="{MARK_WIDTH}"')
        texts.append(_("thick blue border: where your graph first differs"))
    cells = "".join(
        f'<TR><TD {swatch} WIDTH="18"> </TD>'
        f'<TD ALIGN="LEFT" BORDER="0"{_cell_width(text)}>{escape(text)}</TD></TR>'
        for swatch, text in zip(swatches, texts)
    )
    table = f'<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="3" CELLPADDING="2">{cells}</TABLE>>'
    d.node(LEGEND_ID, table, shape="plaintext", style="", fontsize=str(LEGEND_SIZE))


def _accumulating(graph: Graph, op_ids: set[str]) -> list[tuple[str, str, str]]:
    """The legend's rows for AccumulateGrad nodes drawn as ops (an op feeding an op), which the
    documents draw as their leaf: one for a value that requires no grad (``collect._accumulating``),
    one of several made for one leaf (``collect._split_accumulators``)."""
    roles = {n.id: n.role for n in graph.nodes if isinstance(n, ValueNode)}
    feeding = {tail for tail, head in graph.edges if tail in op_ids and head in op_ids}
    below = {roles.get(tail) for tail, head in graph.edges if head in feeding}
    rows: list[tuple[str, str, str]] = []
    if "const" in below:
        rows.append((OP_FILL, "black", _("AccumulateGrad of the value below it, which requires no grad: "
                                         "PyTorch makes none")))
    if below & {"leaf", "output"}:
        rows.append((OP_FILL, "black", _("AccumulateGrad of the leaf below it: one of several your engine "
                                         "made for that leaf, where PyTorch makes one, drawn as the leaf itself")))
    return rows


def _cell_width(text: str) -> str:
    """A legend cell's minimum width when its text has wide (CJK) characters, else nothing."""
    width = min_width([text], LEGEND_SIZE).get("width")
    return "" if width is None else f' WIDTH="{round(float(width) * 72)}"'


def escape(text: str) -> str:
    """Text made safe inside an HTML-like DOT label: no markup, no control or non-XML characters."""
    text = _NOT_XML.sub(" ", text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def number(x: float | bool | None) -> str:
    """Six significant digits: 1.0001 stays 1.0001; the JSON keeps every bit (a bool as itself)."""
    if x is None:
        return "?"
    if type(x) is bool:
        return str(x)
    if math.isnan(x) or math.isinf(x):
        return str(x)
    return f"{x:.6g}"
