"""The lit tests a cross build's suite runs under emulation (lit.cfg.py).

The suites of whole programs, and of those only the tests that run their
programs through %run-check, %same-at-every-p or %until-stolen, which put
the emulator (WEFT_RUN_PREFIX) before each, and build no sanitizer's
program; the others check the host's IR, diagnostics, packages and tools,
run a program themselves, or need a sanitizer's runtime, and are
UNSUPPORTED with the reason.
"""
import re

import lit.formats
import lit.Test

EMULATED_SUITES = {"cilk5", "opencilk", "pedigree", "run"}
# What a RUN line may start a command with besides a substitution that is
# no program of the test's own (%weftcxx, %run-check, ...): host tools.
HOST_TOOLS = {"FileCheck", "grep", "rm", "mkdir", "cat", "echo", "diff",
              "cmp", "test", "true", "false", "sed", "cp", "mv", "ls", "wc",
              "sort", "head", "tail", "count", "cd"}


def run_lines(path):
    """The test's RUN commands, continuation lines joined."""
    commands, pending = [], ""
    with open(path, errors="replace") as source:
        for line in source:
            if "RUN:" not in line:
                continue
            text = pending + line.split("RUN:", 1)[1].strip()
            if text.endswith("\\"):
                pending = text[:-1] + " "
                continue
            pending = ""
            commands.append(text)
    return commands


def first_words(command):
    """The program each part of a RUN command starts, past `not` and env's
    settings."""
    for part in re.split(r"\|\||&&|\||;", command):
        words = part.split()
        while words:
            if words[0] in ("not", "env"):
                del words[:1]
            elif words[0] == "-u":  # env -u NAME
                del words[:2]
            elif "=" in words[0]:
                del words[:1]
            else:
                break
        if words:
            yield words[0]


def why_not_emulated(test):
    """Why a cross build's suite leaves the test out, or None."""
    if test.path_in_suite[0] not in EMULATED_SUITES:
        return "checks the host build: cross builds run only " + \
            ", ".join(sorted(EMULATED_SUITES)) + "/"
    for command in run_lines(test.getSourcePath()):
        if "-fsanitize=" in command:
            # Its shadow memory, terabytes reserved, is more than qemu-user
            # maps for a guest: the program is killed before main.
            return "builds a sanitizer's program, which qemu-user cannot run"
        for word in first_words(command):
            if word.startswith("%t") or not (word.startswith("%") or word in HOST_TOOLS):
                return "runs {} itself, not through %run-check or " \
                    "%same-at-every-p, which put the emulator first".format(word)
    return None


class EmulatedSubset(lit.formats.ShTest):
    def execute(self, test, litConfig):
        why = why_not_emulated(test)
        if why:
            return lit.Test.Result(lit.Test.UNSUPPORTED, why)
        return super().execute(test, litConfig)
