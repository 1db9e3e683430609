"""click commands and options whose help texts are shown in the student's language.

click reads a command's ``help`` and an option's ``help`` when it prints ``--help``; the
texts are written in English (``help=N_("...")``, so the catalogue extraction finds them)
and these classes, given to click with its ``cls=`` parameters, translate them each time
they are read, after ``--lang`` has been seen.  click's own words ("Usage:", "Options",
"Show this message and exit.") come from its gettext catalogue: ``grader.i18n.tell_click``.
"""

from __future__ import annotations

import gettext
import inspect
from collections.abc import Sequence
from typing import Any

import click

from grader.i18n import N_, _, language
from grader.report.width import width, wrap


class Msgid:
    """An attribute holding an English text that reads as its translation (None stays None)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_english_{name}"

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        text = getattr(obj, self.slot, None)
        return _(text) if isinstance(text, str) and text else text

    def __set__(self, obj: object, value: Any) -> None:
        setattr(obj, self.slot, value)


class HelpFormatter(click.HelpFormatter):
    """Help laid out by terminal columns in Chinese: a CJK character takes two (click counts one),
    headings end in "：", and lines break between CJK characters (``grader.report.width``)."""

    def write_heading(self, heading: str) -> None:
        if language() == "en":
            super().write_heading(heading)
        else:
            self.write(f"{'':>{self.current_indent}}{heading}：\n")

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        if prefix is None and language() != "en":
            prefix = gettext.gettext("Usage:")  # click's text ("用法：") already ends in a wide colon
        super().write_usage(prog, args, prefix)

    def write_text(self, text: str) -> None:
        if language() == "en":
            super().write_text(text)
            return
        indent = " " * self.current_indent
        blocks = []
        for paragraph in _paragraphs(text):
            if paragraph.startswith("\b\n"):  # click's mark: keep these lines as written
                lines = paragraph.splitlines()[1:]
            else:
                lines = wrap(paragraph, max(self.width - self.current_indent, 20))
            blocks.append("".join(f"{indent}{line}\n" for line in lines))
        self.write("\n".join(blocks))

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        if language() == "en":
            super().write_dl(rows, col_max, col_spacing)
            return
        rows = list(rows)
        first_col = min(max((width(first) for first, _ in rows), default=0), col_max) + col_spacing
        text_width = max(self.width - first_col - 2, 10)
        for first, second in rows:
            self.write(f"{'':>{self.current_indent}}{first}")
            if width(first) <= first_col - col_spacing:
                self.write(" " * (first_col - width(first)))
            else:
                self.write("\n" + " " * (first_col + self.current_indent))
            lines = wrap(second, text_width) or [""]
            self.write("".join([lines[0] + "\n"] + [" " * (first_col + self.current_indent) + line + "\n"
                                                    for line in lines[1:]]))


def _paragraphs(text: str) -> list[str]:
    """The paragraphs of a help text (separated by blank lines), each stripped of its indentation."""
    return [paragraph for paragraph in inspect.cleandoc(text).split("\n\n") if paragraph.strip()]


class Context(click.Context):
    formatter_class = HelpFormatter


OPTIONS_METAVAR = N_("[OPTIONS]")
SUBCOMMAND_METAVAR = N_("COMMAND [ARGS]...")
HELP_OPTION_HELP = "Show this message and exit."  # click's own text: its catalogue has it (tell_click)


def _help_in_the_language_now(help_option: click.Option | None) -> click.Option | None:
    """click makes a command's ``--help`` option once and keeps it, its text translated then:
    the text is read again each time the option is asked for, so a process that runs ``grade``
    in one language, then in another (the tests do), shows each its own."""
    if help_option is not None:
        help_option.help = gettext.gettext(HELP_OPTION_HELP)
    return help_option


class Command(click.Command):
    """A command whose help, short help and usage metavar are translated when shown."""

    context_class = Context
    help = Msgid()
    short_help = Msgid()
    options_metavar = Msgid()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("options_metavar", OPTIONS_METAVAR)
        super().__init__(*args, **kwargs)

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        return _help_in_the_language_now(super().get_help_option(ctx))


class Group(click.Group):
    """``grade`` itself: a group whose texts are translated like a ``Command``'s."""

    context_class = Context
    help = Msgid()
    short_help = Msgid()
    options_metavar = Msgid()
    subcommand_metavar = Msgid()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("options_metavar", OPTIONS_METAVAR)
        kwargs.setdefault("subcommand_metavar", SUBCOMMAND_METAVAR)
        super().__init__(*args, **kwargs)

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        return _help_in_the_language_now(super().get_help_option(ctx))


class Option(click.Option):
    """An option whose help is translated when shown."""

    help = Msgid()


def option(*names: str, **kwargs: Any) -> Any:
    """``click.option`` with a translated help text (``help=N_("...")``)."""
    return click.option(*names, cls=Option, **kwargs)


def command(name: str, **kwargs: Any) -> Any:
    """``click.command`` with translated help texts (``help=N_("...")``)."""
    return click.command(name, cls=Command, **kwargs)
