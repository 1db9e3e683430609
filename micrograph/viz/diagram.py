"""The ``graphviz.Digraph`` that ``draw`` returns: it shows inline in Jupyter and renders with
whichever ``dot`` is installed (``render.find_renderer``).

Only a notebook's ``draw`` imports graphviz (here): the grader's worker draws from the DOT text
alone (``micrograph.viz.dot_text``), which this diagram is made from.
"""

from __future__ import annotations

from pathlib import Path

import graphviz

from micrograph.viz import render
from micrograph.viz.dot_text import DotText


class Diagram(graphviz.Digraph):
    """A ``graphviz.Digraph`` that displays in Jupyter with whichever renderer is installed.

    ``graphviz.Digraph`` shows itself by running the system's ``dot``, which a
    fresh machine lacks; this one goes through ``find_renderer`` instead.
    """

    english: str | None = None  # the same diagram's DOT source with English labels, for PNGs (see render.write)

    def _repr_mimebundle_(self, include: object = None, exclude: object = None, **_: object) -> dict[str, str]:
        renderer = render.find_renderer()
        if renderer is None:
            return {"text/plain": f"micrograph diagram: {render.NO_RENDERER}"}
        svg, error = render.run(renderer, ["-Tsvg"], render.NOTEBOOK_TIMEOUT, render.NOTEBOOK_TIMEOUT, self.source.encode("utf-8"))
        if error is not None:
            return {"text/plain": f"micrograph diagram: {error}"}
        return {"image/svg+xml": render.finish_svg(svg, renderer).decode("utf-8")}

    def pipe(self, format: str | None = None, *args: object, **kwargs: object) -> bytes:  # noqa: A002
        """The rendered bytes (``format`` "svg" or "png"), made by :func:`find_renderer`'s program."""
        fmt = format or self.format or "svg"
        renderer = render.find_renderer()
        if renderer is None:
            raise RuntimeError(f"micrograph diagram: {render.NO_RENDERER}")
        extra = [f"-Gdpi={render.PNG_DPI}"] if fmt == "png" else []
        source = self.source
        if fmt == "png" and self.english is not None and not render.draws_cjk(renderer):
            source = self.english
            render.notice(render.english_png_notice("PNG"))
        out, error = render.run(renderer, [f"-T{fmt}", *extra], render.NOTEBOOK_TIMEOUT, render.NOTEBOOK_TIMEOUT, source.encode("utf-8"))
        if error is not None:
            raise RuntimeError(f"micrograph diagram: {error}")
        return render.finish_svg(out, renderer) if fmt == "svg" else out

    def render(  # type: ignore[override]
        self,
        filename: str | None = None,
        directory: str | None = None,
        view: bool = False,
        cleanup: bool = False,
        format: str | None = None,  # noqa: A002 - graphviz's name
        **kwargs: object,
    ) -> str:
        """Save the ``.gv`` source and render it next to it; returns the picture's path.

        Same arguments as ``graphviz.Digraph.render`` (``view`` is ignored: this may
        run on a server), but rendered by :func:`find_renderer`'s program, so it
        works after a plain ``pip install`` with no system Graphviz.
        """
        fmt = format or self.format or "svg"
        source_path = Path(self.save(filename, directory=directory))
        picture = source_path.with_name(f"{source_path.name}.{fmt}")
        picture.write_bytes(self.pipe(fmt))
        if cleanup:
            source_path.unlink(missing_ok=True)
        return str(picture)


def diagram(text: DotText, english: str | None) -> Diagram:
    """The ``Diagram`` of ``text``'s lines (the same source), with its English twin for PNGs."""
    made = Diagram(text.name, graph_attr=text.graph_attr, node_attr=text.node_attr,
                   edge_attr=text.edge_attr, body=text.body)
    made.english = english
    return made
