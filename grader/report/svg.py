"""Diagrams drawn from students' graphs, made safe to embed in a page (the batch report, a
Gradescope test whose output is HTML).

The SVG is parsed and rebuilt from an allow-list of elements and attributes, so nothing active
(scripts, event handlers, links, external references, styles) survives; every text is escaped.
Labels inside a diagram come from the submission (names, values), so this is the only way a
diagram reaches a page.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET

_SVG_TAGS = {"svg", "g", "title", "desc", "polygon", "polyline", "path", "ellipse", "circle",
             "rect", "line", "text", "tspan"}
_SVG_ATTRS = {"fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap",
              "stroke-linejoin", "stroke-opacity", "fill-opacity", "opacity", "points", "d",
              "x", "y", "cx", "cy", "r", "rx", "ry", "x1", "y1", "x2", "y2", "width", "height",
              "transform", "text-anchor", "font-family", "font-size", "font-weight",
              "font-style", "class", "xml:space", "dominant-baseline", "textLength",
              "lengthAdjust"}
_XML_NS = "{http://www.w3.org/XML/1998/namespace}"


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _clean(element: ET.Element) -> str:
    """An allowed SVG element rebuilt as text, with only allowed attributes, ids dropped."""
    tag = element.tag.rsplit("}", 1)[-1]
    if tag not in _SVG_TAGS:
        return ""
    attrs = []
    for key, value in element.attrib.items():
        name = "xml:" + key[len(_XML_NS):] if key.startswith(_XML_NS) else key.rsplit("}", 1)[-1]
        lowered = value.lower()
        if name in _SVG_ATTRS and "url(" not in lowered and "script" not in lowered:
            attrs.append(f' {name}="{esc(value)}"')
    inner = html.escape(element.text or "", quote=False)
    inner += "".join(_clean(child) + html.escape(child.tail or "", quote=False)
                     for child in element)
    return f"<{tag}{''.join(attrs)}>{inner}</{tag}>"


def sanitize_svg(text: str) -> tuple[str, str, str, str] | None:
    """(viewBox, width, height, inner markup) of a diagram, or None if it is not plain SVG."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        return None
    if root.tag.rsplit("}", 1)[-1] != "svg":
        return None
    inner = "".join(_clean(child) + html.escape(child.tail or "", quote=False) for child in root)
    return (root.get("viewBox", ""), root.get("width", ""), root.get("height", ""), inner)


def standalone(text: str, css_class: str = "diagram") -> str | None:
    """One sanitised ``<svg>`` element, scaled to its container, or None if ``text`` is not
    plain SVG."""
    parts = sanitize_svg(text)
    if parts is None:
        return None
    view_box, width, height, inner = parts
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{esc(css_class)}" '
            f'viewBox="{esc(view_box)}" width="{esc(width)}" height="{esc(height)}" '
            f'style="max-width:100%;height:auto" role="img">{inner}</svg>')
