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
       element size.
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

def HCQBatchDeps : Pass<"hcq-batch-deps", "::mlir::ModuleOp"> {
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
  let options = [
    Option<"batchSize", "batch-size", "int64_t", "32",
           "Submits merged into one before the limit doubles (the seed's "
           "JIT_BATCH_SIZE); 0 means unlimited">,
    Option<"profile", "profile", "bool", "false",
           "Bracket every call with timestamps">,
    Option<"devices", "devices", "std::string", "\"AMD,CPU\"",
           "Device kinds with command queues (the seed's HCQ_DEVS)">,
  ];
}

#endif // HCQ_TRANSFORMS_PASSES_TD
