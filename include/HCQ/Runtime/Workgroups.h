//===- Workgroups.h - Threads running a launch's workgroups -----*- C++ -*-===//
//
// A launch run by the host (a CPU device's kernel, an AMD kernel's CPU twin
// on the emulated device) spreads its workgroups over the process's cores:
// the queue's own thread runs them, and once a launch proves long enough to
// pay for waking them, so do the helper threads of one pool shared by every
// device and queue of the process (docs/runtime.md, "Workgroups on the
// host's cores"). LLVM-free.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_RUNTIME_WORKGROUPS_H
#define HCQ_RUNTIME_WORKGROUPS_H

namespace hcq::runtime {

/// The most threads one launch is spread over: a bound on what a mistyped
/// setting can start.
constexpr unsigned MAX_WORKGROUP_THREADS = 1024;

/// How many threads at most run one launch's workgroups, counting the
/// queue's own: the environment's `HCQ_WORKGROUP_THREADS` (a positive
/// integer) when it is set, else the CPUs the process may run on.
unsigned getWorkgroupThreads();

/// Sets it for every launch that starts afterwards, process-wide; 0 restores
/// the default above, 1 runs every launch on its queue's thread alone; more
/// than MAX_WORKGROUP_THREADS is MAX_WORKGROUP_THREADS.
void setWorkgroupThreads(unsigned threads);

} // namespace hcq::runtime

#endif // HCQ_RUNTIME_WORKGROUPS_H
