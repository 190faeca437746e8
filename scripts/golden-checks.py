#!/usr/bin/env python3
"""Turns hcq-opt output into CHECK-NEXT lines with SSA names captured.

Used to write whole-output golden tests after the output was checked by hand:
  build/bin/hcq-opt --hcq-pipeline examples/mlp.mlir | scripts/golden-checks.py
"""
import re
import sys

seen = set()


def capture(match):
    value = match.group(1)
    name = value.upper() if not value[0].isdigit() else "V" + value
    if value in seen:
        return "%[[" + name + "]]"
    seen.add(value)
    return "%[[" + name + ":[a-z0-9]+]]"


lines = [l.strip() for l in sys.stdin.read().strip().split("\n")]
# Code objects are checked by their own tests; here they only have to be there.
lines = [re.sub(r'code_object "[^"]*"', 'code_object "{{[^"]+}}"', l)
         for l in lines]
print("// CHECK-LABEL: " + lines[0])
for line in lines[1:]:
    print("// CHECK-NEXT: " + re.sub(r"%([a-z]*[0-9]+)", capture, line))
