"""``grade``: the console script.  Every command is one function in ``student`` or
``instructor``; this module only assembles the group and turns errors into exit statuses.

The language is fixed before click reads the command line (``--lang`` may stand anywhere
on it, after an unknown option too), so that ``--help`` and click's usage errors are
already in it.
"""

from __future__ import annotations

import difflib
import gettext
import platform
import re
import sys

import click
from click.shell_completion import CompletionItem

from grader.cli import probing, student
from grader.cli.completion import exercise_items
from grader.cli.shared import EXIT_FULL, EXIT_USAGE, lang_option
from grader.cli.translated import Group, option
from grader.i18n import N_, _, choose, language, tell_click
from grader.judge.reference import default_cache_dir
from grader.sandbox import pipes, uids
from micrograph.i18n import LanguageError, normalize

LANG_OPTION = "--lang"


# The instructor's commands, loaded when one is named or listed (help, completion): a student's
# ``grade ex03`` does not import them.
INSTRUCTOR_COMMANDS = ("check", "expected", "batch", "gradescope", "release")
INSTRUCTOR_HEADING = N_("Instructor commands (in the course folder, beside solutions/)")


class _DefaultToRun(Group):
    """``grade ex03 --json`` means ``grade run ex03 --json``: anything that is not a command
    name is an exercise (``grade --lang zh ex03`` too: the group takes ``--lang`` itself)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        completing_a_command = ctx.resilient_parsing and not args
        skip = _leading_lang(args)
        rest = args[skip:]
        if not completing_a_command and (not rest or (
                rest[0] not in self.list_commands(ctx) and rest[0] not in _OWN_OPTIONS)):
            args = [*args[:skip], "run", *rest]
            ctx.meta[_RUN_IMPLIED] = True
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *INSTRUCTOR_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in INSTRUCTOR_COMMANDS and cmd_name not in self.commands:
            from grader.cli import instructor

            for command in (instructor.check, instructor.expected, instructor.batch,
                            instructor.gradescope, instructor.release):
                self.add_command(command)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The students' commands first, the instructor's under a heading of their own: in a
        student release they only say that they need the course folder."""
        commands = [(name, self.get_command(ctx, name)) for name in self.list_commands(ctx)]
        limit = formatter.width - 6 - max(len(name) for name, _cmd in commands)
        for title, instructors in ((gettext.gettext("Commands"), False),
                                   (_(INSTRUCTOR_HEADING), True)):
            rows = [(name, cmd.get_short_help_str(limit)) for name, cmd in commands
                    if cmd is not None and (name in INSTRUCTOR_COMMANDS) == instructors]
            with formatter.section(title):
                formatter.write_dl(rows)

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        """``grade <TAB>``: the subcommands and the exercise ids (``grade ex03`` runs one)."""
        return super().shell_complete(ctx, incomplete) + exercise_items(incomplete)


_OWN_OPTIONS = ("--help", "-h", "--version")
_RUN_IMPLIED = "grade.run_implied"  # ctx.meta key: the user typed ``grade ex03``, not ``grade run ex03``


def _leading_lang(args: list[str]) -> int:
    """How many of the first arguments are ``--lang VALUE`` / ``--lang=VALUE`` options."""
    at = 0
    while at < len(args):
        if args[at] == LANG_OPTION and at + 1 < len(args):
            at += 2
        elif args[at].startswith(LANG_OPTION + "="):
            at += 1
        else:
            break
    return at


def language_on(args: list[str]) -> str | None:
    """The last valid ``--lang`` value anywhere on the command line (click reads the last one too)."""
    found = None
    for at, arg in enumerate(args):
        value = args[at + 1] if arg == LANG_OPTION and at + 1 < len(args) else (
            arg.split("=", 1)[1] if arg.startswith(LANG_OPTION + "=") else None)
        if value is not None and normalize(value) is not None:
            found = value
    return found


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``grade --version``: the versions, how submissions are isolated on this machine (the
    mode and the layers its children apply), and how the children's pipes are read
    (``grader.sandbox.pipes``: threads on Windows)."""
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import version  # here: reading the metadata costs every command time

    try:
        mode = probing.current().summary()
    except uids.IsolationUnavailable as exc:
        mode = _("isolation: unavailable ({reason})", reason=exc)
    click.echo(_("grade (micrograph {version}, Python {python}), {isolation}; {pipes}",
                 version=version("micrograph"), python=platform.python_version(), isolation=mode,
                 pipes=pipes.describe()))
    ctx.exit(EXIT_FULL)


HELP = N_("""Grade exercises in a sandbox, explain each failure, draw the computational graph.

\b
  grade ex03 | grade 3 | grade ex3   grade one exercise of exercises/ here
  grade | grade all                  grade every exercise, then a summary
  grade list                         the exercises with titles and points
  grade check                        solutions score full marks, stubs zero
  grade expected --public-only       expected answers for a release
  grade batch | gradescope | release the course autograder (instructors)

\b
Grading options (grade run --help): --submission PATH (a file or a folder
instead of exercises/), --json, --out FOLDER (diagrams, default grades/).

\b
Exit status: 0 all tests graded here passed (in a release, the public
ones), 1 not (or check failed), 2 usage error.
Environment: GRADE_CACHE_DIR, GRADE_TESTS_DIR, GRADE_EXPECTED_DIR.
Completion: eval "$(_GRADE_COMPLETE=bash_source grade)" (zsh_source, fish_source).
""")


@click.group(cls=_DefaultToRun, context_settings={"help_option_names": ["-h", "--help"]},
             help=HELP)
@lang_option
@option("--version", is_flag=True, expose_value=False, is_eager=True,
        callback=_show_version, help=N_("Versions and the sandbox's isolation mode."))
def cli() -> None:
    pass


for command in (student.run, student.list_):
    cli.add_command(command)


def main(argv: list[str] | None = None) -> None:
    """Entry point: usage errors are one line on stderr and exit status 2."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        tell_click(choose(language_on(args)), default_cache_dir())
    except LanguageError as exc:  # MICROGRAPH_LANG or the course's language file names no language we have
        click.echo(f"grade: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    try:
        code = cli.main(args=args, prog_name="grade", standalone_mode=False)
    except click.UsageError as exc:
        click.echo(f"grade: {_one_line(_full_stop(_usage_message(exc)))}{_help_hint(exc)}", err=True)
        sys.exit(EXIT_USAGE)
    except click.ClickException as exc:
        click.echo(f"grade: {_one_line(exc.format_message())}", err=True)
        sys.exit(EXIT_USAGE)
    except uids.IsolationUnavailable as exc:
        click.echo(f"grade: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    except click.Abort:
        click.echo("grade: " + _("interrupted"), err=True)
        sys.exit(130)
    except OSError as exc:  # a path the user gave that cannot be read or written
        where = f": {exc.filename}" if exc.filename else ""
        click.echo(f"grade: {exc.strerror or exc}{where}", err=True)
        sys.exit(EXIT_USAGE)
    sys.exit(code if isinstance(code, int) else EXIT_FULL)


_LIKE_ENOUGH = 0.75  # how alike a mistyped option and a real one are when one is suggested


def _usage_message(exc: click.UsageError) -> str:
    """click's message, without its "Did you mean '--out'?" for an option that is no typo of
    any (``--bogus``): click suggests the closest name however far it is; a suggestion is kept
    only when the names are alike (``--jsn``: ``--json``)."""
    if not isinstance(exc, click.NoSuchOption) or not exc.possibilities:
        return exc.format_message()
    typed = exc.option_name.lstrip("-")
    alike = [p for p in exc.possibilities
             if difflib.SequenceMatcher(None, typed, p.lstrip("-")).ratio() >= _LIKE_ENOUGH]
    return exc.format_message() if alike else exc.message


def _help_hint(exc: click.UsageError) -> str:
    """click's "Try 'grade batch --help' for help." on its own line after a usage error, in the
    language chosen, naming the command the user typed: ``grade ex03 --bogus`` never said
    ``run``, so its hint is ``grade --help`` (which lists the grading options), not the
    ``grade run --help`` click would name."""
    if exc.ctx is None:
        return ""
    typed = exc.ctx.find_root() if exc.ctx.meta.get(_RUN_IMPLIED) else exc.ctx
    return "\n" + gettext.gettext("Try '{command} {option}' for help.").format(
        command=typed.command_path, option="--help")


def _full_stop(message: str) -> str:
    """In Chinese a message gets its "。" before the help hint follows it."""
    message = message.rstrip()
    return message if language() == "en" or message.endswith(tuple("。？！.?!")) else message + "。"


_AFTER_WIDE_PUNCTUATION = re.compile(r"(?<=[。？！：；，）])\s+")


def _one_line(message: str) -> str:
    """A message on one line: its spaces and newlines folded, none after Chinese punctuation."""
    return _AFTER_WIDE_PUNCTUATION.sub("", " ".join(message.split()))


if __name__ == "__main__":
    main()
