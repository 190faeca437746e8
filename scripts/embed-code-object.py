#!/usr/bin/env python3
"""Prints an hcq.kernel op that carries a code object's bytes.

  scripts/embed-code-object.py FILE NAME SIGNATURE [--symbol S] [--vars N]
                               [--set-lds BYTES] [--set-mach HEX]
                               [--truncate BYTES] [--resource BLOB]
  scripts/embed-code-object.py FILE --resource-section BLOB

By default the bytes are inline in the op (a string). With --resource the op
refers to the resource blob BLOB instead (`dense_resource<BLOB>`), so that
several kernels of one code object share it; --resource-section prints the
file's resource section holding BLOB, which must end the file.

SIGNATURE is the kernel's argument list as hcq writes it, e.g.
"(write f32, read f32, read f32)". --set-lds rewrites the descriptor's
group_segment_fixed_size (the first word of the "<symbol>.kd" object),
--set-mach rewrites the processor the ELF header's e_flags name
(EF_AMDGPU_MACH, its low byte: 0x36 is gfx1030), and --truncate keeps only
the first bytes: all make bad inputs from good ones for the diagnostics
tests.
"""
import argparse
import struct


def find_descriptor(data, symbol):
    """File offset of "<symbol>.kd" (ELF64 little-endian, via .symtab)."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
    for sh in sections:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        for off in range(sh[4], sh[4] + sh[5], 24):
            name, _, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", data, off)
            start = strtab[4] + name
            end = data.index(b"\0", start)
            if data[start:end].decode() == symbol + ".kd":
                section = sections[shndx]
                return value - section[3] + section[4]  # vaddr -> file offset
    raise SystemExit("no descriptor for " + symbol)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("name", nargs="?")
    parser.add_argument("signature", nargs="?")
    parser.add_argument("--symbol")
    parser.add_argument("--vars", type=int, default=0)
    parser.add_argument("--set-lds", type=int)
    parser.add_argument("--set-mach", type=lambda text: int(text, 16))
    parser.add_argument("--truncate", type=int)
    parser.add_argument("--resource")
    parser.add_argument("--resource-section")
    args = parser.parse_args()
    data = bytearray(open(args.file, "rb").read())
    if args.resource_section:
        # MLIR's blob encoding: the alignment (u32, little-endian), then the
        # bytes, in hex.
        blob = struct.pack("<I", 8).hex().upper() + data.hex().upper()
        print("{-#\n  dialect_resources: {\n    builtin: {\n      "
              "%s: \"0x%s\"\n    }\n  }\n#-}" % (args.resource_section, blob))
        return
    if not args.name or not args.signature:
        parser.error("NAME and SIGNATURE are needed to print a kernel")
    if args.set_lds is not None:
        struct.pack_into("<I", data, find_descriptor(data, args.symbol or args.name),
                         args.set_lds)
    if args.set_mach is not None:
        # ELF64's e_flags: 4 bytes at offset 48; EF_AMDGPU_MACH is 0xff.
        (flags,) = struct.unpack_from("<I", data, 48)
        struct.pack_into("<I", data, 48, (flags & ~0xFF) | args.set_mach)
    if args.truncate is not None:
        data = data[:args.truncate]
    text = "".join("\\%02X" % b for b in data)
    op = "hcq.kernel @{} amd {}".format(args.name, args.signature)
    if args.vars:
        op += " vars {}".format(args.vars)
    if args.symbol:
        op += ' symbol "{}"'.format(args.symbol)
    if args.resource:
        print(op + " code_object dense_resource<{}> : tensor<{}xi8>".format(
            args.resource, len(data)))
        return
    print(op + ' code_object "' + text + '"')


main()
