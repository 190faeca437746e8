"""Prints the first ```mlir example of an op's section in the generated
dialect reference: doc-example.py REFERENCE.md OP (e.g. hcq.schedule)."""
import re
import sys

text = open(sys.argv[1]).read()
section = text[text.index("### `%s`" % sys.argv[2]):]
print(re.search(r"```mlir\n(.*?)```", section, re.S).group(1))
