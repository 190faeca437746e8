// The bring-up check for the first AMD GPU (hcq-amd-check, which
// scripts/amd-check.sh builds and runs) run against the simulated kernel
// driver for gfx1100 and gfx942, with 70,000 submits (more than 65,536;
// 5.3 laps of the 1 MiB ring) instead of 100,000. No AMD GPU was involved: this checks that
// every step passes where the driver and the command processor behave as
// the simulator models them, and what each step prints.
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100 %inputs/../../bin/hcq-amd-check --submits=70000 --timeout-ms=1000 2>&1 | FileCheck %s --check-prefixes=CHECK,GFX1100
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx942 %inputs/../../bin/hcq-amd-check --submits=70000 --timeout-ms=1000 2>&1 | FileCheck %s --check-prefixes=CHECK,GFX942

// CHECK: hcq-amd-check: AMD:0, wait timeout 1000 ms, 70000 submits
// CHECK: step 1 topology: PASS
// GFX1100-NEXT: KFD topology {{.*}}: 1 GPU this process may see
// GFX1100-NEXT: AMD:0: node 1, gpu_id 0x{{[0-9a-f]+}}, gfx1100 (gfx_target_version 110000), 96 CUs, 6 shader engines, 1 XCC, render node /dev/dri/renderD128
// GFX1100-NEXT: cwsr_size: published 0x2bea000, the runtime's formula agrees
// GFX1100-NEXT: ctl_stack_size: published 0xa000, the runtime's formula agrees
// GFX942-NEXT: KFD topology {{.*}}: 1 GPU this process may see
// GFX942-NEXT: AMD:0: node 1, gpu_id 0x{{[0-9a-f]+}}, gfx942 (gfx_target_version 90402), 38 CUs, 4 shader engines, 1 XCC, render node /dev/dri/renderD128
// GFX942-NEXT: cwsr_size: published 0x1621000, the runtime's formula agrees
// GFX942-NEXT: ctl_stack_size: published 0x3000, the runtime's formula agrees
// CHECK: step 2 open: PASS
// CHECK-NEXT: /dev/kfd: KFD ioctl version 1.{{[0-9]+}}
// CHECK-NEXT: AMD:0 ({{gfx1100|gfx942}}): /dev/dri/renderD128 opened, AMDGPU_INFO read, ACQUIRE_VM done
// CHECK-NEXT: interrupt event: id {{[0-9]+}}, mailbox 0x{{[0-9a-f]+}}
// CHECK-NEXT: GPU timestamp counter: 100 MHz
// CHECK: step 3 memory: PASS
// CHECK-NEXT: Host (GTT, coherent, uncached): 64 KiB at 0x{{[0-9a-f]+}}, host view rw{{.*}}, written and read back
// CHECK-NEXT: Device (VRAM the host cannot map): 64 KiB at 0x{{[0-9a-f]+}}, host view {{.*}} (not mapped by the runtime; ---p: VRAM, a render-node mapping: the GTT fallback)
// CHECK-NEXT: DeviceHostWritten (VRAM through the BAR): 64 KiB at 0x{{[0-9a-f]+}}, host view rw{{.*}}, written and read back
// CHECK: step 4 queues: PASS
// CHECK-NEXT: AMD:0 COMPUTE:0 (hcq-amd-check's): PM4, 1048576-byte ring
// CHECK-NEXT: AMD:0 SDMA:0 (hcq-amd-check's): SDMA, 1048576-byte ring
// The simulated CP reports the read pointer once per 64-dword block, as a
// 32-bit offset into the ring: still 0 after the first two pushes (12 and
// 20 dwords, each with the runtime's 8-dword completion store), which the
// runtime counts as done from its completion word.
// CHECK: step 5 submit: PASS
// CHECK-NEXT: pushed INDIRECT_BUFFER of 16 NOP dwords at 0x{{[0-9a-f]+}} (and the runtime's completion store)
// CHECK-NEXT: read-pointer word 0x0 (the raw 64 bits the CP wrote), write pointer 12, done as the runtime counts it (its completion word) 12
// CHECK-NEXT: pushed INDIRECT_BUFFER + RELEASE_MEM of 0x1234567876543210 to 0x{{[0-9a-f]+}}: the signal reads 0x1234567876543210
// CHECK-NEXT: read-pointer word 0x0, write pointer 32, done as the runtime counts it (its completion word) 32
// CHECK: step 6 kernel: PASS
// CHECK-NEXT: executable {{.*}}/copy_gpu0.hcqx, kernel hcq_copy_{{gfx1100|gfx942}}
// CHECK-NEXT: the builtin copy kernel of 4 KiB from 0x{{[0-9a-f]+}} to 0x{{[0-9a-f]+}}: run and synchronized in {{[0-9]+}} us, all 1024 elements right
// CHECK: step 7 copy: PASS
// CHECK-NEXT: executable {{.*}}/sdma/copy_gpu0.hcqx
// CHECK-NEXT: an SDMA copy of 4 KiB {{.*}} all 1024 elements right
// 70,000 pushes of 20 dwords after the 32 of step 5: 5.3 laps of the
// 262,144-dword ring; the read-pointer word wraps with it, at the last
// block boundary (1400000 mod 262144 = 0x15cc0).
// CHECK: step 8 submits: PASS
// CHECK-NEXT: 70000 submits (INDIRECT_BUFFER + RELEASE_MEM of the submit's number) on AMD:0 COMPUTE:0 (hcq-amd-check's): 5.3 laps of its 1048576-byte ring
// CHECK-NEXT: the signal reads 70000, read-pointer word 0x15cc0, write pointer 1400032, done as the runtime counts it (its completion word) 1400032
// CHECK-NEXT: 70000 runs of the kernel through the Runtime, then synchronize (the device's timeline reached): {{[0-9]+}} ns per run, result right
// The simulated GPU (copies checked, as it does by default) faults the
// SDMA copy from unmapped memory, raises KFD's memory-exception events and
// stops that queue. The step passes only if the runtime reports the fault
// (a device fault naming the page and the read), not a hang.
// CHECK: hcq-kfd-sim: {{.*}}fault at 0x[[HOLE:[0-9a-f]+]]
// CHECK: step 9 fault: PASS
// CHECK-NEXT: an SDMA copy of 4 KiB from 0x[[HOLE]] (reserved, mapped on neither the host nor the GPU)
// CHECK-NEXT: the runtime reported after {{[0-9]+}} ms: device fault: {{.*}}AMD:0: GPU page fault at 0x{{[0-9A-F]+}}: a read, no page mapped there
// CHECK: hcq-amd-check: every step run passed (9 of 9)

// Tests that --steps runs a subset (what they need made quietly), that a
// missing GPU fails the first step saying why, and that the exit status
// says whether every step passed.
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx942 %inputs/../../bin/hcq-amd-check --steps=topology,5 --timeout-ms=1000 2>&1 | FileCheck %s --check-prefix=SUBSET
// SUBSET: step 1 topology: PASS
// SUBSET-NOT: step 2
// SUBSET: step 5 submit: PASS
// SUBSET-NEXT: pushed INDIRECT_BUFFER
// SUBSET: hcq-amd-check: every step run passed (2 of 9)
// RUN: not %kfdsim HCQ_KFD_SIM_GPUS=gfx1100 %inputs/../../bin/hcq-amd-check --gpu=1 2>&1 | FileCheck %s --check-prefix=NOGPU
// NOGPU: step 1 topology: FAIL
// NOGPU: why: no AMD:1: the topology has 1 GPU this process may see
// NOGPU-NEXT: hcq-amd-check: FAILED at step 1 (topology): no AMD:1
// NOGPU-NOT: step 2
// RUN: not %kfdsim HCQ_KFD_SIM_GPUS=gfx90a %inputs/../../bin/hcq-amd-check 2>&1 | FileCheck %s --check-prefix=GFX90A
// GFX90A: hcq-amd-check: FAILED at step 1 (topology): AMD:0 is a gfx90a, which hcq does not encode for
