"""Compares the linked executables of hcq-opt's output on stdin.

Prints, for every executable after the first, whether its blob bytes and
its inputs tables equal the first executable's. Used to check that changing
only which input buffers a schedule uses changes only run-time words.
"""
import re
import sys

executables = {}
current = None
for line in sys.stdin:
    m = re.match(r"\s*hcq\.executable @(\w+)", line)
    if m:
        current = executables.setdefault(m.group(1), {"blobs": [], "inputs": []})
        continue
    if current is None:
        continue
    # Drop the SSA names: only the bytes and the table contents matter.
    body = re.sub(r"%\w+", "%", line.strip())
    if body.startswith("hcq.blob"):
        current["blobs"].append(body)
    elif body.startswith("hcq.inputs"):
        current["inputs"].append(line.strip())
names = list(executables)
first = executables[names[0]]
for name in names[1:]:
    other = executables[name]
    print("%s: blobs %s, %d blobs" % (name, "same" if other["blobs"] == first["blobs"] else "differ", len(other["blobs"])))
    print("%s: inputs tables %s" % (name, "same" if other["inputs"] == first["inputs"] else "differ"))
