"""The ``libtext`` command line.

Each command group lives in its own module and is imported only when invoked, so
``libtext --help`` stays fast. Errors from the library become one line on stderr and
a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import errno
import importlib
import sys
from collections.abc import Sequence
from typing import Any

import click

from libtext._version import __version__
from libtext._wording import for_cli
from libtext.errors import LibtextError

# command name -> "module:attribute" of a click command
_COMMANDS: dict[str, str] = {
    "outline": "libtext.cli.outline_cmd:outline",
    "extract": "libtext.cli.outline_cmd:extract",
    "library": "libtext.cli.library_cmd:library",
    "texts": "libtext.cli.texts_cmd:texts",
    "process": "libtext.cli.process_cmd:process",
    "translate": "libtext.cli.process_cmd:translate",
    "serve": "libtext.cli.serve_cmd:serve",
    "jobs": "libtext.cli.jobs_cmd:jobs",
    "worker": "libtext.cli.worker_cmd:worker",
}

# click >= 8.2 raises this for a bare group (``libtext texts``) to print its help.
_NO_ARGS_IS_HELP: tuple[type[Exception], ...] = tuple(
    t for t in (getattr(click.exceptions, "NoArgsIsHelpError", None),) if t is not None
)


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            from libtext._wording import install_hint

            raise click.ClickException(
                f"'libtext {cmd_name}' is not available: {exc}. "
                f"Install the extras with: {install_hint('all')}"
            ) from None
        command: click.Command = getattr(module, attr)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ImportError as exc:
            # Any command whose extra is missing: one line naming it, never a traceback.
            from libtext.cli._extras import extra_for, missing_extra

            extra = extra_for(exc)
            if extra is None:
                raise
            command = " ".join(filter(None, (ctx.command_path, ctx.invoked_subcommand)))
            raise missing_extra(extra, exc, command) from None
        except LibtextError as exc:
            click.echo(f"error: {for_cli(exc.message)}", err=True)
            ctx.exit(2)
        except OSError as exc:
            if exc.errno == errno.EPIPE:  # stdout closed early (| head): click handles it
                raise
            where = f" {exc.filename}" if exc.filename else ""
            reason = exc.strerror or type(exc).__name__
            click.echo(
                f"error: cannot use{where}: {reason}; check the path and its permissions.",
                err=True,
            )
            ctx.exit(1)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Like click's, but a usage error is one ``error: ...`` line, not the usage block."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as exc:
            if isinstance(exc, _NO_ARGS_IS_HELP) and exc.ctx is not None:
                # A bare group (``libtext``, ``libtext texts``): its help is the answer,
                # on stdout, and asking for it is not an error.
                click.echo(exc.ctx.get_help())
                sys.exit(0)
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
            click.echo(f"error: {exc.format_message()}{hint}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        # Without standalone mode click returns the exit code of ctx.exit(), or the
        # command's own return value (None for every libtext command).
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_LazyGroup)
@click.version_option(__version__, prog_name="libtext")
def cli() -> None:
    """libtext: Hebrew texts from the Chabad library or PDFs, outlined, translated, stored."""


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="libtext")


if __name__ == "__main__":  # pragma: no cover
    main()
