"""Every command and every option of ``isasim`` and ``trainlib`` has help text."""

from __future__ import annotations

import argparse

import pytest

from isasim.cli import build_parser
from trainlib.cli import _parser as trainlib_parser


def _undocumented(parser: argparse.ArgumentParser, path: str) -> list[str]:
    missing = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                if not helps.get(name):
                    missing.append(f"{path} {name}")
                missing += _undocumented(sub, f"{path} {name}")
        elif not isinstance(action, argparse._HelpAction) and not action.help:
            missing.append(f"{path} {'/'.join(action.option_strings) or action.dest}")
    return missing


@pytest.mark.parametrize("name, parser", [("isasim", build_parser()),
                                          ("trainlib", trainlib_parser())])
def test_every_command_and_option_has_help(name, parser):
    assert _undocumented(parser, name) == []
