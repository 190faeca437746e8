// The builtin copy kernel on AMD, for copies on an AMD device without a copy
// queue (hcq-stage-copies with 'copy-queues' lacking AMD). The same contract
// as the CPU device's builtin copy (docs/cpu-queue.md): kernel arguments
// (dst, src, element bytes), one workgroup per element, workgroup x copying
// element x. Compiled for every AMD target at build time
// (lib/Target/CMakeLists.txt) and embedded in the target library.
kernel void hcq_copy(global uchar *dst, global const uchar *src, uint bytes) {
  size_t at = (size_t)__builtin_amdgcn_workgroup_id_x() * bytes;
  for (uint b = 0; b < bytes; ++b)
    dst[at + b] = src[at + b];
}
