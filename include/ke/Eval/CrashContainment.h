//===- CrashContainment.h - a kernel's crash or hang as a failure -*- C++ -*-===//
//
// ke-run executes generated code in its own process. A kernel that
// segfaults, aborts on a cf.assert, overflows the stack or hangs must become
// a reported failure naming the stage it was in, not a silent death.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_CRASHCONTAINMENT_H
#define KE_EVAL_CRASHCONTAINMENT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace ke::eval {

/// Installs the handlers (once, before any kernel runs), with an alternate
/// stack so that a stack overflow can still be reported.
void installCrashHandlers();

/// Runs `body`; a fatal signal raised in it, or the alarm after
/// `alarmSeconds` (0: none), ends it and is returned as "crashed (SIGSEGV)",
/// "timed out after N s", ... . State `body` left behind is abandoned.
std::optional<std::string> runContained(llvm::function_ref<void()> body,
                                        unsigned alarmSeconds);

/// Runs `body` in a forked child process, contained there as by
/// runContained, with a buffer of `results.size()` bytes shared with this
/// process; `body` fills it and returns an error message or "". On success
/// the buffer is copied into `results`. Returns the child's failure: its
/// crash ("crashed (SIGSEGV)", as runContained says it, also when the child
/// dies outright) or `body`'s message prefixed with "error: ". For code
/// whose crash cannot be contained in this process: a fault on an OpenMP
/// worker leaves the other workers running the abandoned region, writing
/// into buffers this process frees and reuses.
std::optional<std::string>
runInChildProcess(llvm::MutableArrayRef<char> results, unsigned alarmSeconds,
                  llvm::function_ref<std::string(llvm::MutableArrayRef<char>)>
                      body);

/// Bounds this process's data (heap and private mappings, RLIMIT_DATA) to
/// `megabytes` (0: no bound), remembered for the out-of-memory message.
/// Returns why it could not, or empty. No bound under AddressSanitizer,
/// whose shadow memory alone exceeds any.
std::string setMemoryLimit(unsigned megabytes);

/// The allocation functions generated kernels call (`malloc`,
/// `aligned_alloc` and `free`, bound to these by the JIT), served by the
/// kernel heap (KernelHeap.h): a failure under the memory limit ends
/// runContained with "ran out of memory: an allocation of N MiB failed (the
/// memory limit is L MiB)" instead of the SIGSEGV that the kernel's use of a
/// null pointer would give.
void *getCheckedMallocAddress();
void *getCheckedAlignedAllocAddress();
void *getKernelFreeAddress();

} // namespace ke::eval

#endif // KE_EVAL_CRASHCONTAINMENT_H
