// The AMD encoder on real code objects (test/Target/Inputs/kernels.cl built by
// clang-22): every submit's exact words for gfx1100 and gfx942, and their
// meaning through the disassembler (hcq-print-packets).
//
// RUN: %embed %inputs/kernels-gfx1100.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 > %t.k11
// RUN: %embed %inputs/kernels-gfx1100.co scale "(readwrite f32)" --symbol scale --vars 1 >> %t.k11
// RUN: %embed %inputs/kernels-gfx1100.co reduce "(write f32, read f32)" --symbol reduce >> %t.k11
// RUN: %embed %inputs/kernels-gfx942.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 > %t.k9
// RUN: %embed %inputs/kernels-gfx942.co scale "(readwrite f32)" --symbol scale --vars 1 >> %t.k9
// RUN: %embed %inputs/kernels-gfx942.co reduce "(write f32, read f32)" --symbol reduce >> %t.k9
// The gfx1100 vadd under its own name in every kernel file, for the
// schedules that name their gfx1100 target.
// RUN: %embed %inputs/kernels-gfx1100.co vadd_gfx1100 "(write f32, read f32, read f32)" --symbol vadd --vars 1 > %t.k1100
// RUN: %embed %inputs/hardware-gfx1100.co shape_gfx1100 "(write i32)" --symbol shape >> %t.k1100
// RUN: cat %t.k1100 >> %t.k11 && cat %t.k1100 >> %t.k9
// RUN: cat %t.k11 %s | hcq-opt --hcq-attach-targets=amd=gfx1100 --hcq-materialize-builtins --hcq-encode | FileCheck %s --check-prefix=GFX11
// RUN: cat %t.k9 %s | hcq-opt --hcq-attach-targets=amd=gfx942 --hcq-materialize-builtins --hcq-encode | FileCheck %s --check-prefix=GFX9
// RUN: cat %t.k11 %s | hcq-opt --hcq-attach-targets=amd=gfx1100 --hcq-materialize-builtins --hcq-encode --hcq-print-packets -o /dev/null | FileCheck %s --check-prefix=DIS11
// RUN: cat %t.k9 %s | hcq-opt --hcq-attach-targets=amd=gfx942 --hcq-materialize-builtins --hcq-encode --hcq-print-packets -o /dev/null | FileCheck %s --check-prefix=DIS9
//
// The same kernels as unlinked objects: each descriptor reaches its code
// through an R_AMDGPU_REL64 relocation, which the reader must apply (vadd is
// at .text + 0, scale at + 512; unapplied, both would point at the
// descriptor).
// RUN: %embed %inputs/kernels-gfx1100.o vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 > %t.o11
// RUN: %embed %inputs/kernels-gfx1100.o scale "(readwrite f32)" --symbol scale --vars 1 >> %t.o11
// RUN: %embed %inputs/kernels-gfx1100.o reduce "(write f32, read f32)" --symbol reduce >> %t.o11
// RUN: cat %t.k1100 >> %t.o11
// RUN: cat %t.o11 %s | hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode --hcq-print-packets -o /dev/null | FileCheck %s --check-prefix=REL
// REL-LABEL: // hcq.schedule @dispatch
// REL: SET_SH_REG COMPUTE_PGM_LO(0x20c) = lo(%{{[a-z0-9]+}} >> 8) hi(%{{[a-z0-9]+}} >> 8)
// REL-LABEL: // hcq.schedule @dispatch_packet
// REL: SET_SH_REG COMPUTE_PGM_LO(0x20c) = lo(%{{[a-z0-9]+}} + 512 >> 8) hi(%{{[a-z0-9]+}} + 512 >> 8)

// Tests that the synchronization ops encode as their packets: barrier, waits
// on a constant and on the host timeline value, stores of a constant and of
// the timeline value, and a timestamp. Only after stores to the timeline,
// which the host may sleep on, does the queue raise the device's interrupt
// event: its number written into the event mailbox, then the interrupt
// carrying it (a RELEASE_MEM with int_sel=2 and ctxid the number; an SDMA
// FENCE, then a TRAP with the number); the stores themselves and stores
// other queues wait for interrupt nothing. On gfx942 the
// waits are followed by an ACQUIRE_MEM invalidating L2, since SDMA writes
// around it (gfx11 needs none).
// GFX11-LABEL: hcq.schedule @sync(
// GFX11-SAME: ) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// GFX11-NEXT: %[[V0:[a-z0-9]+]] = hcq.placeholder event_mailbox device volatile : !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: %[[V1:[a-z0-9]+]] = hcq.placeholder interrupt_event device : !hcq.buffer<1xi8, AMD:0>
// GFX11-NEXT: %[[V2:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: %[[V3:[a-z0-9]+]] = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: %[[V4:[a-z0-9]+]] = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: %[[V5:[a-z0-9]+]] = hcq.placeholder timestamp slot 2 volatile : !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// GFX11-NEXT: hcq.cmds cmdbuf i32 [0xc0053c00, 0x00000045, 0x00000e26, 0x00000e27, 0xffffffff, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x0000c3f1, 0xc0053c00, 0x00000015, lo(%[[V3]]), hi(%[[V3]]), load.lo(%[[V4]] - 1), 0xffffffff, 0x00000004, 0xc0053c00, 0x00000015, lo(%[[V2]]), hi(%[[V2]]), 0x00000003, 0xffffffff, 0x00000004, 0xc0064900, 0x00000514, 0x60000000, lo(%[[V5]]), hi(%[[V5]]), 0x00000000, 0x00000000, 0x00000000, 0xc0064900, 0x0070f514, 0x20000000, lo(%[[V2]]), hi(%[[V2]]), 0x00000004, 0x00000000, 0x00000000, 0xc0064900, 0x0070f514, 0x20000000, lo(%[[V3]]), hi(%[[V3]]), load.lo(%[[V4]]), load.hi(%[[V4]]), 0x00000000, 0xc0064900, 0x00000514, 0x22000000, lo(%[[V0]]), hi(%[[V0]]), lo(%[[V1]]), 0x00000000, lo(%[[V1]])] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi8, AMD:0>
// GFX11-NEXT: }
// GFX11-NEXT: hcq.submit on AMD:0 queue COPY:0 {
// GFX11-NEXT: hcq.cmds cmdbuf i32 [0xd0000008, lo(%[[V3]]), hi(%[[V3]]), load.lo(%[[V4]] - 1), 0xffffffff, 0x0fff0004, 0x0000020d, lo(%[[V5]]), hi(%[[V5]]), 0x00030005, lo(%[[V2]]), hi(%[[V2]]), 0x00000005, 0x00030005, lo(%[[V3]]), hi(%[[V3]]), load.lo(%[[V4]]), 0x00030005, lo(%[[V0]]), hi(%[[V0]]), lo(%[[V1]]), 0x00000006, lo(%[[V1]])] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi8, AMD:0>
// GFX11-NEXT: }
// GFX11-NEXT: }
// GFX9-LABEL: hcq.schedule @sync(
// GFX9-SAME: ) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// GFX9-NEXT: %[[V0:[a-z0-9]+]] = hcq.placeholder event_mailbox device volatile : !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: %[[V1:[a-z0-9]+]] = hcq.placeholder interrupt_event device : !hcq.buffer<1xi8, AMD:0>
// GFX9-NEXT: %[[V2:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: %[[V3:[a-z0-9]+]] = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: %[[V4:[a-z0-9]+]] = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: %[[V5:[a-z0-9]+]] = hcq.placeholder timestamp slot 2 volatile : !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// GFX9-NEXT: hcq.cmds cmdbuf i32 [0xc0053c00, 0x00000045, 0x00000e26, 0x00000e27, 0xffffffff, 0xffffffff, 0x00000004, 0xc0055800, 0x28c40000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x0000000a, 0xc0053c00, 0x00000015, lo(%[[V3]]), hi(%[[V3]]), load.lo(%[[V4]] - 1), 0xffffffff, 0x00000004, 0xc0053c00, 0x00000015, lo(%[[V2]]), hi(%[[V2]]), 0x00000003, 0xffffffff, 0x00000004, 0xc0055800, 0x28c40000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x0000000a, 0xc0064900, 0x00000514, 0x60000000, lo(%[[V5]]), hi(%[[V5]]), 0x00000000, 0x00000000, 0x00000000, 0xc0064900, 0x00088514, 0x20000000, lo(%[[V2]]), hi(%[[V2]]), 0x00000004, 0x00000000, 0x00000000, 0xc0064900, 0x00088514, 0x20000000, lo(%[[V3]]), hi(%[[V3]]), load.lo(%[[V4]]), load.hi(%[[V4]]), 0x00000000, 0xc0064900, 0x00000514, 0x22000000, lo(%[[V0]]), hi(%[[V0]]), lo(%[[V1]]), 0x00000000, lo(%[[V1]])] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi8, AMD:0>
// GFX9-NEXT: }
// GFX9-NEXT: hcq.submit on AMD:0 queue COPY:0 {
// GFX9-NEXT: hcq.cmds cmdbuf i32 [0xd0000008, lo(%[[V3]]), hi(%[[V3]]), load.lo(%[[V4]] - 1), 0xffffffff, 0x0fff0004, 0x0000020d, lo(%[[V5]]), hi(%[[V5]]), 0x00000005, lo(%[[V2]]), hi(%[[V2]]), 0x00000005, 0x00000005, lo(%[[V3]]), hi(%[[V3]]), load.lo(%[[V4]]), 0x00000005, lo(%[[V0]]), hi(%[[V0]]), lo(%[[V1]]), 0x00000006, lo(%[[V1]])] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi8, AMD:0>
// GFX9-NEXT: }
// GFX9-NEXT: }
// DIS11-LABEL: // hcq.schedule @sync
// DIS11-NEXT: // submit on AMD:0 queue COMPUTE:0, cmdbuf, 61 words
// DIS11-NEXT: 0: WAIT_REG_MEM reg function=5 operation=1 reg=0x00000e26 reg_done=0x00000e27 ref=0xffffffff mask=0xffffffff poll=0x00000004
// DIS11-NEXT: 7: ACQUIRE_MEM size=0xffffffffffffffff base=0x0000000000000000 poll=0x00000000 gcr_cntl=0x0000c3f1
// DIS11-NEXT: 15: WAIT_REG_MEM mem function=5 operation=0 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} ref=load.lo(%{{[a-z0-9]+}} - 1) mask=0xffffffff poll=0x00000004
// DIS11-NEXT: 22: WAIT_REG_MEM mem function=5 operation=0 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} ref=0x00000003 mask=0xffffffff poll=0x00000004
// DIS11-NEXT: 29: RELEASE_MEM event=0x14 index=5 cache=0x00000000 data_sel=3 int_sel=0 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data=0x0000000000000000 ctxid=0x00000000
// DIS11-NEXT: 37: RELEASE_MEM event=0x14 index=5 cache=0x0070f000 data_sel=1 int_sel=0 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data=0x0000000000000004 ctxid=0x00000000
// DIS11-NEXT: 45: RELEASE_MEM event=0x14 index=5 cache=0x0070f000 data_sel=1 int_sel=0 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data={load.lo(%{{[a-z0-9]+}}), load.hi(%{{[a-z0-9]+}})} ctxid=0x00000000
// DIS11-NEXT: 53: RELEASE_MEM event=0x14 index=5 cache=0x00000000 data_sel=1 int_sel=2 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data={lo(%{{[a-z0-9]+}}), 0x00000000} ctxid=lo(%{{[a-z0-9]+}})
// DIS11-NEXT: // submit on AMD:0 queue COPY:0, cmdbuf, 23 words
// DIS11-NEXT: 0: POLL_REGMEM mem function=5 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} value=load.lo(%{{[a-z0-9]+}} - 1) mask=0xffffffff interval=4 retry=0xfff
// DIS11-NEXT: 6: TIMESTAMP global addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})}
// DIS11-NEXT: 9: FENCE mtype=3 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data=0x00000005
// DIS11-NEXT: 13: FENCE mtype=3 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data=load.lo(%{{[a-z0-9]+}})
// DIS11-NEXT: 17: FENCE mtype=3 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data=lo(%{{[a-z0-9]+}})
// DIS11-NEXT: 21: TRAP int_context=lo(%{{[a-z0-9]+}})
// DIS9-LABEL: // hcq.schedule @sync
// DIS9-NEXT: // submit on AMD:0 queue COMPUTE:0, cmdbuf, 67 words
// DIS9-NEXT: 0: WAIT_REG_MEM reg function=5 operation=1 reg=0x00000e26 reg_done=0x00000e27 ref=0xffffffff mask=0xffffffff poll=0x00000004
// DIS9-NEXT: 7: ACQUIRE_MEM coher_cntl=0x28c40000 size=0xffffffffffffffff base=0x0000000000000000 poll=0x0000000a
// DIS9-NEXT: 14: WAIT_REG_MEM mem function=5 operation=0 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} ref=load.lo(%{{[a-z0-9]+}} - 1) mask=0xffffffff poll=0x00000004
// DIS9-NEXT: 21: WAIT_REG_MEM mem function=5 operation=0 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} ref=0x00000003 mask=0xffffffff poll=0x00000004
// DIS9-NEXT: 28: ACQUIRE_MEM coher_cntl=0x28c40000 size=0xffffffffffffffff base=0x0000000000000000 poll=0x0000000a
// DIS9-NEXT: 35: RELEASE_MEM event=0x14 index=5 cache=0x00000000 data_sel=3 int_sel=0 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data=0x0000000000000000 ctxid=0x00000000
// DIS9-NEXT: 43: RELEASE_MEM event=0x14 index=5 cache=0x00088000 data_sel=1 int_sel=0 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data=0x0000000000000004 ctxid=0x00000000
// DIS9-NEXT: 51: RELEASE_MEM event=0x14 index=5 cache=0x00088000 data_sel=1 int_sel=0 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data={load.lo(%{{[a-z0-9]+}}), load.hi(%{{[a-z0-9]+}})} ctxid=0x00000000
// DIS9-NEXT: 59: RELEASE_MEM event=0x14 index=5 cache=0x00000000 data_sel=1 int_sel=2 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data={lo(%{{[a-z0-9]+}}), 0x00000000} ctxid=lo(%{{[a-z0-9]+}})
// DIS9-NEXT: // submit on AMD:0 queue COPY:0, cmdbuf, 23 words
// DIS9-NEXT: 0: POLL_REGMEM mem function=5 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} value=load.lo(%{{[a-z0-9]+}} - 1) mask=0xffffffff interval=4 retry=0xfff
// DIS9-NEXT: 6: TIMESTAMP global addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})}
// DIS9-NEXT: 9: FENCE addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data=0x00000005
// DIS9-NEXT: 13: FENCE addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data=load.lo(%{{[a-z0-9]+}})
// DIS9-NEXT: 17: FENCE addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data=lo(%{{[a-z0-9]+}})
// DIS9-NEXT: 21: TRAP int_context=lo(%{{[a-z0-9]+}})
hcq.schedule @sync() {
  %sig = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
  %tl = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, AMD:0>
  %tlv = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, AMD:0>
  %ts = hcq.placeholder timestamp slot 2 volatile : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.barrier
    hcq.wait %tl >= [%tlv : !hcq.buffer<1xi64, AMD:0>] - 1 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 3 : !hcq.buffer<1xi64, AMD:0>
    hcq.timestamp %ts : !hcq.buffer<1xi64, AMD:0>
    hcq.store %sig = 4 : !hcq.buffer<1xi64, AMD:0>
    hcq.store %tl = [%tlv : !hcq.buffer<1xi64, AMD:0>] : !hcq.buffer<1xi64, AMD:0>
  }
  hcq.submit on AMD:0 queue COPY:0 {
    hcq.barrier
    hcq.wait %tl >= [%tlv : !hcq.buffer<1xi64, AMD:0>] - 1 : !hcq.buffer<1xi64, AMD:0>
    hcq.timestamp %ts : !hcq.buffer<1xi64, AMD:0>
    hcq.store %sig = 5 : !hcq.buffer<1xi64, AMD:0>
    hcq.store %tl = [%tlv : !hcq.buffer<1xi64, AMD:0>] : !hcq.buffer<1xi64, AMD:0>
  }
}

// Tests that a launch encodes as the dispatch sequence: program address,
// resources, user SGPRs, workgroup size and grid, and the kernel arguments
// (buffer addresses, the variable).
// GFX11-LABEL: hcq.schedule @dispatch(
// GFX11-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<64xf32, AMD:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<64xf32, AMD:0>, %[[ARG2:[a-z0-9]+]]: !hcq.buffer<64xf32, AMD:0>, %[[ARG3:[a-z0-9]+]]: i32) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// GFX11-NEXT: %[[V0:[a-z0-9]+]] = hcq.program @vadd : !hcq.buffer<16384xi8, AMD:0>
// GFX11-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// GFX11-NEXT: %[[V1:[a-z0-9]+]] = hcq.cmds kernargs i32 [lo(%[[ARG2]]), hi(%[[ARG2]]), lo(%[[ARG0]]), hi(%[[ARG0]]), lo(%[[ARG1]]), hi(%[[ARG1]]), var(%[[ARG3]])] : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, i32
// GFX11-NEXT: hcq.cmds cmdbuf i32 [0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, lo(%[[V0]] + 7168 >> 8), hi(%[[V0]] + 7168 >> 8), 0xc0027600, 0x00000212, 0xe0bf0000, 0x0000009e, 0xc0017600, 0x00000228, 0x00000020, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, lo(%[[V1]]), hi(%[[V1]]), 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000020, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000002, 0x00000001, 0x00000001, 0x00008005, 0xc0004600, 0x00000407] : !hcq.buffer<16384xi8, AMD:0>, !hcq.linear
// GFX11-NEXT: }
// GFX11-NEXT: }
// GFX9-LABEL: hcq.schedule @dispatch(
// GFX9-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<64xf32, AMD:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<64xf32, AMD:0>, %[[ARG2:[a-z0-9]+]]: !hcq.buffer<64xf32, AMD:0>, %[[ARG3:[a-z0-9]+]]: i32) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// GFX9-NEXT: %[[V0:[a-z0-9]+]] = hcq.program @vadd : !hcq.buffer<16384xi8, AMD:0>
// GFX9-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// GFX9-NEXT: %[[V1:[a-z0-9]+]] = hcq.cmds kernargs i32 [lo(%[[ARG2]]), hi(%[[ARG2]]), lo(%[[ARG0]]), hi(%[[ARG0]]), lo(%[[ARG1]]), hi(%[[ARG1]]), var(%[[ARG3]])] : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, i32
// GFX9-NEXT: hcq.cmds cmdbuf i32 [0xc0055800, 0x08400000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x0000000a, 0xc0027600, 0x0000020c, lo(%[[V0]] + 7168 >> 8), hi(%[[V0]] + 7168 >> 8), 0xc0027600, 0x00000212, 0x00af0040, 0x00000084, 0xc0017600, 0x0000022d, 0x00000001, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, lo(%[[V1]]), hi(%[[V1]]), 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000020, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000002, 0x00000001, 0x00000001, 0x00000005, 0xc0004600, 0x00000407] : !hcq.buffer<16384xi8, AMD:0>, !hcq.linear
// GFX9-NEXT: }
// GFX9-NEXT: }
// DIS11-LABEL: // hcq.schedule @dispatch
// DIS11-NEXT: // submit on AMD:0 queue COMPUTE:0, kernargs %{{[a-z0-9]+}}, 7 words
// DIS11-NEXT: 0: lo(%{{[a-z0-9]+}})
// DIS11-NEXT: 1: hi(%{{[a-z0-9]+}})
// DIS11-NEXT: 2: lo(%{{[a-z0-9]+}})
// DIS11-NEXT: 3: hi(%{{[a-z0-9]+}})
// DIS11-NEXT: 4: lo(%{{[a-z0-9]+}})
// DIS11-NEXT: 5: hi(%{{[a-z0-9]+}})
// DIS11-NEXT: 6: var(%{{[a-z0-9]+}})
// DIS11-NEXT: // submit on AMD:0 queue COMPUTE:0, cmdbuf, 55 words
// DIS11-NEXT: 0: ACQUIRE_MEM size=0xffffffffffffffff base=0x0000000000000000 poll=0x00000000 gcr_cntl=0x000003f0
// DIS11-NEXT: 8: SET_SH_REG COMPUTE_PGM_LO(0x20c) = lo(%{{[a-z0-9]+}} + 7168 >> 8) hi(%{{[a-z0-9]+}} + 7168 >> 8)
// DIS11-NEXT: 12: SET_SH_REG COMPUTE_PGM_RSRC1(0x212) = 0xe0bf0000 0x0000009e
// DIS11-NEXT: 16: SET_SH_REG COMPUTE_PGM_RSRC3(0x228) = 0x00000020
// DIS11-NEXT: 19: SET_SH_REG COMPUTE_TMPRING_SIZE(0x218) = 0x00000000
// DIS11-NEXT: 22: SET_SH_REG COMPUTE_DISPATCH_SCRATCH_BASE_LO(0x210) = 0x00000000 0x00000000
// DIS11-NEXT: 26: SET_SH_REG COMPUTE_RESTART_X(0x21b) = 0x00000000 0x00000000 0x00000000
// DIS11-NEXT: 31: SET_SH_REG COMPUTE_USER_DATA_0(0x240) = lo(%{{[a-z0-9]+}}) hi(%{{[a-z0-9]+}})
// DIS11-NEXT: 35: SET_SH_REG COMPUTE_RESOURCE_LIMITS(0x215) = 0x00000000
// DIS11-NEXT: 38: SET_SH_REG COMPUTE_START_X(0x204) = 0x00000000 0x00000000 0x00000000 0x00000020 0x00000001 0x00000001 0x00000000 0x00000000
// DIS11-NEXT: 48: DISPATCH_DIRECT x=0x00000002 y=0x00000001 z=0x00000001 initiator=0x00008005
// DIS11-NEXT: 53: EVENT_WRITE type=7 (CS_PARTIAL_FLUSH) index=4
// DIS9-LABEL: // hcq.schedule @dispatch
// DIS9-NEXT: // submit on AMD:0 queue COMPUTE:0, kernargs %{{[a-z0-9]+}}, 7 words
// DIS9-NEXT: 0: lo(%{{[a-z0-9]+}})
// DIS9-NEXT: 1: hi(%{{[a-z0-9]+}})
// DIS9-NEXT: 2: lo(%{{[a-z0-9]+}})
// DIS9-NEXT: 3: hi(%{{[a-z0-9]+}})
// DIS9-NEXT: 4: lo(%{{[a-z0-9]+}})
// DIS9-NEXT: 5: hi(%{{[a-z0-9]+}})
// DIS9-NEXT: 6: var(%{{[a-z0-9]+}})
// DIS9-NEXT: // submit on AMD:0 queue COMPUTE:0, cmdbuf, 54 words
// DIS9-NEXT: 0: ACQUIRE_MEM coher_cntl=0x08400000 size=0xffffffffffffffff base=0x0000000000000000 poll=0x0000000a
// DIS9-NEXT: 7: SET_SH_REG COMPUTE_PGM_LO(0x20c) = lo(%{{[a-z0-9]+}} + 7168 >> 8) hi(%{{[a-z0-9]+}} + 7168 >> 8)
// DIS9-NEXT: 11: SET_SH_REG COMPUTE_PGM_RSRC1(0x212) = 0x00af0040 0x00000084
// DIS9-NEXT: 15: SET_SH_REG COMPUTE_PGM_RSRC3(0x22d) = 0x00000001
// DIS9-NEXT: 18: SET_SH_REG COMPUTE_TMPRING_SIZE(0x218) = 0x00000000
// DIS9-NEXT: 21: SET_SH_REG COMPUTE_DISPATCH_SCRATCH_BASE_LO(0x210) = 0x00000000 0x00000000
// DIS9-NEXT: 25: SET_SH_REG COMPUTE_RESTART_X(0x21b) = 0x00000000 0x00000000 0x00000000
// DIS9-NEXT: 30: SET_SH_REG COMPUTE_USER_DATA_0(0x240) = lo(%{{[a-z0-9]+}}) hi(%{{[a-z0-9]+}})
// DIS9-NEXT: 34: SET_SH_REG COMPUTE_RESOURCE_LIMITS(0x215) = 0x00000000
// DIS9-NEXT: 37: SET_SH_REG COMPUTE_START_X(0x204) = 0x00000000 0x00000000 0x00000000 0x00000020 0x00000001 0x00000001 0x00000000 0x00000000
// DIS9-NEXT: 47: DISPATCH_DIRECT x=0x00000002 y=0x00000001 z=0x00000001 initiator=0x00000005
// DIS9-NEXT: 52: EVENT_WRITE type=7 (CS_PARTIAL_FLUSH) index=4
hcq.schedule @dispatch(%a: !hcq.buffer<64xf32, AMD:0>, %b: !hcq.buffer<64xf32, AMD:0>, %c: !hcq.buffer<64xf32, AMD:0>, %n: i32) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.launch @vadd(%c, %a, %b : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) vars(%n : i32) global [2, 1, 1] local [32, 1, 1]
  }
}

// Tests that a kernel reading the dispatch packet gets an extra user SGPR
// pair pointing after the kernel arguments, where the packet is.
// GFX11-LABEL: hcq.schedule @dispatch_packet(
// GFX11-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<64xf32, AMD:0>, %[[ARG1:[a-z0-9]+]]: i32) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// GFX11-NEXT: %[[V0:[a-z0-9]+]] = hcq.program @scale : !hcq.buffer<16384xi8, AMD:0>
// GFX11-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// GFX11-NEXT: %[[V1:[a-z0-9]+]] = hcq.cmds kernargs i32 [lo(%[[ARG0]]), hi(%[[ARG0]]), var(%[[ARG1]]), 0x00030000, 0x00010010, 0x00000001, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000] : !hcq.buffer<64xf32, AMD:0>, i32
// GFX11-NEXT: hcq.cmds cmdbuf i32 [0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, lo(%[[V0]] + 7680 >> 8), hi(%[[V0]] + 7680 >> 8), 0xc0027600, 0x00000212, 0xe0bf0000, 0x0000009e, 0xc0017600, 0x00000228, 0x00000010, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0047600, 0x00000240, lo(%[[V1]] + 12), hi(%[[V1]] + 12), lo(%[[V1]]), hi(%[[V1]]), 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000010, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000004, 0x00000001, 0x00000001, 0x00008005, 0xc0004600, 0x00000407] : !hcq.buffer<16384xi8, AMD:0>, !hcq.linear
// GFX11-NEXT: }
// GFX11-NEXT: }
// GFX9-LABEL: hcq.schedule @dispatch_packet(
// GFX9-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<64xf32, AMD:0>, %[[ARG1:[a-z0-9]+]]: i32) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// GFX9-NEXT: %[[V0:[a-z0-9]+]] = hcq.program @scale : !hcq.buffer<16384xi8, AMD:0>
// GFX9-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// GFX9-NEXT: %[[V1:[a-z0-9]+]] = hcq.cmds kernargs i32 [lo(%[[ARG0]]), hi(%[[ARG0]]), var(%[[ARG1]]), 0x00030000, 0x00010010, 0x00000001, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000] : !hcq.buffer<64xf32, AMD:0>, i32
// GFX9-NEXT: hcq.cmds cmdbuf i32 [0xc0055800, 0x08400000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x0000000a, 0xc0027600, 0x0000020c, lo(%[[V0]] + 7424 >> 8), hi(%[[V0]] + 7424 >> 8), 0xc0027600, 0x00000212, 0x00af0040, 0x00000088, 0xc0017600, 0x0000022d, 0x00000000, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0047600, 0x00000240, lo(%[[V1]] + 12), hi(%[[V1]] + 12), lo(%[[V1]]), hi(%[[V1]]), 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000010, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000004, 0x00000001, 0x00000001, 0x00000005, 0xc0004600, 0x00000407] : !hcq.buffer<16384xi8, AMD:0>, !hcq.linear
// GFX9-NEXT: }
// GFX9-NEXT: }
// DIS11-LABEL: // hcq.schedule @dispatch_packet
// DIS11-NEXT: // submit on AMD:0 queue COMPUTE:0, kernargs %{{[a-z0-9]+}}, 19 words
// DIS11-NEXT: 0: lo(%{{[a-z0-9]+}})
// DIS11-NEXT: 1: hi(%{{[a-z0-9]+}})
// DIS11-NEXT: 2: var(%{{[a-z0-9]+}})
// DIS11-NEXT: 3: 0x00030000
// DIS11-NEXT: 4: 0x00010010
// DIS11-NEXT: 5: 0x00000001
// DIS11-NEXT: 6: 0x00000040
// DIS11-NEXT: 7: 0x00000001
// DIS11-NEXT: 8: 0x00000001
// DIS11-NEXT: 9: 0x00000000
// DIS11-NEXT: 10: 0x00000000
// DIS11-NEXT: 11: 0x00000000
// DIS11-NEXT: 12: 0x00000000
// DIS11-NEXT: 13: 0x00000000
// DIS11-NEXT: 14: 0x00000000
// DIS11-NEXT: 15: 0x00000000
// DIS11-NEXT: 16: 0x00000000
// DIS11-NEXT: 17: 0x00000000
// DIS11-NEXT: 18: 0x00000000
// DIS11-NEXT: // submit on AMD:0 queue COMPUTE:0, cmdbuf, 57 words
// DIS11-NEXT: 0: ACQUIRE_MEM size=0xffffffffffffffff base=0x0000000000000000 poll=0x00000000 gcr_cntl=0x000003f0
// DIS11-NEXT: 8: SET_SH_REG COMPUTE_PGM_LO(0x20c) = lo(%{{[a-z0-9]+}} + 7680 >> 8) hi(%{{[a-z0-9]+}} + 7680 >> 8)
// DIS11-NEXT: 12: SET_SH_REG COMPUTE_PGM_RSRC1(0x212) = 0xe0bf0000 0x0000009e
// DIS11-NEXT: 16: SET_SH_REG COMPUTE_PGM_RSRC3(0x228) = 0x00000010
// DIS11-NEXT: 19: SET_SH_REG COMPUTE_TMPRING_SIZE(0x218) = 0x00000000
// DIS11-NEXT: 22: SET_SH_REG COMPUTE_DISPATCH_SCRATCH_BASE_LO(0x210) = 0x00000000 0x00000000
// DIS11-NEXT: 26: SET_SH_REG COMPUTE_RESTART_X(0x21b) = 0x00000000 0x00000000 0x00000000
// DIS11-NEXT: 31: SET_SH_REG COMPUTE_USER_DATA_0(0x240) = lo(%{{[a-z0-9]+}} + 12) hi(%{{[a-z0-9]+}} + 12) lo(%{{[a-z0-9]+}}) hi(%{{[a-z0-9]+}})
// DIS11-NEXT: 37: SET_SH_REG COMPUTE_RESOURCE_LIMITS(0x215) = 0x00000000
// DIS11-NEXT: 40: SET_SH_REG COMPUTE_START_X(0x204) = 0x00000000 0x00000000 0x00000000 0x00000010 0x00000001 0x00000001 0x00000000 0x00000000
// DIS11-NEXT: 50: DISPATCH_DIRECT x=0x00000004 y=0x00000001 z=0x00000001 initiator=0x00008005
// DIS11-NEXT: 55: EVENT_WRITE type=7 (CS_PARTIAL_FLUSH) index=4
// DIS9-LABEL: // hcq.schedule @dispatch_packet
// DIS9-NEXT: // submit on AMD:0 queue COMPUTE:0, kernargs %{{[a-z0-9]+}}, 19 words
// DIS9-NEXT: 0: lo(%{{[a-z0-9]+}})
// DIS9-NEXT: 1: hi(%{{[a-z0-9]+}})
// DIS9-NEXT: 2: var(%{{[a-z0-9]+}})
// DIS9-NEXT: 3: 0x00030000
// DIS9-NEXT: 4: 0x00010010
// DIS9-NEXT: 5: 0x00000001
// DIS9-NEXT: 6: 0x00000040
// DIS9-NEXT: 7: 0x00000001
// DIS9-NEXT: 8: 0x00000001
// DIS9-NEXT: 9: 0x00000000
// DIS9-NEXT: 10: 0x00000000
// DIS9-NEXT: 11: 0x00000000
// DIS9-NEXT: 12: 0x00000000
// DIS9-NEXT: 13: 0x00000000
// DIS9-NEXT: 14: 0x00000000
// DIS9-NEXT: 15: 0x00000000
// DIS9-NEXT: 16: 0x00000000
// DIS9-NEXT: 17: 0x00000000
// DIS9-NEXT: 18: 0x00000000
// DIS9-NEXT: // submit on AMD:0 queue COMPUTE:0, cmdbuf, 56 words
// DIS9-NEXT: 0: ACQUIRE_MEM coher_cntl=0x08400000 size=0xffffffffffffffff base=0x0000000000000000 poll=0x0000000a
// DIS9-NEXT: 7: SET_SH_REG COMPUTE_PGM_LO(0x20c) = lo(%{{[a-z0-9]+}} + 7424 >> 8) hi(%{{[a-z0-9]+}} + 7424 >> 8)
// DIS9-NEXT: 11: SET_SH_REG COMPUTE_PGM_RSRC1(0x212) = 0x00af0040 0x00000088
// DIS9-NEXT: 15: SET_SH_REG COMPUTE_PGM_RSRC3(0x22d) = 0x00000000
// DIS9-NEXT: 18: SET_SH_REG COMPUTE_TMPRING_SIZE(0x218) = 0x00000000
// DIS9-NEXT: 21: SET_SH_REG COMPUTE_DISPATCH_SCRATCH_BASE_LO(0x210) = 0x00000000 0x00000000
// DIS9-NEXT: 25: SET_SH_REG COMPUTE_RESTART_X(0x21b) = 0x00000000 0x00000000 0x00000000
// DIS9-NEXT: 30: SET_SH_REG COMPUTE_USER_DATA_0(0x240) = lo(%{{[a-z0-9]+}} + 12) hi(%{{[a-z0-9]+}} + 12) lo(%{{[a-z0-9]+}}) hi(%{{[a-z0-9]+}})
// DIS9-NEXT: 36: SET_SH_REG COMPUTE_RESOURCE_LIMITS(0x215) = 0x00000000
// DIS9-NEXT: 39: SET_SH_REG COMPUTE_START_X(0x204) = 0x00000000 0x00000000 0x00000000 0x00000010 0x00000001 0x00000001 0x00000000 0x00000000
// DIS9-NEXT: 49: DISPATCH_DIRECT x=0x00000004 y=0x00000001 z=0x00000001 initiator=0x00000005
// DIS9-NEXT: 54: EVENT_WRITE type=7 (CS_PARTIAL_FLUSH) index=4
hcq.schedule @dispatch_packet(%x: !hcq.buffer<64xf32, AMD:0>, %s: i32) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.launch @scale(%x : !hcq.buffer<64xf32, AMD:0>) vars(%s : i32) global [4, 1, 1] local [16, 1, 1]
  }
}

// Tests that a kernel's LDS lands in RSRC2 (4096 bytes: 8 granules << 15).
// GFX11-LABEL: hcq.schedule @lds(
// GFX11-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<1xf32, AMD:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<1024xf32, AMD:0>) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// GFX11-NEXT: %[[V0:[a-z0-9]+]] = hcq.program @reduce : !hcq.buffer<16384xi8, AMD:0>
// GFX11-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// GFX11-NEXT: %[[V1:[a-z0-9]+]] = hcq.cmds kernargs i32 [lo(%[[ARG0]]), hi(%[[ARG0]]), lo(%[[ARG1]]), hi(%[[ARG1]])] : !hcq.buffer<1xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>
// GFX11-NEXT: hcq.cmds cmdbuf i32 [0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, lo(%[[V0]] + 7936 >> 8), hi(%[[V0]] + 7936 >> 8), 0xc0027600, 0x00000212, 0xe0bf0001, 0x0004009e, 0xc0017600, 0x00000228, 0x00000030, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, lo(%[[V1]]), hi(%[[V1]]), 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000400, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000001, 0x00000001, 0x00000001, 0x00008005, 0xc0004600, 0x00000407] : !hcq.buffer<16384xi8, AMD:0>, !hcq.linear
// GFX11-NEXT: }
// GFX11-NEXT: }
// GFX9-LABEL: hcq.schedule @lds(
// GFX9-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<1xf32, AMD:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<1024xf32, AMD:0>) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// GFX9-NEXT: %[[V0:[a-z0-9]+]] = hcq.program @reduce : !hcq.buffer<16384xi8, AMD:0>
// GFX9-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// GFX9-NEXT: %[[V1:[a-z0-9]+]] = hcq.cmds kernargs i32 [lo(%[[ARG0]]), hi(%[[ARG0]]), lo(%[[ARG1]]), hi(%[[ARG1]])] : !hcq.buffer<1xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>
// GFX9-NEXT: hcq.cmds cmdbuf i32 [0xc0055800, 0x08400000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x0000000a, 0xc0027600, 0x0000020c, lo(%[[V0]] + 7680 >> 8), hi(%[[V0]] + 7680 >> 8), 0xc0027600, 0x00000212, 0x00af0042, 0x00040084, 0xc0017600, 0x0000022d, 0x00000004, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, lo(%[[V1]]), hi(%[[V1]]), 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000400, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000001, 0x00000001, 0x00000001, 0x00000005, 0xc0004600, 0x00000407] : !hcq.buffer<16384xi8, AMD:0>, !hcq.linear
// GFX9-NEXT: }
// GFX9-NEXT: }
// DIS11-LABEL: // hcq.schedule @lds
// DIS11-NEXT: // submit on AMD:0 queue COMPUTE:0, kernargs %{{[a-z0-9]+}}, 4 words
// DIS11-NEXT: 0: lo(%{{[a-z0-9]+}})
// DIS11-NEXT: 1: hi(%{{[a-z0-9]+}})
// DIS11-NEXT: 2: lo(%{{[a-z0-9]+}})
// DIS11-NEXT: 3: hi(%{{[a-z0-9]+}})
// DIS11-NEXT: // submit on AMD:0 queue COMPUTE:0, cmdbuf, 55 words
// DIS11-NEXT: 0: ACQUIRE_MEM size=0xffffffffffffffff base=0x0000000000000000 poll=0x00000000 gcr_cntl=0x000003f0
// DIS11-NEXT: 8: SET_SH_REG COMPUTE_PGM_LO(0x20c) = lo(%{{[a-z0-9]+}} + 7936 >> 8) hi(%{{[a-z0-9]+}} + 7936 >> 8)
// DIS11-NEXT: 12: SET_SH_REG COMPUTE_PGM_RSRC1(0x212) = 0xe0bf0001 0x0004009e
// DIS11-NEXT: 16: SET_SH_REG COMPUTE_PGM_RSRC3(0x228) = 0x00000030
// DIS11-NEXT: 19: SET_SH_REG COMPUTE_TMPRING_SIZE(0x218) = 0x00000000
// DIS11-NEXT: 22: SET_SH_REG COMPUTE_DISPATCH_SCRATCH_BASE_LO(0x210) = 0x00000000 0x00000000
// DIS11-NEXT: 26: SET_SH_REG COMPUTE_RESTART_X(0x21b) = 0x00000000 0x00000000 0x00000000
// DIS11-NEXT: 31: SET_SH_REG COMPUTE_USER_DATA_0(0x240) = lo(%{{[a-z0-9]+}}) hi(%{{[a-z0-9]+}})
// DIS11-NEXT: 35: SET_SH_REG COMPUTE_RESOURCE_LIMITS(0x215) = 0x00000000
// DIS11-NEXT: 38: SET_SH_REG COMPUTE_START_X(0x204) = 0x00000000 0x00000000 0x00000000 0x00000400 0x00000001 0x00000001 0x00000000 0x00000000
// DIS11-NEXT: 48: DISPATCH_DIRECT x=0x00000001 y=0x00000001 z=0x00000001 initiator=0x00008005
// DIS11-NEXT: 53: EVENT_WRITE type=7 (CS_PARTIAL_FLUSH) index=4
// DIS9-LABEL: // hcq.schedule @lds
// DIS9-NEXT: // submit on AMD:0 queue COMPUTE:0, kernargs %{{[a-z0-9]+}}, 4 words
// DIS9-NEXT: 0: lo(%{{[a-z0-9]+}})
// DIS9-NEXT: 1: hi(%{{[a-z0-9]+}})
// DIS9-NEXT: 2: lo(%{{[a-z0-9]+}})
// DIS9-NEXT: 3: hi(%{{[a-z0-9]+}})
// DIS9-NEXT: // submit on AMD:0 queue COMPUTE:0, cmdbuf, 54 words
// DIS9-NEXT: 0: ACQUIRE_MEM coher_cntl=0x08400000 size=0xffffffffffffffff base=0x0000000000000000 poll=0x0000000a
// DIS9-NEXT: 7: SET_SH_REG COMPUTE_PGM_LO(0x20c) = lo(%{{[a-z0-9]+}} + 7680 >> 8) hi(%{{[a-z0-9]+}} + 7680 >> 8)
// DIS9-NEXT: 11: SET_SH_REG COMPUTE_PGM_RSRC1(0x212) = 0x00af0042 0x00040084
// DIS9-NEXT: 15: SET_SH_REG COMPUTE_PGM_RSRC3(0x22d) = 0x00000004
// DIS9-NEXT: 18: SET_SH_REG COMPUTE_TMPRING_SIZE(0x218) = 0x00000000
// DIS9-NEXT: 21: SET_SH_REG COMPUTE_DISPATCH_SCRATCH_BASE_LO(0x210) = 0x00000000 0x00000000
// DIS9-NEXT: 25: SET_SH_REG COMPUTE_RESTART_X(0x21b) = 0x00000000 0x00000000 0x00000000
// DIS9-NEXT: 30: SET_SH_REG COMPUTE_USER_DATA_0(0x240) = lo(%{{[a-z0-9]+}}) hi(%{{[a-z0-9]+}})
// DIS9-NEXT: 34: SET_SH_REG COMPUTE_RESOURCE_LIMITS(0x215) = 0x00000000
// DIS9-NEXT: 37: SET_SH_REG COMPUTE_START_X(0x204) = 0x00000000 0x00000000 0x00000000 0x00000400 0x00000001 0x00000001 0x00000000 0x00000000
// DIS9-NEXT: 47: DISPATCH_DIRECT x=0x00000001 y=0x00000001 z=0x00000001 initiator=0x00000005
// DIS9-NEXT: 52: EVENT_WRITE type=7 (CS_PARTIAL_FLUSH) index=4
hcq.schedule @lds(%o: !hcq.buffer<1xf32, AMD:0>, %i: !hcq.buffer<1024xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.launch @reduce(%o, %i : !hcq.buffer<1xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>) global [1, 1, 1] local [1024, 1, 1]
  }
}

// Tests that copies split at the maximum copy size (one packet on gfx11, three
// of 0x3fff00 bytes on gfx942), with offsets and views.
// GFX11-LABEL: hcq.schedule @copies(
// GFX11-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<2500000xf32, AMD:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<2500000xf32, AMD:0>) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// GFX11-NEXT: %[[V0:[a-z0-9]+]] = hcq.view %[[ARG1]][16] : !hcq.buffer<2500000xf32, AMD:0> -> !hcq.buffer<8xf32, AMD:0>
// GFX11-NEXT: hcq.submit on AMD:0 queue COPY:0 {
// GFX11-NEXT: hcq.cmds cmdbuf i32 [0x00000001, 0x0098967f, 0x00000000, lo(%[[ARG0]]), hi(%[[ARG0]]), lo(%[[ARG1]]), hi(%[[ARG1]]), 0x00000001, 0x00000007, 0x00000000, lo(%[[ARG0]] + 8), hi(%[[ARG0]] + 8), lo(%[[ARG1]] + 68), hi(%[[ARG1]] + 68)] : !hcq.buffer<2500000xf32, AMD:0>, !hcq.buffer<2500000xf32, AMD:0>
// GFX11-NEXT: }
// GFX11-NEXT: }
// GFX9-LABEL: hcq.schedule @copies(
// GFX9-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<2500000xf32, AMD:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<2500000xf32, AMD:0>) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// GFX9-NEXT: %[[V0:[a-z0-9]+]] = hcq.view %[[ARG1]][16] : !hcq.buffer<2500000xf32, AMD:0> -> !hcq.buffer<8xf32, AMD:0>
// GFX9-NEXT: hcq.submit on AMD:0 queue COPY:0 {
// GFX9-NEXT: hcq.cmds cmdbuf i32 [0x00000001, 0x003ffeff, 0x00000000, lo(%[[ARG0]]), hi(%[[ARG0]]), lo(%[[ARG1]]), hi(%[[ARG1]]), 0x00000001, 0x003ffeff, 0x00000000, lo(%[[ARG0]] + 4194048), hi(%[[ARG0]] + 4194048), lo(%[[ARG1]] + 4194048), hi(%[[ARG1]] + 4194048), 0x00000001, 0x0018987f, 0x00000000, lo(%[[ARG0]] + 8388096), hi(%[[ARG0]] + 8388096), lo(%[[ARG1]] + 8388096), hi(%[[ARG1]] + 8388096), 0x00000001, 0x00000007, 0x00000000, lo(%[[ARG0]] + 8), hi(%[[ARG0]] + 8), lo(%[[ARG1]] + 68), hi(%[[ARG1]] + 68)] : !hcq.buffer<2500000xf32, AMD:0>, !hcq.buffer<2500000xf32, AMD:0>
// GFX9-NEXT: }
// GFX9-NEXT: }
// DIS11-LABEL: // hcq.schedule @copies
// DIS11-NEXT: // submit on AMD:0 queue COPY:0, cmdbuf, 14 words
// DIS11-NEXT: 0: COPY_LINEAR bytes=10000000 parameter=0x00000000 src={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} dst={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})}
// DIS11-NEXT: 7: COPY_LINEAR bytes=8 parameter=0x00000000 src={lo(%{{[a-z0-9]+}} + 8), hi(%{{[a-z0-9]+}} + 8)} dst={lo(%{{[a-z0-9]+}} + 68), hi(%{{[a-z0-9]+}} + 68)}
// DIS9-LABEL: // hcq.schedule @copies
// DIS9-NEXT: // submit on AMD:0 queue COPY:0, cmdbuf, 28 words
// DIS9-NEXT: 0: COPY_LINEAR bytes=4194048 parameter=0x00000000 src={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} dst={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})}
// DIS9-NEXT: 7: COPY_LINEAR bytes=4194048 parameter=0x00000000 src={lo(%{{[a-z0-9]+}} + 4194048), hi(%{{[a-z0-9]+}} + 4194048)} dst={lo(%{{[a-z0-9]+}} + 4194048), hi(%{{[a-z0-9]+}} + 4194048)}
// DIS9-NEXT: 14: COPY_LINEAR bytes=1611904 parameter=0x00000000 src={lo(%{{[a-z0-9]+}} + 8388096), hi(%{{[a-z0-9]+}} + 8388096)} dst={lo(%{{[a-z0-9]+}} + 8388096), hi(%{{[a-z0-9]+}} + 8388096)}
// DIS9-NEXT: 21: COPY_LINEAR bytes=8 parameter=0x00000000 src={lo(%{{[a-z0-9]+}} + 8), hi(%{{[a-z0-9]+}} + 8)} dst={lo(%{{[a-z0-9]+}} + 68), hi(%{{[a-z0-9]+}} + 68)}
hcq.schedule @copies(%src: !hcq.buffer<2500000xf32, AMD:0>, %dst: !hcq.buffer<2500000xf32, AMD:0>) {
  %v = hcq.view %dst[16] : !hcq.buffer<2500000xf32, AMD:0> -> !hcq.buffer<8xf32, AMD:0>
  hcq.submit on AMD:0 queue COPY:0 {
    hcq.copy %dst[0, 10000000], %src[0, 10000000] : !hcq.buffer<2500000xf32, AMD:0>, !hcq.buffer<2500000xf32, AMD:0>
    hcq.copy %v[4, 8], %src[8, 8] : !hcq.buffer<8xf32, AMD:0>, !hcq.buffer<2500000xf32, AMD:0>
  }
}

// Tests that gfx11 copies split at 0x3fffff00 bytes (checked for gfx11 only:
// on gfx942 this is 287 packets).
// GFX11-LABEL: hcq.schedule @copies_large(
// GFX11-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<300000000xf32, AMD:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<300000000xf32, AMD:0>) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// GFX11-NEXT: hcq.submit on AMD:0 queue COPY:0 {
// GFX11-NEXT: hcq.cmds cmdbuf i32 [0x00000001, 0x3ffffeff, 0x00000000, lo(%[[ARG0]]), hi(%[[ARG0]]), lo(%[[ARG1]]), hi(%[[ARG1]]), 0x00000001, 0x07868cff, 0x00000000, lo(%[[ARG0]] + 1073741568), hi(%[[ARG0]] + 1073741568), lo(%[[ARG1]] + 1073741568), hi(%[[ARG1]] + 1073741568)] : !hcq.buffer<300000000xf32, AMD:0>, !hcq.buffer<300000000xf32, AMD:0>
// GFX11-NEXT: }
// GFX11-NEXT: }
// DIS11-LABEL: // hcq.schedule @copies_large
// DIS11-NEXT: // submit on AMD:0 queue COPY:0, cmdbuf, 14 words
// DIS11-NEXT: 0: COPY_LINEAR bytes=1073741568 parameter=0x00000000 src={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} dst={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})}
// DIS11-NEXT: 7: COPY_LINEAR bytes=126258432 parameter=0x00000000 src={lo(%{{[a-z0-9]+}} + 1073741568), hi(%{{[a-z0-9]+}} + 1073741568)} dst={lo(%{{[a-z0-9]+}} + 1073741568), hi(%{{[a-z0-9]+}} + 1073741568)}
hcq.schedule @copies_large(%src: !hcq.buffer<300000000xf32, AMD:0>, %dst: !hcq.buffer<300000000xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COPY:0 {
    hcq.copy %dst[0, 1200000000], %src[0, 1200000000] : !hcq.buffer<300000000xf32, AMD:0>, !hcq.buffer<300000000xf32, AMD:0>
  }
}

// Tests that a copy out of a program (VRAM the host wrote through the BAR)
// is preceded by the SDMA HDP flush, once per submit, and no other copy is
// (docs/amd-facts.md#hdp-flush-on-copy-queues).
// GFX11-LABEL: hcq.schedule @copy_program(
// GFX11: hcq.cmds cmdbuf i32 [0x00000001, 0x0000003f, 0x00000000, lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}}), lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}}), 0x34000008, 0x0000389c, 0x00003898, 0xffffffff, 0xffffffff, 0x0fff000a, 0x00000001, 0x0000003f, 0x00000000, lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}}), lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}}), 0x00000001, 0x0000003f, 0x00000000, lo(%{{[a-z0-9]+}} + 64), hi(%{{[a-z0-9]+}} + 64), lo(%{{[a-z0-9]+}} + 64), hi(%{{[a-z0-9]+}} + 64)]
// DIS11-LABEL: // hcq.schedule @copy_program
// DIS11-NEXT: // submit on AMD:0 queue COPY:0, cmdbuf, 27 words
// DIS11-NEXT: 0: COPY_LINEAR bytes=64
// DIS11-NEXT: 7: POLL_REGMEM reg hdp_flush function=3 reg=0x00000e26 reg_done=0x00000e27 value=0xffffffff mask=0xffffffff interval=10 retry=0xfff
// DIS11-NEXT: 13: COPY_LINEAR bytes=64
// DIS11-NEXT: 20: COPY_LINEAR bytes=64
// DIS9-LABEL: // hcq.schedule @copy_program
// DIS9-NEXT: // submit on AMD:0 queue COPY:0, cmdbuf, 27 words
// DIS9-NEXT: 0: COPY_LINEAR bytes=64
// DIS9-NEXT: 7: POLL_REGMEM reg hdp_flush function=3 reg=0x00000e26 reg_done=0x00000e27 value=0xffffffff mask=0xffffffff interval=10 retry=0xfff
// DIS9-NEXT: 13: COPY_LINEAR bytes=64
// DIS9-NEXT: 20: COPY_LINEAR bytes=64
hcq.schedule @copy_program(%a: !hcq.buffer<64xf32, AMD:0>, %b: !hcq.buffer<64xf32, AMD:0>) {
  %p = hcq.program @vadd : !hcq.buffer<256xi8, AMD:0>
  hcq.submit on AMD:0 queue COPY:0 {
    hcq.copy %a[0, 64], %b[0, 64] : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>
    hcq.copy %b[0, 64], %p[0, 64] : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<256xi8, AMD:0>
    hcq.copy %b[64, 64], %p[64, 64] : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<256xi8, AMD:0>
  }
}

// Tests that lanes get their own words: lane 0 waits on AMD:0's signal,
// lane 1 on the AMD:1 sentinel; the store goes to each lane's own signal.
// GFX11-LABEL: hcq.schedule @lanes(
// GFX11-SAME: ) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// GFX11-NEXT: %[[V0:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: %[[V1:[a-z0-9]+]] = hcq.placeholder sentinel_signal device volatile : !hcq.buffer<1xi64, AMD:1>
// GFX11-NEXT: %[[V2:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// GFX11-NEXT: hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
// GFX11-NEXT: hcq.cmds cmdbuf i32 [0xc0053c00, 0x00000015, lo([%[[V0]], %[[V1]]]), hi([%[[V0]], %[[V1]]]), 0x00000001, 0xffffffff, 0x00000004, 0xc0064900, 0x0070f514, 0x20000000, lo(%[[V2]]), hi(%[[V2]]), 0x00000002, 0x00000000, 0x00000000] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// GFX11-NEXT: }
// GFX11-NEXT: }
// GFX9-LABEL: hcq.schedule @lanes(
// GFX9-SAME: ) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// GFX9-NEXT: %[[V0:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: %[[V1:[a-z0-9]+]] = hcq.placeholder sentinel_signal device volatile : !hcq.buffer<1xi64, AMD:1>
// GFX9-NEXT: %[[V2:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// GFX9-NEXT: hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
// GFX9-NEXT: hcq.cmds cmdbuf i32 [0xc0053c00, 0x00000015, lo([%[[V0]], %[[V1]]]), hi([%[[V0]], %[[V1]]]), 0x00000001, 0xffffffff, 0x00000004, 0xc0055800, 0x28c40000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x0000000a, 0xc0064900, 0x00088514, 0x20000000, lo(%[[V2]]), hi(%[[V2]]), 0x00000002, 0x00000000, 0x00000000] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// GFX9-NEXT: }
// GFX9-NEXT: }
// DIS11-LABEL: // hcq.schedule @lanes
// DIS11-NEXT: // submit on AMD:0, AMD:1 queue COMPUTE:0, cmdbuf, 15 words
// DIS11-NEXT: 0: WAIT_REG_MEM mem function=5 operation=0 addr={lo([%{{[a-z0-9]+}}, %{{[a-z0-9]+}}]), hi([%{{[a-z0-9]+}}, %{{[a-z0-9]+}}])} ref=0x00000001 mask=0xffffffff poll=0x00000004
// DIS11-NEXT: 7: RELEASE_MEM event=0x14 index=5 cache=0x0070f000 data_sel=1 int_sel=0 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data=0x0000000000000002 ctxid=0x00000000
// DIS9-LABEL: // hcq.schedule @lanes
// DIS9-NEXT: // submit on AMD:0, AMD:1 queue COMPUTE:0, cmdbuf, 22 words
// DIS9-NEXT: 0: WAIT_REG_MEM mem function=5 operation=0 addr={lo([%{{[a-z0-9]+}}, %{{[a-z0-9]+}}]), hi([%{{[a-z0-9]+}}, %{{[a-z0-9]+}}])} ref=0x00000001 mask=0xffffffff poll=0x00000004
// DIS9-NEXT: 7: ACQUIRE_MEM coher_cntl=0x28c40000 size=0xffffffffffffffff base=0x0000000000000000 poll=0x0000000a
// DIS9-NEXT: 14: RELEASE_MEM event=0x14 index=5 cache=0x00088000 data_sel=1 int_sel=0 addr={lo(%{{[a-z0-9]+}}), hi(%{{[a-z0-9]+}})} data=0x0000000000000002 ctxid=0x00000000
hcq.schedule @lanes() {
  %s0 = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
  %sent = hcq.placeholder sentinel_signal device volatile : !hcq.buffer<1xi64, AMD:1>
  %both = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
  hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
    hcq.wait %s0, %sent >= 1 : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>
    hcq.store %both = 2 : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
  }
}

// Tests that a builtin copy kernel on an AMD queue (a copy on AMD without a
// copy queue) runs the target's builtin copy code object: the amd kernel
// @hcq_copy_<target> hcq-materialize-builtins made at the module's start, its program is
// dispatched, and the element size (4 bytes for f32) is the third kernel
// argument, as on the CPU device.
// RUN: cat %t.k11 %s | hcq-opt --hcq-attach-targets=amd=gfx1100 --hcq-materialize-builtins --hcq-encode | FileCheck %s --check-prefix=KCOPY11
// RUN: cat %t.k9 %s | hcq-opt --hcq-attach-targets=amd=gfx942 --hcq-materialize-builtins --hcq-encode | FileCheck %s --check-prefix=KCOPY9
// RUN: cat %t.k11 %s | hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode --hcq-print-packets -o /dev/null | FileCheck %s --check-prefix=KCOPYDIS
// KCOPY11: hcq.kernel @hcq_copy_gfx1100 amd (write i8, read i8) symbol "hcq_copy" code_object "\7FELF
// KCOPY11-NOT: hcq.kernel @hcq_copy_gfx1100
// KCOPY11-LABEL: hcq.schedule @kernel_copy
// KCOPY11: %[[P:.*]] = hcq.program @hcq_copy_gfx1100 : !hcq.buffer<{{[0-9]+}}xi8, AMD:0>
// The two launches' arguments are one stream, a segment each; the second
// starts 128 bytes in, where the command buffer points its second dispatch.
// KCOPY11: %[[K:.*]] = hcq.cmds kernargs i32 [lo(%a), hi(%a), lo(%b), hi(%b), 0x00000004] [lo(%b), hi(%b), lo(%a), hi(%a), 0x00000004]
// KCOPY11-NOT: hcq.cmds kernargs
// KCOPY11: hcq.cmds cmdbuf i32 [{{.*}}lo(%[[P]] + {{[0-9]+}} >> 8){{.*}}0x00000240, lo(%[[K]]), hi(%[[K]]),{{.*}}0x00000240, lo(%[[K]] + 128), hi(%[[K]] + 128),
// KCOPY9: hcq.kernel @hcq_copy_gfx942 amd (write i8, read i8) symbol "hcq_copy" code_object "\7FELF
// KCOPY9-LABEL: hcq.schedule @kernel_copy
// KCOPY9: hcq.program @hcq_copy_gfx942
// KCOPYDIS-LABEL: // hcq.schedule @kernel_copy
// KCOPYDIS-NEXT: // submit on AMD:0 queue COMPUTE:0, kernargs %{{[a-z0-9]+}}, 10 words
// KCOPYDIS-NEXT: // segment at byte 0
// KCOPYDIS-NEXT:    0: lo(%a)
// KCOPYDIS:      // segment at byte 128
// KCOPYDIS-NEXT:    5: lo(%b)
// KCOPYDIS: DISPATCH_DIRECT x=0x00000040 y=0x00000001 z=0x00000001
// KCOPYDIS: DISPATCH_DIRECT x=0x00000040 y=0x00000001 z=0x00000001
hcq.kernel @hcq_copy_f32_f32 builtin (write f32, read f32) symbol "copy"
hcq.schedule @kernel_copy(%a: !hcq.buffer<64xf32, AMD:0>, %b: !hcq.buffer<64xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.launch @hcq_copy_f32_f32(%a, %b : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) global [64, 1, 1] local [1, 1, 1]
    hcq.launch @hcq_copy_f32_f32(%b, %a : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) global [64, 1, 1] local [1, 1, 1]
  }
}


// Tests that one pass encodes every device kind, each submit by the
// schedule's target for its kind: a CPU submit becomes CPU queue entries
// (64-bit words: the signal host function, the signal, the value).
// GFX11-LABEL: hcq.schedule @cpu_by_its_target(
// GFX11-SAME: ) targets [#hcq.amd_target<chip = "gfx1100">, #hcq.cpu_target] {
// GFX11: %[[V0:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, CPU:0>
// GFX11: hcq.submit on CPU:0 queue COMPUTE:0 {
// GFX11-NEXT: hcq.cmds cmdbuf i64 [addr(%{{.*}}), addr(%[[V0]]), 0x0000000000000001,
// GFX9-LABEL: hcq.schedule @cpu_by_its_target(
// GFX9-SAME: ) targets [#hcq.amd_target<chip = "gfx942">, #hcq.cpu_target] {
// DIS11-LABEL: // hcq.schedule @cpu_by_its_target
// DIS9-LABEL: // hcq.schedule @cpu_by_its_target
hcq.schedule @cpu_by_its_target() {
  %s = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, CPU:0>
  hcq.submit on CPU:0 queue COMPUTE:0 {
    hcq.store %s = 1 : !hcq.buffer<1xi64, CPU:0>
  }
}

// Tests that a command buffer longer than the target's indirect_buffer_dwords
// (here 64) gets NOPs where a packet would straddle a multiple of it, so that
// hcq-lower-submit can push it as INDIRECT_BUFFERs of 64 dwords each: a
// header-only NOP_PAD before the tenth wait (at 63), a 6-dword NOP before
// the last wait (at 122).
// DIS11-LABEL: // hcq.schedule @split
// DIS11-NEXT: // submit on AMD:0 queue COMPUTE:0, cmdbuf, 135 words
// DIS11: 56: WAIT_REG_MEM mem function=5 operation=0 {{.*}} ref=0x00000008
// DIS11-NEXT: 63: NOP_PAD
// DIS11-NEXT: 64: WAIT_REG_MEM mem function=5 operation=0 {{.*}} ref=0x00000009
// DIS11: 99: WAIT_REG_MEM mem function=5 operation=0 {{.*}} ref=0x0000000e
// DIS11-NEXT: 106: RELEASE_MEM {{.*}} data_sel=3
// DIS11-NEXT: 114: RELEASE_MEM {{.*}} data_sel=3
// DIS11-NEXT: 122: NOP dwords=5
// DIS11-NEXT: 128: WAIT_REG_MEM mem function=5 operation=0 {{.*}} ref=0x0000000f
// DIS11-NOT: NOP
hcq.schedule @split() targets [#hcq.amd_target<chip = "gfx1100", indirect_buffer_dwords = 64>] {
  %sig = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
  %ts = hcq.placeholder timestamp slot 2 volatile : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.wait %sig >= 0 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 1 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 2 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 3 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 4 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 5 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 6 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 7 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 8 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 9 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 10 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 11 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 12 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 13 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 14 : !hcq.buffer<1xi64, AMD:0>
    hcq.timestamp %ts : !hcq.buffer<1xi64, AMD:0>
    hcq.timestamp %ts : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %sig >= 15 : !hcq.buffer<1xi64, AMD:0>
  }
}

// Tests that a dispatch crossing a multiple of indirect_buffer_dwords (here
// 64) gets its NOP before the packet that would straddle it, as every other
// packet does: the second dispatch's ACQUIRE_MEM ends at 63, so a
// header-only NOP_PAD pads 63 and its SET_SH_REG of the program address
// starts the next 64 dwords.
// DIS11-LABEL: // hcq.schedule @split_dispatch
// DIS11: // submit on AMD:0 queue COMPUTE:0, cmdbuf, 111 words
// DIS11: 53: EVENT_WRITE type=7 (CS_PARTIAL_FLUSH) index=4
// DIS11-NEXT: 55: ACQUIRE_MEM
// DIS11-NEXT: 63: NOP_PAD
// DIS11-NEXT: 64: SET_SH_REG COMPUTE_PGM_LO(0x20c)
// DIS11: 104: DISPATCH_DIRECT
// DIS11-NEXT: 109: EVENT_WRITE type=7 (CS_PARTIAL_FLUSH) index=4
// DIS11-NOT: NOP
hcq.schedule @split_dispatch(%a: !hcq.buffer<64xf32, AMD:0>, %n: i32) targets [#hcq.amd_target<chip = "gfx1100", indirect_buffer_dwords = 64>] {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.launch @vadd_gfx1100(%a, %a, %a : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) vars(%n : i32) global [2, 1, 1] local [32, 1, 1]
    hcq.launch @vadd_gfx1100(%a, %a, %a : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) vars(%n : i32) global [2, 1, 1] local [32, 1, 1]
  }
}

// Tests that each launch's hidden kernel arguments are its own grid's,
// launches of one kernel with other grids between them included: the
// workgroup counts (hidden_block_count_x/y/z) at byte 8 and the workgroup
// sizes (hidden_group_size_x/y/z, 16 bits each) at byte 20.
// DIS11-LABEL: // hcq.schedule @hidden_grids
// DIS11: // submit on AMD:0 queue COMPUTE:0, kernargs %{{[a-z0-9]+}}, 198 words
// DIS11-NEXT: // segment at byte 0
// DIS11-NEXT: 0: lo(
// DIS11-NEXT: 1: hi(
// DIS11-NEXT: 2: 0x00000003
// DIS11-NEXT: 3: 0x00000002
// DIS11-NEXT: 4: 0x00000001
// DIS11-NEXT: 5: 0x00040008
// DIS11-NEXT: 6: 0x00000002
// DIS11: // segment at byte 384
// DIS11-NEXT: 66: lo(
// DIS11-NEXT: 67: hi(
// DIS11-NEXT: 68: 0x00000005
// DIS11-NEXT: 69: 0x00000001
// DIS11-NEXT: 70: 0x00000001
// DIS11-NEXT: 71: 0x00010010
// DIS11-NEXT: 72: 0x00000001
// DIS11: // segment at byte 768
// DIS11-NEXT: 132: lo(
// DIS11-NEXT: 133: hi(
// DIS11-NEXT: 134: 0x00000003
// DIS11-NEXT: 135: 0x00000002
// DIS11-NEXT: 136: 0x00000001
// DIS11-NEXT: 137: 0x00040008
// DIS11-NEXT: 138: 0x00000002
hcq.schedule @hidden_grids(%out: !hcq.buffer<6xi32, AMD:0>) targets [#hcq.amd_target<chip = "gfx1100">] {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.launch @shape_gfx1100(%out : !hcq.buffer<6xi32, AMD:0>) global [3, 2, 1] local [8, 4, 2]
    hcq.launch @shape_gfx1100(%out : !hcq.buffer<6xi32, AMD:0>) global [5, 1, 1] local [16, 1, 1]
    hcq.launch @shape_gfx1100(%out : !hcq.buffer<6xi32, AMD:0>) global [3, 2, 1] local [8, 4, 2]
  }
}
