//===- Passes.td - HCQ passes ------------------------------*- tablegen -*-===//

#ifndef HCQ_TRANSFORMS_PASSES_TD
#define HCQ_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def HCQStageCopies : Pass<"hcq-stage-copies", "::mlir::ModuleOp"> {
  let summary = "Stage copies through pinned host memory, turn copies on "
                "queue-less devices into copy kernels (seed 1.1, 1.2)";
  let description = [{
    Rewrites the `hcq.copy` ops of every schedule:

    1. *Staging* (seed 1.1). A copy between a non-CPU HCQ device (AMD) and a
       device outside the HCQ set goes through the pinned CPU staging buffer
       (`hcq.placeholder staging slot 0` on `CPU:0`, `staging-size` bytes):
       in chunks of `staging-size / staging-slots` bytes (rounded down to
       whole elements), chunk `i` in slot `i % staging-slots`, each chunk
       `src -> staging` then `staging -> dst`. Both buffers must have one
       element size. A source on N > 1 devices is staged lane by lane in
       `hcq.placeholder staging slot N-1` on `[CPU:0, ..., CPU:N-1]`; a
       broadcast (a source on one device) is staged on `CPU:0` and
       broadcast from there. So is a broadcast from a non-CPU device into
       lanes of which one is on a CPU device (by bytes when the element
       sizes differ): it runs on the destination's devices, and a CPU queue
       cannot be expected to read GPU memory.
    2. *Kernel copies* (seed 1.2). A copy that would be enqueued on a
       device kind without a copy queue (see `copy-queues`) becomes an
       `hcq.launch` of the builtin `copy` kernel, one thread per element,
       on views of the two ranges (of bytes, when the two sides differ in
       element size or the ranges are not whole elements). The kernel
       `@hcq_copy_<dst>_<src>` is declared in the module once.

    The enqueue device is chosen as in `hcq-batch-deps`.
  }];
  let options = [
    Option<"stagingSize", "staging-size", "int64_t", "134217728",
           "Bytes of the pinned CPU staging buffer">,
    Option<"stagingSlots", "staging-slots", "int64_t", "2",
           "Slots the staging buffer is split into; chunks alternate">,
    Option<"devices", "devices", "std::string", "\"AMD,CPU\"",
           "Device kinds with command queues (the seed's HCQ_DEVS)">,
    Option<"copyQueues", "copy-queues", "std::string", "\"AMD,CPU\"",
           "Device kinds that have a copy queue">,
  ];
}

// hcq-batch-deps' options, which hcq-compile-schedules passes on to it.
defvar HCQ_BatchOptions = [
  Option<"batchSize", "batch-size", "int64_t", "32",
         "Submits merged into one before the limit doubles (the seed's "
         "JIT_BATCH_SIZE); 0 means unlimited">,
  Option<"profile", "profile", "bool", "false",
         "Bracket every call with timestamps">,
  Option<"devices", "devices", "std::string", "\"AMD,CPU\"",
         "Device kinds with command queues (the seed's HCQ_DEVS)">,
];

def HCQBatchDeps : Pass<"hcq-batch-deps", "::hcq::ScheduleOp"> {
  let summary = "Batch enqueueable calls into submits with their "
                "dependencies (seed 2)";
  let description = [{
    Consecutive enqueueable calls (`hcq.launch`, `hcq.copy` whose buffers
    are all on HCQ devices) form a batch; any other call (`hcq.host_call`,
    a call touching another device) ends it and stays in place. Per batch:

    * each call goes on a (devices, queue): kernels on `COMPUTE:0` of the
      first non-CPU buffer's devices, copies on `COPY:0` of the source's
      (the destination's when the source is on CPU and it is not);
    * per lane, a tracker over byte ranges of each buffer gives the earlier
      calls it waits for: read-after-write, write-after-read,
      write-after-write; waits on the same (device, queue) are dropped
      (FIFO) and only the latest per (device, queue, lane) kept. A wait is
      `hcq.wait` on the producer queue's signal for `tag + 1`; lanes with
      no producer wait on the always-satisfied sentinel signal. A producer
      that someone waits on stores `tag + 1` into its queue's signal;
    * the first submit of each (devices, queue) starts with `hcq.barrier`
      and a wait for the device timeline;
    * with `profile`, each call is bracketed by two `hcq.timestamp`s;
    * per device group (devices of one kind): an `hcq.fence` for the
      previous run's epoch, an `hcq.reset` of the group's queue signals,
      and a finalizer submit on `COMPUTE:0` that waits for every buffer's
      last access and stores the timeline, followed by `hcq.finalize`;
    * same-queue submits merge in order; a first submit on a queue closes
      the open groups on that queue with shared devices; a group of
      `batch-size` submits is closed and the limit doubles; with CPU work
      on more than one queue the schedule order is kept.

    Output order per batch: fences, resets, merged submits, finalizers.
  }];
  let options = HCQ_BatchOptions;
}

def HCQMaterializeBuiltins : Pass<"hcq-materialize-builtins",
                                  "::mlir::ModuleOp"> {
  let summary = "Add the target's builtin kernels beside the schedules that "
                "need them";
  let description = [{
    A builtin copy kernel (`hcq.kernel ... builtin ... symbol "copy"`, what
    hcq-stage-copies makes for a copy on a device without a copy queue)
    launched on AMD devices runs the schedule's AMD target's builtin copy
    code object. For every module with such a launch in one of its
    schedules, this adds the amd kernel `@hcq_copy_<chip>` at the module's
    start, once per chip. It runs before the passes that work on one
    schedule each (hcq-encode among them), which must not add symbols beside
    their schedule: MLIR may run them on several schedules at once.
  }];
}

def HCQAttachTargets : Pass<"hcq-attach-targets", "::mlir::ModuleOp"> {
  let summary = "Name what every schedule's submits compile for";
  let description = [{
    Gives every `hcq.schedule` (in nested modules too) that has none its
    `targets`: `targets [#hcq.amd_target<chip = amd>,
    #hcq.cpu_target]`. The passes after it read the targets from the
    schedule (hcq-materialize-builtins, hcq-encode, hcq-lower-submit) and
    from its executable (hcq-print-packets), as upstream's
    rocdl-attach-target gives a `gpu.module` its `#rocdl.target`. A schedule
    that names its targets keeps them. The pass verifies each schedule it
    changes (the op, not its calls, which it does not touch) and tells the
    pass manager nothing else changed, so a big schedule is not verified
    again in full.
  }];
  let dependentDialects = ["::hcq::HCQDialect"];
  let options = [
    Option<"amd", "amd", "std::string", "\"gfx1100\"",
           "AMD GPU generation: gfx1100, gfx1101, gfx1102 (gfx11) or gfx942 "
           "(gfx9)">,
  ];
}

def HCQEncode : Pass<"hcq-encode", "::hcq::ScheduleOp"> {
  let summary = "Encode every submit as its target's command words (seed 3)";
  let description = [{
    Replaces the body of every `hcq.submit` not encoded yet by `hcq.cmds`
    command words: the schedule's target for the submit's device kind (one
    of its `targets`, a TargetAttrInterface) encodes it. A submit whose
    device kind has no target is refused, naming hcq-attach-targets.

    `#hcq.amd_target<chip = ...>`: the body of every `hcq.submit` on AMD
    devices becomes `hcq.cmds` command words for its queue, for the chip:

    * `COMPUTE:0`, PM4 type-3 packets: `hcq.wait` is WAIT_REG_MEM on memory
      (`>=`); `hcq.barrier` an HDP flush wait and ACQUIRE_MEM; `hcq.store`
      RELEASE_MEM (32-bit data, interrupt after write confirm, cache flush);
      `hcq.timestamp` RELEASE_MEM of the GPU clock; `hcq.launch` the
      dispatch sequence (ACQUIRE_MEM, SET_SH_REG of the program, resources,
      scratch, user SGPRs and workgroup size, DISPATCH_DIRECT, EVENT_WRITE
      CS_PARTIAL_FLUSH) with its kernel arguments in an indirect `kernargs`
      stream. A command buffer longer than the target's
      `indirect_buffer_dwords` gets NOPs where a packet would straddle a
      multiple of it (hcq-lower-submit pushes it as several INDIRECT_BUFFER
      packets).
    * `COPY:0`, SDMA packets: `hcq.copy` is COPY_LINEAR split at the
      target's maximum copy size; `hcq.wait` POLL_REGMEM; `hcq.store` FENCE
      and TRAP; `hcq.timestamp` TIMESTAMP (global); `hcq.barrier` nothing.

    Kernel facts (resources, entry point, kernel-argument size, wave size,
    SGPR layout) come from the kernel's AMDHSA code object. The kernel's
    code is an `hcq.program` value; scratch an `hcq.placeholder scratch`.

    `#hcq.cpu_target`: the body of every `hcq.submit` on CPU devices
    becomes `hcq.cmds` entries of 8 64-bit words: the address of a runtime host function
    (`hcq.placeholder host_function slot <id>`), then its arguments:

    * `hcq.launch`: `launch(kernel, kernargs, x, y, z)`, with the kernel's
      host function (`hcq.program`) and an indirect `kernargs` stream of one
      word per buffer address and bound variable;
    * `hcq.wait`: `wait(signal, value)`; `hcq.store`: `signal(signal,
      value)`; `hcq.timestamp`: `timestamp(slot)`;
    * `hcq.copy` on a copy queue: `copy(dst, src, bytes)`;
    * `hcq.barrier`: nothing (the CPU queue sees host memory).

    The format is in docs/cpu-queue.md.

    Each op (call, wait, store) is erased as soon as its target's encoder
    is done with it, and every 65,536 ops erased the pass calls the
    context's release hook (`HCQDialect::setReleaseFreedMemory`, none
    unless the application sets one): the memory of those ops can go back
    to the system while the submit's words grow (docs/embedding.md). When
    encoding fails, the submit holds what was not encoded yet.
  }];
}

def HCQSeal : Pass<"hcq-seal", "::hcq::ScheduleOp"> {
  let summary = "Pack every submit's words into blobs and patch tables "
                "(seed 4)";
  let description = [{
    Per encoded `hcq.submit`:

    * the words of each stream go into one blob per tag (`cmdbuf`, and
      `kernargs` for all the submit's kernel arguments), each stream padded
      to 128 bytes with `0xbf`; constants bake in, the bytes of every other
      word are `0xbe`. Each tag gets a placeholder of the blob's size rounded
      up to a power of two;
    * words resolvable at link time (addresses of placeholders, programs,
      allocs and indirect streams) become the blobs' patches, an address's
      `lo`/`hi` pair one 64-bit patch;
    * run-time words become `hcq.patch_group`s: input addresses go through
      one inputs table (`hcq.inputs`, a slot per input and lane), and every
      run-time word's byte offset through one offset table, grouped by
      target and value so one loop writes each group; variables and host
      loads get groups of their own;
    * the submit becomes `hcq.enqueue` of its command-buffer placeholder and
      byte size.

    A blob's first stream becomes the blob in place: its words are spread
    out to their padding and its symbols table is rewritten into the patch
    table, so a large command buffer is not copied again.
  }];
}

def HCQLowerSubmit : Pass<"hcq-lower-submit", "::hcq::ScheduleOp"> {
  let summary = "Lower every enqueue to its backend's queue push (seed 5)";
  let description = [{
    Replaces each `hcq.enqueue` by an `hcq.push` onto its device queue:

    * AMD compute: a 16-byte INDIRECT_BUFFER packet (a blob of its own,
      pointing at the command buffer: address patched at link time, size in
      dwords, VALID) is what goes into the ring;
    * AMD copy: the command buffer itself goes into the ring (SDMA has no
      indirect buffers on this path), wrapping with a zeroed tail;
    * CPU: the entries go into the worker's ring; one wake per push.

    The queue's ring, pointers and doorbell are not the executable's: the
    runtime owns one set per (device, queue) for the whole process, as a
    kernel driver does, and refuses at load a push larger than its ring
    (`RuntimeOptions::ringBytes`).
  }];
}

def HCQCompileSchedules : Pass<"hcq-compile-schedules", "::mlir::ModuleOp"> {
  let summary = "Run the per-schedule stages on every schedule, at any "
                "module depth (seed 2-5)";
  let description = [{
    Runs hcq-batch-deps, hcq-encode, hcq-seal and hcq-lower-submit on each
    `hcq.schedule` in the module and in the modules nested in it, however
    deep: a pass manager nested exactly as deep as the input's deepest
    schedule, so MLIR runs the schedules of each module in parallel. A
    schedule inside an op other than `builtin.module` is refused before
    anything runs (no pipeline reaches it). The options are
    hcq-batch-deps'.
  }];
  let options = HCQ_BatchOptions;
}

def HCQBuildExecutable : Pass<"hcq-build-executable", "::mlir::ModuleOp"> {
  let summary = "Fold host bodies into shared submitters; schedules become "
                "executables (seed 6, 7)";
  let description = [{
    Every lowered `hcq.schedule` becomes an `hcq.executable`. Each maximal
    run of host-plan ops (fences, resets, run-time patch groups, pushes,
    finalizers) between the calls only the host can run folds into one
    `hcq.submitter`, called with `hcq.call`: the values the run uses become
    the submitter's arguments, in order of first use, so every run of the
    same shape (in this executable or another) calls one submitter.
    Link-time memory (placeholders, programs, allocs, blobs, inputs tables)
    stays in the executable.
  }];
}

def HCQLink : Pass<"hcq-link", "::mlir::ModuleOp"> {
  let summary = "Link every executable against a deterministic address map "
                "(seed 9, 10)";
  let description = [{
    Gives every placeholder, program and alloc of each `hcq.executable` an
    address, with the runtime's own link (`hcq::runtime::link`), against a
    deterministic map: one bump allocator from `base`, 256-byte aligned,
    host functions at fixed fake addresses. Each op gets its per-lane
    addresses as `hcq.addresses`; each blob is replaced by its linked bytes,
    one blob per lane of a multi-device target, with no patches left. What
    stays to be written per run are the patch groups. Placeholders with one
    (tag, slot, device) share memory; programs are loaded once per device.
  }];
  let options = [
    Option<"base", "base", "uint64_t", "0x100000000",
           "First address of the map">,
  ];
}

def HCQPrintPackets : Pass<"hcq-print-packets", "::mlir::ModuleOp"> {
  let summary = "Print every submit's command words as named packets";
  let description = [{
    Disassembles the `hcq.cmds` of every encoded submit to standard output:
    PM4 on AMD compute queues, SDMA on AMD copy queues, entries on CPU
    queues, and the words of indirect streams. Addresses the link has not
    resolved print as their words (`lo(%3)`). A packet that cannot be
    decoded is an error naming its dword offset. Each schedule's (and
    executable's) `targets` say what the words are for.
  }];
}

#endif // HCQ_TRANSFORMS_PASSES_TD
