"""How ``grader.check``'s result looks in a notebook: the table of tests and feedback, the
notes, and each diagram inline as sanitised SVG (``grader.report.svg``: labels come from the
submission, so nothing active may reach the page)."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path

from grader.i18n import _, status_word, test_name, visibility
from grader.judge.diagram import page_link
from grader.report.svg import esc, standalone

_STYLE = ("<style>.mg-check td,.mg-check th{padding:2px 8px;text-align:left!important;"
          "vertical-align:baseline}.mg-check th,.mg-check .nw{white-space:nowrap}"
          ".mg-check td:first-child{min-width:11em}"  # a test's name a few words a line, not one or two
          ".mg-check .passed{color:#137333}.mg-check .failed,.mg-check .error,"
          ".mg-check .timeout{color:#b3261e}.mg-check .muted{color:#666}</style>")


@dataclass
class Checked:
    """What ``check`` returns: the text of ``grade exNN`` and, in a notebook, an HTML view."""

    text: str
    problem: str | None = None
    isolation: str = ""  # under the table where the code ran without the sandbox, as in the text
    svgs: list[str] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)  # backward.html: the backward run, step by step
    result: object | None = None  # the ExerciseResult, when graded

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return html_view(self)



def _svg(path: str, notes: list[str]) -> str:
    """A diagram inline, under the notes that name it (``{path}: ...``): each note stands above its own
    picture, not above every picture the view shows."""
    try:
        drawing = standalone(Path(path).read_text(encoding="utf-8"))
    except OSError:
        drawing = None
    captions = "".join(f'<p class="muted">{esc(n)}</p>' for n in notes if _names(n, path))
    return captions + (drawing or f'<p class="muted">{esc(_("diagram: {path} (cannot be shown inline)", path=path))}</p>')


def _names(note: str, path: str) -> bool:
    """Whether ``note`` is about the picture at ``path``: it begins with the path and a colon (in
    Chinese, a full-width one)."""
    return note.startswith(path) and note[len(path):len(path) + 1] in (":", "\uff1a")


PAGE_HEIGHT = 640  # pixels the embedded step-by-step page starts at: its graph and its controls;
# the reader drags its lower edge for more (a sandboxed frame cannot size itself to its page)


def _page(path: str) -> str:
    """The step-by-step backward page (``micrograph.viz``'s ``backward.html``, self-contained:
    no network) embedded under a summary line that opens it: a link to a local file would not
    open from Colab nor from most notebook servers.  Its scripts run in a sandboxed frame of
    their own, apart from the notebook's page."""
    try:
        page = Path(path).read_text(encoding="utf-8")
    except OSError:
        return f'<p class="muted">{esc(path)}</p>'
    return (f'<details class="mg-page"><summary>{esc(page_link(path))}'
            f'</summary><iframe sandbox="allow-scripts" title="{esc(Path(path).name)}" '
            f'style="width:100%;height:{PAGE_HEIGHT}px;resize:vertical;overflow:auto;border:1px solid #ccc" '
            f'srcdoc="{html.escape(page, quote=True)}"></iframe></details>')


def html_view(checked: Checked) -> str:
    """The HTML for one checked exercise (a problem is one sentence)."""
    from grader.judge.status import ELSEWHERE
    from grader.report.terminal import errors_told_once, points, told_once, told_once_notes, total

    result = checked.result
    if checked.problem is not None or result is None:
        return f'<div class="mg-check"><p><b>grader.check</b>: {esc(checked.text)}</p></div>'
    said = told_once(result)
    if said is not None:  # the sentence as it was said, not as the terminal wrapped it (no space
        # where a line broke inside a Chinese word), and each note a paragraph of its own
        notes = "".join(f'<p class="muted">{esc(n)}</p>' for n in told_once_notes(result))
        return (f'{_STYLE}<div class="mg-check"><h4>{esc(checked.text.splitlines()[0])}</h4>'
                f'<p>{esc(said)}</p>{notes}</div>')
    feedback, shown_notes = errors_told_once(result)
    rows = "".join(
        f'<tr><td>{esc(test_name(t.name))}</td><td class="nw">{esc(visibility(t.public))}</td>'
        f'<td class="nw">{"-/%g" % t.max_score if t.status == ELSEWHERE else points(t.score, t.max_score)}</td>'
        f'<td class="{esc(t.status)} nw">{esc(status_word(t.status))}</td><td>{esc(told)}</td></tr>'
        for t, told in zip(result.tests, feedback))
    lines = checked.text.splitlines()
    total_line = _("total: {points}", points=total([result]))
    notes = "".join(f'<p class="muted">{esc(n)}</p>' for n in shown_notes
                    if not any(_names(n, p) for p in checked.svgs))  # those stand above their pictures
    return (f'{_STYLE}<div class="mg-check"><h4>{esc(lines[0])}</h4><table>'
            f'<tr><th>{esc(_("test"))}</th><th></th><th>{esc(_("points"))}</th><th>{esc(_("status"))}</th>'
            f'<th>{esc(_("feedback"))}</th></tr>'
            f'{rows}</table><p><b>{esc(total_line)}</b></p>{notes}'
            + "".join(_svg(p, shown_notes) for p in checked.svgs)
            + "".join(_page(p) for p in checked.pages)
            + (f'<p class="muted">{esc(checked.isolation)}</p>' if checked.isolation else "")
            + "</div>")
