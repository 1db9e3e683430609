"""Shell completion of ``grade``'s subcommands and exercise ids (click's completion).

Enable it once per shell (docs/instructor.md says where to put the line)::

    eval "$(_GRADE_COMPLETE=bash_source grade)"     # bash; zsh_source / fish_source likewise

Completing must be instant and must never fail: ids come from the names of the test modules
(``exNN.py``), nothing is imported or graded.
"""

from __future__ import annotations

import click
from click.shell_completion import CompletionItem

from grader.cli.shared import course_here

ALL = "all"


def _ids() -> list[str]:
    try:
        return course_here().ids()
    except OSError:
        return []


def exercise_items(incomplete: str, *, with_all: bool = True) -> list[CompletionItem]:
    """Exercise ids (and ``all``) starting with what was typed."""
    names = _ids() + ([ALL] if with_all else [])
    return [CompletionItem(n) for n in names if n.startswith(incomplete.lower())]


def complete_targets(ctx: click.Context, param: click.Parameter,
                     incomplete: str) -> list[CompletionItem]:
    """``grade run ex0<TAB>``: the exercises not named yet."""
    named = set(ctx.params.get(param.name or "", ()) or ())
    return [i for i in exercise_items(incomplete) if i.value not in named]


def complete_selection(ctx: click.Context, param: click.Parameter,
                       incomplete: str) -> list[CompletionItem]:
    """``--exercises ex01,ex0<TAB>``: the last id of a comma-separated list."""
    head, _, last = incomplete.rpartition(",")
    prefix = f"{head}," if head else ""
    return [CompletionItem(prefix + i.value)
            for i in exercise_items(last, with_all=False)]
