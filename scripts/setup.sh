#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine and builds hcq: installs the LLVM/MLIR 22
# packages when they are missing, configures with CMake + Ninja, and builds.
#
#   scripts/setup.sh            # build into ./build (Release)
#   BUILD_DIR=out scripts/setup.sh
#   BUILD_DIR=out scripts/setup.sh -DHCQ_SANITIZER=thread   # CMake options
#   HCQ_TARGETS="hcq-unittests" scripts/setup.sh            # only these
#
# CMake options (re)configure the build folder; without them an existing
# one is only built.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

packages=(llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools libdrm-dev
          libclang-rt-22-dev libzstd-dev rocm-device-libs
          clang-22 lld-22 ninja-build cmake ccache libgtest-dev libbenchmark-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd=sudo
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q "${missing[@]}"
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)

if [ ! -f "$build/build.ninja" ] || (($#)); then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "${launcher[@]}" "$@"
fi
read -r -a targets <<< "${HCQ_TARGETS:-all}"
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
