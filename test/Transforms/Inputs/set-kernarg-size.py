#!/usr/bin/env python3
"""Copies an AMDHSA code object, setting kernel SYMBOL's kernarg_size.

  set-kernarg-size.py IN OUT SYMBOL BYTES

Rewrites the 32-bit kernarg_size at byte 8 of the "<SYMBOL>.kd" kernel
descriptor (LLVM AMDHSAKernelDescriptor.h KERNARG_SIZE_OFFSET), making a
hostile input from a good one for the size-arithmetic tests of hcq-encode.
"""
import struct
import sys


def find_descriptor(data, symbol):
    """File offset of "<symbol>.kd" (ELF64 little-endian, via .symtab)."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
    for sh in sections:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        for off in range(sh[4], sh[4] + sh[5], 24):
            name, _, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", data,
                                                             off)
            start = strtab[4] + name
            end = data.index(b"\0", start)
            if data[start:end].decode() == symbol + ".kd":
                section = sections[shndx]
                return value - section[3] + section[4]
    sys.exit(f"no {symbol}.kd in the code object")


def main():
    src, dst, symbol, size = sys.argv[1:]
    data = bytearray(open(src, "rb").read())
    struct.pack_into("<I", data, find_descriptor(data, symbol) + 8, int(size, 0))
    open(dst, "wb").write(data)


main()
