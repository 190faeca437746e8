#!/usr/bin/env python3
"""Turns hcq-opt output into FileCheck lines with SSA names captured.

Used to write golden tests once the output was checked by hand:
  build/bin/hcq-opt --hcq-pipeline examples/mlp.mlir | scripts/golden-checks.py

Every line becomes CHECK-NEXT; a line opening an hcq.schedule or
hcq.executable starts a CHECK-LABEL block (names are captured afresh per
block). --prefix sets the check prefix. Code objects are checked by their own
tests; here they only have to be there.
"""
import argparse
import re
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--prefix", default="CHECK")
parser.add_argument("--skip-kernels", action="store_true",
                    help="leave out hcq.kernel lines and the module line")
args = parser.parse_args()

seen = set()


def capture(match):
    value = match.group(1)
    name = ("V" + value) if value[0].isdigit() else value.upper()
    if value in seen:
        return "%[[" + name + "]]"
    seen.add(value)
    return "%[[" + name + ":[a-z0-9]+]]"


first = True
text = sys.stdin.read()
# The resource section (code object blobs) is data, not IR to check.
text = text.split("{-#")[0]
for line in text.strip().split("\n"):
    line = line.strip()
    if not line:
        continue
    if args.skip_kernels and (line.startswith("hcq.kernel") or line == "module {"):
        continue
    line = re.sub(r'code_object "[^"]*"', 'code_object "{{[^"]+}}"', line)
    label = first or line.startswith(("hcq.schedule", "hcq.executable"))
    if label:
        seen.clear()
        # A label may not define variables: the signature follows as SAME.
        head, paren, rest = line.partition("(")
        print("// {}-LABEL: {}{}".format(args.prefix, head, paren))
        if rest:
            print("// {}-SAME: {}".format(
                args.prefix, re.sub(r"%([a-z]*[0-9]+)", capture, rest)))
        first = False
        continue
    line = re.sub(r"%([a-z]*[0-9]+)", capture, line)
    print("// {}-NEXT: {}".format(args.prefix, line))
