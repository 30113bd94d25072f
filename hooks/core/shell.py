"""Reading a shell command string: its simple commands, and the operators between them.

Enough of sh's grammar to see which commands a string runs and how their results combine, not
an interpreter: quotes as ``shlex`` reads them, operators (``&&``, ``;``, ``|``, ...),
redirections with their targets set aside, ``#`` comments.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence

SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh"})

# Longest first; redirections take the next word as their target.
OPERATORS = ("&&", "||", ";;", "|&", ">>", ">&", "&>", "<&", "<<", ">|", "<>",
             ";", "&", "|", "<", ">", "(", ")", "\n")
REDIRECTIONS = frozenset({">>", ">&", "&>", "<&", "<<", ">|", "<>", "<", ">"})
PUNCTUATION = "();<>|&\n"

# Operators after which the string's exit status no longer says whether every command passed:
# (why, the fix). Under ``sh -e`` a failing command in a ``;`` list (or on its own line) stops
# the string, so those two are safe there.
_SEQUENCE_FIX = ("join the commands with '&&', run them as \"receipt run -- sh -ec '...'\", "
                 "or give each its own 'receipt run'")
HIDING: dict[str, tuple[str, str]] = {
    ";": ("';' runs the next command whatever the one before it did", _SEQUENCE_FIX),
    "\n": ("a new line runs whatever the line before it did", _SEQUENCE_FIX),
    "||": ("'||' turns a failure into the next command's result",
           "drop '|| ...', or give each command its own 'receipt run'"),
    "|": ("a pipe reports only its last command",
          "drop the pipe ('receipt run' keeps the output in its log already)"),
    "|&": ("a pipe reports only its last command",
           "drop the pipe ('receipt run' keeps the output in its log already)"),
    "&": ("'&' does not wait for the command before it",
          "drop the '&', or give each command its own 'receipt run'"),
    "!": ("'!' inverts the command's result", "drop the '!'"),
}
STOPPED_BY_ERREXIT = frozenset({";", "\n"})


class ShellString:
    __slots__ = ("commands", "operators")

    def __init__(self, commands: list[list[str]], operators: list[str]) -> None:
        self.commands = commands  # each simple command's words
        self.operators = operators  # the operators between them, and a leading "!"


def _operators(token: str) -> list[str]:
    found = []
    while token:
        op = next((o for o in OPERATORS if token.startswith(o)), token[0])
        found.append(op)
        token = token[len(op):]
    return found


def _tokens(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=PUNCTUATION)
    lexer.whitespace, lexer.whitespace_split, lexer.commenters = " \t\r", True, ""
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: the best reading there is
        return text.split()


def split(text: str) -> ShellString:
    """TEXT's simple commands and operators; a word starting with ``#`` ends the line."""
    commands: list[list[str]] = [[]]
    operators: list[str] = []
    skip_target = comment = False
    for word in _tokens(text):
        ops = _operators(word) if word and all(c in PUNCTUATION for c in word) else []
        if comment and ops[-1:] != ["\n"]:
            continue
        comment = False
        if not ops:
            if skip_target:
                skip_target = False
            elif word.startswith("#"):
                comment = True
            elif word == "!" and not commands[-1]:
                operators.append("!")
            else:
                commands[-1].append(word)
            continue
        for op in ops:
            if op in REDIRECTIONS:
                if commands[-1] and commands[-1][-1].isdigit():  # 2>&1: the fd is no word
                    commands[-1].pop()
                skip_target = True
            else:
                operators.append(op)
                commands.append([])
    return ShellString([c for c in commands if c], operators)


def shell_string(words: Sequence[str]) -> tuple[str, bool, int] | None:
    """For ``sh [-e...] -c STRING ...``: (STRING, whether -e is set, words used); else None."""
    if not words or os.path.basename(words[0]) not in SHELLS:
        return None
    flags = ""
    i = 1
    while i < len(words) and words[i].startswith("-") and len(words[i]) > 1:
        flags += words[i][1:]
        i += 1
    if "c" not in flags or i >= len(words):
        return None
    return words[i], "e" in flags, i + 1


def hiding_operator(text: str, errexit: bool = False) -> tuple[str, str] | None:
    """(why, fix) for the first operator in TEXT that can hide a failing command's result."""
    for op in split(text).operators:
        if op in HIDING and not (errexit and op in STOPPED_BY_ERREXIT):
            return HIDING[op]
    return None
