"""``grade``: the console script.  Every command is one function in ``student`` or
``instructor``; this module only assembles the group and turns errors into exit statuses.
"""

from __future__ import annotations

import platform
import sys
from importlib.metadata import version

import click
from click.shell_completion import CompletionItem

from grader.cli import instructor, student
from grader.cli.completion import exercise_items
from grader.cli.shared import EXIT_FULL, EXIT_USAGE
from grader.sandbox import isolation


class _DefaultToRun(click.Group):
    """``grade ex03 --json`` means ``grade run ex03 --json``: anything that is not a command
    name is an exercise."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        completing_a_command = ctx.resilient_parsing and not args
        if not completing_a_command and (not args or (
                args[0] not in self.commands and args[0] not in _OWN_OPTIONS)):
            args = ["run", *args]
        return super().parse_args(ctx, args)

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        """``grade <TAB>``: the subcommands and the exercise ids (``grade ex03`` runs one)."""
        return super().shell_complete(ctx, incomplete) + exercise_items(incomplete)


_OWN_OPTIONS = ("--help", "-h", "--version")


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``grade --version``: the versions, and how submissions are isolated on this machine."""
    if not value or ctx.resilient_parsing:
        return
    try:
        mode = isolation.current().describe()
    except isolation.IsolationUnavailable as exc:
        mode = f"isolation: unavailable ({exc})"
    click.echo(f"grade (micrograph {version('micrograph')}, Python "
               f"{platform.python_version()}), {mode}")
    ctx.exit(EXIT_FULL)


HELP = """Grade exercises in a sandbox, explain each failure, draw the computation graph.

\b
  grade ex03 | grade 3 | grade ex3   grade one exercise of exercises/ here
  grade | grade all                  grade every exercise, then a summary
  grade list                         the exercises with titles and points
  grade check                        solutions score full marks, stubs zero
  grade expected --public-only       expected answers for a release
  grade batch | gradescope | release the course autograder (instructors)
\b
Grading options (grade run --help): --submission PATH (a file or a folder
instead of exercises/), --json, --out DIR (diagrams, default grades/).
\b
Exit status: 0 full marks, 1 not full marks (or check failed), 2 usage error.
Environment: GRADE_CACHE_DIR, GRADE_TESTS_DIR, GRADE_EXPECTED_DIR.
Completion: eval "$(_GRADE_COMPLETE=bash_source grade)" (zsh_source, fish_source).
"""


@click.group(cls=_DefaultToRun, context_settings={"help_option_names": ["-h", "--help"]},
             help=HELP)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_show_version, help="Versions and the sandbox's isolation mode.")
def cli() -> None:
    pass


for command in (student.run, student.list_, instructor.check, instructor.expected,
                instructor.batch, instructor.gradescope, instructor.release):
    cli.add_command(command)


def main(argv: list[str] | None = None) -> None:
    """Entry point: usage errors are one line on stderr and exit status 2."""
    try:
        code = cli.main(args=argv, prog_name="grade", standalone_mode=False)
    except click.UsageError as exc:
        click.echo(f"grade: {' '.join(exc.format_message().split())}", err=True)
        sys.exit(EXIT_USAGE)
    except click.ClickException as exc:
        click.echo(f"grade: {' '.join(exc.format_message().split())}", err=True)
        sys.exit(EXIT_USAGE)
    except isolation.IsolationUnavailable as exc:
        click.echo(f"grade: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    except click.Abort:
        click.echo("grade: interrupted", err=True)
        sys.exit(130)
    except OSError as exc:  # a path the user gave that cannot be read or written
        where = f": {exc.filename}" if exc.filename else ""
        click.echo(f"grade: {exc.strerror or exc}{where}", err=True)
        sys.exit(EXIT_USAGE)
    sys.exit(code if isinstance(code, int) else EXIT_FULL)


if __name__ == "__main__":
    main()
