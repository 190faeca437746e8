#!/usr/bin/env bash
# Checks that the runtime is LLVM-free (docs/runtime.md): its shared
# library and programs (libhcq-runtime.so, hcq-run, hcq-exe-dump) need only
# the C and C++ runtimes, and its static libraries (*.a) reference no LLVM
# or MLIR symbol. CTest runs it on the build (runtime-links-no-llvm);
# check-install.sh on the installed copies.
#
#   scripts/check-runtime-deps.sh FILE...
set -euo pipefail
if (($# < 1)); then
  echo "usage: $0 FILE... (shared libraries, programs, *.a archives)" >&2
  exit 2
fi
status=0
# What a program of the C++ standard library may need (glibc's parts; a
# sanitizer runtime adds libresolv), and nothing else.
allowed='^(libc|libm|libstdc\+\+|libgcc_s|libdl|libpthread|librt|libresolv|ld-linux-x86-64|ld-linux-aarch64)\.so'
binaries=() archives=()
for file in "$@"; do
  if [[ $file == *.a ]]; then archives+=("$file"); else binaries+=("$file"); fi
done
for binary in "${binaries[@]}"; do
  needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  if [[ -z $needed ]]; then
    echo "error: $binary: readelf shows no NEEDED entries" >&2
    status=1
  fi
  for lib in $needed; do
    if ! [[ $lib =~ $allowed ]]; then
      echo "error: $binary needs $lib (the runtime links only libc and libstdc++)" >&2
      status=1
    fi
  done
  echo "$binary: needs $(echo $needed | tr ' ' ',')"
done
for archive in "${archives[@]}"; do
  if nm -C --undefined-only "$archive" 2>/dev/null | grep -E ' (llvm|mlir)::' >/dev/null; then
    echo "error: $archive references LLVM or MLIR:" >&2
    nm -C --undefined-only "$archive" | grep -E ' (llvm|mlir)::' | sort -u | head -5 >&2
    status=1
  fi
done
exit $status
