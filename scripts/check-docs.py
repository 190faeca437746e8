#!/usr/bin/env python3
"""Checks that the docs match the code.

    scripts/check-docs.py --hcq-opt BIN/hcq-opt [--hcq-run BIN/hcq-run]
        [--hcq-exe-dump BIN/hcq-exe-dump] [--root DIR] [--skip FILE]...
        [FILE...]

(hcq-run and hcq-exe-dump default to the ones beside hcq-opt.)
    scripts/check-docs.py --self-test

Reads README.md, docs/*.md, docs/reference/*.md (generated from ODS: a
stale pass name in a .td description shows there), bench/README.md,
bench/HISTORY.md and fuzz/README.md, or the FILEs given, and reports as
`file:line: what`:

  (a) fenced code blocks: every block closed by a fence of its own kind;
      no fence with an info string (```mlir) inside an open block, which
      Markdown reads as code rather than as the start of a new block; no
      Markdown heading inside a block and no layout line ("dir/   text")
      outside one, the marks of fences paired the wrong way round;
  (b) pass names (`hcq-...` that is not a tool, a CMake target or part of a
      file name; `--hcq-...`; `convert-gpu-to-hcq`) and pass options
      (`pass{name=...}`, `--pass=name=...`, hcq-run's `--pipeline-options`)
      exist in `hcq-opt --help`; the `--flags` of hcq-opt, hcq-run and
      hcq-exe-dump command lines exist in that tool's `--help`;
  (c) every repository path the docs name (`lib/...`, `include/...`,
      `test/...`, `scripts/...`, `docs/...`, ... in code, links or text,
      and relative links) exists in the tree.

Exits 1 when it finds a problem, 2 on a usage error. Python 3 standard
library only. --self-test runs the checks on broken snippets and fails
unless each kind of problem is caught (so the check cannot pass silently).
"""

import argparse
import bisect
import fnmatch
import glob
import os
import re
import subprocess
import sys
import tempfile

TOOLS = ("hcq-opt", "hcq-run", "hcq-exe-dump", "hcq-translate")

# The tree's top-level folders a doc may name a path under.
TOP_DIRS = ("bench", "cmake", "docs", "examples", "fuzz", "include", "lib",
            "scripts", "test", "tools", "unittests")

DEFAULT_DOCS = ("README.md", "docs/*.md", "docs/reference/*.md",
                "bench/README.md", "bench/HISTORY.md", "fuzz/README.md")


class Help:
    """What a tool's --help lists: every flag, and for hcq-opt every pass
    (and pass pipeline) with its options."""

    def __init__(self, text):
        self.flags = set()
        self.passes = {}
        current = None
        current_indent = -1
        for line in text.splitlines():
            m = re.match(r"^(\s*)--([A-Za-z][\w.-]*)(=<[^>]*>)?(\s+-(\s+))?",
                         line)
            if not m:
                continue
            indent, name = len(m.group(1)), m.group(2)
            self.flags.add(name)
            # Passes are listed as "--name  -   description" (a dash and
            # three spaces), their options below them, indented further,
            # as "--option=<type>  - description".
            is_pass = m.group(5) is not None and len(m.group(5)) >= 3
            if current is not None and indent > current_indent:
                self.passes[current].add(name)
                continue
            if is_pass and indent >= 4:
                current, current_indent = name, indent
                self.passes[name] = set()
            else:
                current, current_indent = None, -1


def run_help(path):
    """The --help text of the tool at `path` (stdout and stderr): LLVM
    tools' --help-hidden (every option a command line may use), else
    --help."""
    for flag in ("--help-hidden", "--help"):
        try:
            out = subprocess.run([path, flag], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, timeout=60)
        except OSError as e:
            raise SystemExit("check-docs: cannot run %s %s: %s"
                             % (path, flag, e))
        if out.returncode == 0:
            return out.stdout.decode("utf-8", "replace")
    raise SystemExit("check-docs: %s --help failed:\n%s"
                     % (path, out.stdout.decode("utf-8", "replace")))


def cmake_targets(root):
    """Names of the tree's CMake targets and tests (hcq-docs, hcq-runtime,
    hcq-fuzz-...): hcq-* names that are not passes."""
    names = set()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames
                       if not d.startswith(".") and not d.startswith("build")]
        for f in filenames:
            if f == "CMakeLists.txt" or f.endswith(".cmake"):
                with open(os.path.join(dirpath, f), encoding="utf-8",
                          errors="replace") as fh:
                    text = fh.read()
                for m in re.finditer(
                        r"\b(?:add_executable|add_library|add_custom_target|"
                        r"add_llvm_executable|add_test|add_lit_testsuite)\(\s*"
                        r"(?:NAME\s+)?([\w-]+)", text):
                    names.add(m.group(1))
    return names


class Doc:
    """One Markdown file: its text, which parts are fenced code, and line
    numbers of offsets."""

    def __init__(self, rel, text):
        self.rel = rel
        self.text = text
        self.newlines = [i for i, c in enumerate(text) if c == "\n"]
        self.blocks = []  # (start offset, end offset, first line, info)
        self.problems = []

    def line_of(self, offset):
        return bisect.bisect_left(self.newlines, offset) + 1

    def report(self, line, what):
        self.problems.append((self.rel, line, what))


FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def check_fences(doc):
    """(a): finds the fenced blocks of `doc` and reports broken fences."""
    offset = 0
    open_fence = None  # (fence, line number, start offset, info)
    for number, line in enumerate(doc.text.split("\n"), 1):
        m = FENCE.match(line)
        if open_fence is None:
            if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
                open_fence = (m.group(1), number, offset, m.group(2).strip())
            elif re.match(r"^[\w.-]+(/[\w.-]+)*/? {4,}\S", line):
                doc.report(number, "a layout line outside a code block (is "
                           "a ``` fence missing or misplaced?)")
        else:
            fence = open_fence[0]
            if (m and m.group(1)[0] == fence[0] and
                    len(m.group(1)) >= len(fence) and not m.group(2).strip()):
                doc.blocks.append((open_fence[2], offset + len(line),
                                   open_fence[1], open_fence[3]))
                open_fence = None
            elif m and m.group(1)[0] == fence[0]:
                doc.report(number, "fence '%s' inside the code block opened "
                           "at line %d, which is still open: Markdown reads "
                           "it as code" % (line.strip(), open_fence[1]))
            elif re.match(r"^#{1,6} \S", line) and open_fence[3] in (
                    "", "md", "markdown", "text"):
                doc.report(number, "a Markdown heading inside the code block "
                           "opened at line %d (are its fences paired the "
                           "wrong way round?)" % open_fence[1])
        offset += len(line) + 1
    if open_fence is not None:
        doc.report(open_fence[1], "code block opened with '%s' is never "
                   "closed" % open_fence[0])
        doc.blocks.append((open_fence[2], len(doc.text), open_fence[1],
                           open_fence[3]))


def prose_of(doc):
    """`doc`'s text with fenced blocks blanked (newlines kept)."""
    chars = list(doc.text)
    for start, end, _, _ in doc.blocks:
        for i in range(start, end):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def code_spans(prose):
    """(offset, text) of every inline code span (not across a blank line)."""
    spans = []
    for m in re.finditer(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", prose,
                         re.DOTALL):
        if "\n\n" not in m.group(2) and not re.search(r"\n\s*\n", m.group(2)):
            spans.append((m.start(2), m.group(2)))
    return spans


def commands(doc, prose):
    """(offset, text) of everything that may be a command line: each inline
    code span, and each line of a fenced block (with its \\ continuations)."""
    out = code_spans(prose)
    for start, end, _, _ in doc.blocks:
        body = doc.text[start:end]
        first = body.find("\n") + 1
        pos = start + first
        pending, pending_at = "", None
        for line in body[first:].split("\n"):
            if pending_at is None:
                pending_at = pos
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1] + " "
            else:
                out.append((pending_at, pending + line))
                pending, pending_at = "", None
            pos += len(line) + 1
    return out


PASS_TOKEN = re.compile(
    r"(?<![\w./@$-])(--?)?(hcq-[a-z0-9][a-z0-9-]*|[a-z0-9][a-z0-9-]*-to-hcq)"
    r"(?=([^\n]{0,2}))")


# A path right after another project's name is that project's
# ("tinygrad's `test/mockgpu/...`").
EXTERNAL = re.compile(r"\b(tinygrad|LLVM|MLIR|upstream|Linux|ROCm|ROCR|Mesa|"
                      r"libdrm|IREE|HIP|amdgpu|amdkfd)('s)?\s+`?$",
                      re.IGNORECASE)


class Checker:
    def __init__(self, root, helps):
        self.root = root
        self.helps = helps  # tool name -> Help
        self.opt = helps.get("hcq-opt")
        self.not_passes = set(TOOLS) | cmake_targets(root)
        tools_dir = os.path.join(root, "tools")
        if os.path.isdir(tools_dir):
            self.not_passes |= set(os.listdir(tools_dir))

    # (b) passes and their options.

    def check_pass(self, doc, offset, name):
        if self.opt is None:
            return
        # hcq-translate's --hcq-* options look like passes but are its own.
        translate = self.helps.get("hcq-translate")
        if translate is not None and name in translate.flags:
            return
        if name not in self.opt.passes:
            doc.report(doc.line_of(offset), "'%s' is not a pass of hcq-opt "
                       "--help (nor a tool or CMake target)" % name)

    def check_options(self, doc, offset, name, options):
        if self.opt is None or name not in self.opt.passes:
            return
        for word in options.split():
            option = word.split("=", 1)[0].strip("'\"")
            if option and option not in self.opt.passes[name]:
                doc.report(doc.line_of(offset), "'%s' is not an option of "
                           "pass %s in hcq-opt --help" % (option, name))

    def check_pass_names(self, doc):
        for m in PASS_TOKEN.finditer(doc.text):
            dashes, name, after = m.group(1), m.group(2), m.group(3)
            if re.match(r"\.[A-Za-z]|/", after):
                continue  # part of a file or folder name
            if after.startswith("*") or after.startswith("-*"):
                pattern = name + after[:after.index("*") + 1]
                if self.opt is not None and not fnmatch.filter(
                        self.opt.passes, pattern):
                    doc.report(doc.line_of(m.start()), "no pass of hcq-opt "
                               "--help matches '%s'" % pattern)
                continue
            if name.endswith("-"):
                continue
            if name in self.not_passes and not dashes:
                continue
            self.check_pass(doc, m.start(2), name)
        # pass{option=value ...} and --pass=option=value, anywhere.
        for m in re.finditer(r"(?<![\w-])(hcq-[\w-]+|[\w-]+-to-hcq)\{([^}]*)\}",
                             doc.text):
            self.check_options(doc, m.start(), m.group(1), m.group(2))
        for m in re.finditer(r"(?<![\w-])--(hcq-[\w-]+|[\w-]+-to-hcq)="
                             r"(\"[^\"]*\"|'[^']*'|[^\s`]+)", doc.text):
            self.check_options(doc, m.start(), m.group(1),
                               m.group(2).strip("'\""))

    # (b) tool command lines.

    def check_command(self, doc, offset, text):
        for m in re.finditer(r"(?<![\w.-])(?:[\w./-]*/)?(%s)(?![\w.-])"
                             % "|".join(map(re.escape, TOOLS)), text):
            tool = m.group(1)
            help_ = self.helps.get(tool)
            if help_ is None:
                continue
            rest = re.split(r"\|\||&&|[|;`]|\$\(", text[m.end():])[0]
            for f in re.finditer(r"(?<![\w-])--([A-Za-z][\w-]*)"
                                 r"(?:=(\"[^\"]*\"|'[^']*'|\S*))?",
                                 rest):
                flag, value = f.group(1), f.group(2) or ""
                at = doc.line_of(offset + m.end() + f.start())
                if tool == "hcq-opt" and flag in help_.passes:
                    options = value.strip("'\"")
                    if options:
                        self.check_options(doc, offset + m.end() + f.start(),
                                           flag, options)
                    continue
                if flag not in help_.flags:
                    doc.report(at, "'--%s' is not an option of %s --help"
                               % (flag, tool))
                elif (tool == "hcq-run" and flag == "pipeline-options" and
                      self.opt is not None):
                    self.check_options(doc, offset + m.end() + f.start(),
                                       "hcq-pipeline", value.strip("'\""))

    # (c) paths.

    def path_exists(self, base, path):
        path = path.split("#", 1)[0]
        if "..." in path:
            path = path[:path.index("...")]
            path = path[:path.rfind("/") + 1]
        if not path:
            return True
        candidates = [path]
        brace = re.search(r"\{([^{}]*)\}", path)
        if brace:
            candidates = [path[:brace.start()] + alt + path[brace.end():]
                          for alt in brace.group(1).split(",")]
        for candidate in candidates:
            full = os.path.normpath(os.path.join(base, candidate))
            if any(c in candidate for c in "*?["):
                if not glob.glob(full):
                    return False
            elif not os.path.exists(full):
                return False
        return True

    def check_paths(self, doc, prose):
        doc_dir = os.path.dirname(os.path.join(self.root, doc.rel))
        # Paths from the top of the tree, in text, code spans and blocks.
        for m in re.finditer(r"(?<![\w./@$<-])((?:%s)/[\w./{},*+-]*)"
                             % "|".join(TOP_DIRS), doc.text):
            line_start = doc.text.rfind("\n", 0, m.start()) + 1
            if EXTERNAL.search(doc.text[line_start:m.start()]):
                continue  # another project's path
            path = m.group(1).rstrip(".,:;")
            if re.search(r"\{[^}]*$", path):
                path = path[:path.rfind("{")]
            if not self.path_exists(self.root, path):
                doc.report(doc.line_of(m.start()),
                           "'%s' does not exist in the tree" % path)
        # Headers by their include path: `HCQ/...`, `hcq-c/...`.
        for m in re.finditer(r"(?<![\w./@$<-])((?:HCQ|hcq-c)/[\w./{},*+-]*)",
                             doc.text):
            path = m.group(1).rstrip(".,:;")
            if re.search(r"\{[^}]*$", path):
                path = path[:path.rfind("{")]
            if not self.path_exists(os.path.join(self.root, "include"), path):
                doc.report(doc.line_of(m.start()), "'%s' does not exist in "
                           "include/" % path)
        # Relative Markdown links (in prose, not in code).
        for m in re.finditer(r"\]\(([^)\s]+)\)", prose):
            target = m.group(1)
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            if not self.path_exists(doc_dir, target):
                doc.report(doc.line_of(m.start()),
                           "link target '%s' does not exist" % target)

    def check(self, rel):
        with open(os.path.join(self.root, rel), encoding="utf-8") as fh:
            doc = Doc(rel, fh.read())
        check_fences(doc)
        prose = prose_of(doc)
        self.check_pass_names(doc)
        for offset, text in commands(doc, prose):
            self.check_command(doc, offset, text)
        self.check_paths(doc, prose)
        return sorted(set(doc.problems), key=lambda p: (p[1], p[2]))


def doc_files(root, patterns):
    files = []
    for pattern in patterns:
        matches = sorted(glob.glob(os.path.join(root, pattern)))
        if not matches and not any(c in pattern for c in "*?["):
            matches = [os.path.join(root, pattern)]
        files += [os.path.relpath(f, root) for f in matches]
    return files


def read_helps(tool_paths):
    """Each tool's Help, for the tools given a path."""
    return {tool: Help(run_help(path)) for tool, path in tool_paths.items()
            if path}


def run(root, helps, patterns, skip):
    """Checks the docs; returns the problems as `file:line: what` lines."""
    checker = Checker(root, helps)
    problems = []
    for rel in doc_files(root, patterns):
        if rel in skip:
            continue
        if not os.path.isfile(os.path.join(root, rel)):
            problems.append("%s: no such file" % rel)
            continue
        problems += ["%s:%d: %s" % p for p in checker.check(rel)]
    return problems


# --self-test: each kind of problem, in a tree of its own with fake tools.

FAKE_OPT_HELP = """\
USAGE: hcq-opt [options] <input file>
  --mlir-timing                          - Display execution times
  Compiler passes to run
    Passes:
      --hcq-encode                       -   Encode every submit
      --hcq-link                         -   Link every executable
        --base=<ulong>                   - First address of the map
      --convert-gpu-to-hcq               -   Convert upstream gpu code
        --chip=<string>                  - The AMD chip
    Pass Pipelines:
      --hcq-pipeline                     -   Compile an hcq schedule
        --batch-size=<long>              - Submits merged
        --profile                        - Bracket every call
  --verify-each                          - Run the verifier
"""
FAKE_RUN_HELP = """\
hcq-run options:
  --runs=<N>                    times to run
  --pipeline-options=<options>  for a .mlir input
"""

SELF_TEST_CASES = [
    # (name, markdown, [(line, substring of the problem)])
    ("good", """\
# Good

`hcq-opt --hcq-pipeline=batch-size=4 in.mlir`, `hcq-link{base=4096}`,
`convert-gpu-to-hcq{chip=gfx1100}`, the `hcq-*` passes, `hcq-docs`, a
file `test/Tools/hcq-opt.mlir`, `lib/Runtime/{A,B}.cpp`, `include/X/...`,
`HCQ/A.h`, `--hcq-link=base=4`, tinygrad's `test/mockgpu/amd/x.py`,
[the other doc](other.md), [top](../README.md), `hcq-run --runs=3`.

```mlir
hcq-opt --verify-each --mlir-timing --hcq-encode \\
  --hcq-link=base=64 x.mlir | hcq-run --pipeline-options="profile=true"
```

~~~sh
## a comment in a tilde block of shell, not a heading
~~~
""", []),
    ("unclosed", "text\n\n```\ncode\n", [(3, "never closed")]),
    ("info-inside", "```\na\n\n```mlir\nb\n```\n",
     [(4, "inside the code block opened at line 1")]),
    ("paired-wrong", "```\na/    b\n```\n\ndir/     text\n\n```\n\n## Heading\n"
     "text\n```\n", [(5, "layout line outside"), (9, "Markdown heading")]),
    ("pass", "Run `hcq-encode-amd`, then hcq-frobnicate, then\n"
     "`--hcq-gone`; `hcq-encode-*` too.\n",
     [(1, "'hcq-encode-amd' is not a pass"),
      (1, "'hcq-frobnicate' is not a pass"), (2, "'hcq-gone' is not a pass"),
      (2, "no pass of hcq-opt --help matches 'hcq-encode-*'")]),
    ("option", "`hcq-link{bogus=1}`\n\n`hcq-opt --hcq-pipeline='profile=1 "
     "nope=2'`\n\n`hcq-run --pipeline-options=\"batch=3\"`\n\n"
     "With `--hcq-link=dri=D` alone.\n",
     [(1, "'bogus' is not an option of pass hcq-link"),
      (3, "'nope' is not an option of pass hcq-pipeline"),
      (7, "'dri' is not an option of pass hcq-link"),
      (5, "'batch' is not an option of pass hcq-pipeline")]),
    ("flag", "```\nhcq-run --runs=1 \\\n  --no-such-flag x.hcqx\n```\n\n"
     "`build/bin/hcq-opt --mlir-timming`\n",
     [(3, "'--no-such-flag' is not an option of hcq-run"),
      (6, "'--mlir-timming' is not an option of hcq-opt")]),
    ("path", "See `lib/Runtime/Gone.cpp` and [x](missing.md) and\n"
     "scripts/nothing.sh, `include/HCQ/{A,Missing}.h`, `HCQ/Gone.h`.\n",
     [(1, "'lib/Runtime/Gone.cpp' does not exist"),
      (1, "link target 'missing.md' does not exist"),
      (2, "'scripts/nothing.sh' does not exist"),
      (2, "'include/HCQ/{A,Missing}.h' does not exist"),
      (2, "'HCQ/Gone.h' does not exist in include/")]),
]


def self_test():
    failures = []
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text, mode=None):
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as fh:
                fh.write(text)
            if mode:
                os.chmod(path, mode)
            return path

        for rel in ("README.md", "docs/other.md", "test/Tools/hcq-opt.mlir",
                    "lib/Runtime/A.cpp", "lib/Runtime/B.cpp",
                    "include/X/Y.h", "include/HCQ/A.h"):
            write(rel, "\n")
        write("docs/CMakeLists.txt", "add_custom_target(hcq-docs ALL)\n")
        tools = {}
        for tool, text in (("hcq-opt", FAKE_OPT_HELP),
                           ("hcq-run", FAKE_RUN_HELP)):
            tools[tool] = write("bin/" + tool, "#!%s\nprint(%r)\n"
                                % (sys.executable, text), 0o755)
        helps = read_helps(tools)
        for name, text, expected in SELF_TEST_CASES:
            write("docs/%s.md" % name, text)
            problems = run(root, helps, ["docs/%s.md" % name], set())
            found = set()
            for line, what in expected:
                hits = [p for p in problems
                        if p.startswith("docs/%s.md:%d: " % (name, line)) and
                        what in p]
                if not hits:
                    failures.append("%s: not reported: line %d: %s"
                                    % (name, line, what))
                found.update(hits)
            for p in problems:
                if p not in found:
                    failures.append("%s: unexpected: %s" % (name, p))
    for f in failures:
        print("check-docs self-test: " + f)
    print("check-docs self-test: %d cases, %s" % (
        len(SELF_TEST_CASES), "FAILED" if failures else "every problem caught"))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(
        description="Checks that the docs match the code (see the header).")
    parser.add_argument("files", nargs="*",
                        help="docs to check, relative to --root (default: "
                        + ", ".join(DEFAULT_DOCS) + ")")
    parser.add_argument("--root", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), ".."))
    for tool in TOOLS:
        parser.add_argument("--" + tool, metavar="PATH",
                            help="the %s to read --help from" % tool)
    parser.add_argument("--skip", action="append", default=[],
                        help="a doc not to check (relative to --root)")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.hcq_opt:
        parser.error("--hcq-opt is required")
    root = os.path.abspath(args.root)
    tools = {tool: getattr(args, tool.replace("-", "_")) for tool in TOOLS}
    # A tool not given is looked for beside hcq-opt.
    for tool in TOOLS:
        beside = os.path.join(os.path.dirname(args.hcq_opt), tool)
        if not tools[tool] and os.access(beside, os.X_OK):
            tools[tool] = beside
        elif not tools[tool]:
            print("check-docs: no %s: its flags are not checked" % tool,
                  file=sys.stderr)
    problems = run(root, read_helps(tools), args.files or list(DEFAULT_DOCS),
                   set(os.path.normpath(s) for s in args.skip))
    for p in problems:
        print(p)
    if problems:
        print("check-docs: %d problem(s)" % len(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
