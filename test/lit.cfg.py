# -*- Python -*-
import os
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "HCQ"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hcq_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
config.substitutions.append(("%hcq_src_root", config.hcq_src_root))
config.substitutions.append(("%inputs", os.path.join(config.hcq_obj_root, "test", "Inputs")))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%embed", sys.executable + " " + os.path.join(config.hcq_src_root, "scripts", "embed-code-object.py")))

tool_dirs = [config.hcq_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["hcq-opt", "hcq-translate", "hcq-exe-dump", "hcq-run", "FileCheck", "not", "count", "split-file", "mlir-opt"], tool_dirs)
# ld.lld of LLVM 22 (gpu-module-to-binary looks for <toolkit>/llvm/bin/ld.lld).
config.substitutions.append(("%ld_lld", os.path.join(config.llvm_tools_dir, "ld.lld")))
# The ROCm device library's bitcode (Debian's rocm-device-libs), which
# convert-gpu-to-rocdl's math and block-size calls need in a toolkit's
# amdgcn/bitcode.
for rocm_bitcode in ("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
                     "/usr/lib/aarch64-linux-gnu/amdgcn/bitcode"):
    if os.path.isdir(rocm_bitcode):
        config.available_features.add("rocm-device-libs")
        config.substitutions.append(("%rocm_bitcode", rocm_bitcode))
        break

# Tests of what --amd=hardware says on a machine without an AMD GPU driver.
if not os.path.exists("/dev/kfd"):
    config.available_features.add("no-kfd")

# The hardware AMD device against the simulated kernel driver (test/KFDSim):
# preloaded, with the test kernels' CPU twins; HCQ_KFD_SIM_GPUS says which
# GPUs the machine has.
config.substitutions.append(("%kfdsim", "env LD_PRELOAD=" + os.path.join(config.hcq_obj_root, "lib", "libhcq-kfd-sim.so") + " HCQ_KFD_SIM_TWINS=" + os.path.join(config.hcq_obj_root, "test", "Inputs", "libhcqtestkernels.so")))
