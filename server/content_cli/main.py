"""The `stone-content` command: argument parsing, the three subcommands, exit codes."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from enum import IntEnum
from pathlib import Path

from server.content.local import collection_file, format_documents, write_text_atomically
from server.content_cli import sync
from server.content_cli.validate import json_problems, validate_content
from server.settings import SettingsError


class ExitCode(IntEnum):
    OK = 0
    INVALID_CONTENT = 1  # validate found problems, or Firestore holds what a file cannot
    USAGE = 2  # bad arguments or configuration (argparse also exits with 2)
    FIRESTORE = 3  # Firestore could not be reached, read or written
    NOT_CONFIRMED = 4  # push needed a yes and did not get one


_EPILOG = """\
exit codes:
  0  done (validate: no problems)
  1  the content has problems (validate, push), or Firestore holds values a
     file cannot (pull); nothing was written
  2  wrong arguments or configuration
  3  Firestore could not be reached, read or written
  4  push was not confirmed (answer y, or pass --yes when not at a terminal)

Firestore: GOOGLE_CLOUD_PROJECT, else company.toml's [firebase] project_id;
FIRESTORE_EMULATOR_HOST for the emulator; otherwise the standard Google
credentials (GOOGLE_APPLICATION_CREDENTIALS or the platform's identity).
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stone-content",
        description="Check the site's local content files and copy them to and from Firestore.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    validate = commands.add_parser(
        "validate",
        help="check the content files against the site's rules",
        description=(
            "Check the collection files in DIR (projects.json, stones.json...) against the "
            "rules the site applies, and that every /images/... photo exists under "
            "DIR/images. Prints every problem with its file, document id and field."
        ),
    )
    push = commands.add_parser(
        "push",
        help="write the content files to Firestore",
        description=(
            "Validate DIR, show what will change in Firestore, then write it: every "
            "document of DIR under its id (set), in batches. Nothing is written if DIR "
            "has a problem. Documents only in Firestore are kept unless --prune is given."
        ),
    )
    pull = commands.add_parser(
        "pull",
        help="write Firestore's content to the content files (no images)",
        description=(
            "Read every collection from Firestore and write each to its file in DIR "
            "(projects.json, stones.json...), replacing it (sorted by id). Images are not "
            "downloaded: photoUrl values are kept as they are, so /images/... photos must "
            "already be in DIR/images."
        ),
    )
    for command, run in ((validate, run_validate), (push, run_push), (pull, run_pull)):
        command.set_defaults(run=run)
        command.add_argument("dir", type=Path, metavar="DIR", help="the content folder")
    for command in (push, pull):
        command.add_argument(
            "--timeout",
            type=float,
            default=30.0,
            metavar="SECONDS",
            help="give up on Firestore after this long (default %(default)g)",
        )
    push.add_argument(
        "--dry-run", action="store_true", help="show what would change and write nothing"
    )
    push.add_argument(
        "--prune", action="store_true", help="delete documents in Firestore that are not in DIR"
    )
    push.add_argument("--yes", action="store_true", help="write without asking for confirmation")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except SettingsError as error:
        print(f"stone-content: {error}", file=sys.stderr)
        return ExitCode.USAGE
    except sync.FIRESTORE_ERRORS as error:
        print(f"stone-content: Firestore: {error}", file=sys.stderr)
        return ExitCode.FIRESTORE


def run_validate(args: argparse.Namespace) -> int:
    content, problems = validate_content(args.dir)
    if problems:
        _print_problems(problems)
        return ExitCode.INVALID_CONTENT
    total = sum(len(documents) for documents in content.values())
    counts = ", ".join(f"{each.firestore_name} {len(docs)}" for each, docs in content.items())
    print(f"{args.dir}: no problems in {total} documents ({counts})")
    return ExitCode.OK


def run_push(args: argparse.Namespace) -> int:
    content, problems = validate_content(args.dir)
    if problems:
        _print_problems(problems, "Nothing was written to Firestore.")
        return ExitCode.INVALID_CONTENT
    with sync.open_target(f"Comparing {args.dir} with") as (project, client):
        remote = sync.read_content(client, timeout_seconds=args.timeout)
        plan = sync.plan_push(content, remote, prune=args.prune)
        for changes in plan:
            print(*changes.lines(), sep="\n")
        write_count = sum(changes.write_count for changes in plan)
        if args.dry_run:
            print("Dry run: nothing was written.")
            return ExitCode.OK
        if write_count == 0:
            print("Firestore already matches: nothing to write.")
            return ExitCode.OK
        if not args.yes and not _confirm(f"Make these {write_count} writes to {project}?"):
            print("Nothing was written.")
            return ExitCode.NOT_CONFIRMED
        written = sync.apply_plan(client, plan, content, timeout_seconds=args.timeout)
    print(f"Done: {written} write{'s' if written != 1 else ''} to {project}.")
    return ExitCode.OK


def run_pull(args: argparse.Namespace) -> int:
    with sync.open_target("Reading") as (_, client):
        content = sync.read_content(client, timeout_seconds=args.timeout)
    # No file is written unless every document fits in one.
    problems = json_problems(content)
    if problems:
        _print_problems(problems, "Nothing was written.")
        return ExitCode.INVALID_CONTENT
    args.dir.mkdir(parents=True, exist_ok=True)
    for collection, documents in content.items():
        path = collection_file(args.dir, collection)
        write_text_atomically(path, format_documents(collection, documents))
        print(f"{path}: {len(documents)} documents")
    print("Images are not downloaded; /images/... photos must already be in the folder.")
    return ExitCode.OK


def _print_problems(problems: Sequence[object], *then: str) -> None:
    count = len(problems)
    plural = "s" if count != 1 else ""
    print(*problems, f"{count} problem{plural} found.", *then, sep="\n", file=sys.stderr)


def _confirm(question: str) -> bool:
    # Without a terminal nobody can answer: refuse rather than wait or assume yes.
    if not sys.stdin.isatty():
        print(f"{question} Not at a terminal: pass --yes to write.", file=sys.stderr)
        return False
    return input(f"{question} [y/N] ").strip().lower() in {"y", "yes"}
