//===- CPURunner.cpp - JIT-compiling and calling a kernel on the host -----===//
//
// The kernel is called through the ExecutionEngine's packed interface: every
// memref argument expands to (allocated, aligned, offset, sizes, strides) and
// the results come back as one struct of such descriptors, which we decode
// with the LLVM struct layout rules. Results are buffers the kernel allocated;
// we copy them out and free them, so a timing loop does not leak. Lowered
// with out-params (destination-passing style), memref results are instead
// trailing arguments: buffers this runner allocates once and passes again.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/CPURunner.h"
#include "ke/Eval/CrashContainment.h"
#include "ke/Eval/KernelHeap.h"
#include "ke/Eval/ProbeRuntime.h"

#include "ke/Eval/PrepareForLowering.h"
#include "ke/Support/DiagnosticCollector.h"

#include "ke/Target/CPUPipeline.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace ke::eval;

#ifndef KE_MLIR_LIB_DIR
#define KE_MLIR_LIB_DIR "/usr/lib/llvm-22/lib"
#endif

namespace {

/// Where the JIT's runtime libraries are: $KE_MLIR_LIB_DIR, else lib/ beside
/// the running executable's bin/ when it holds libomp.so (the release
/// archive), else the LLVM installation ke was built against.
std::string getRuntimeLibraryDirectory() {
  if (const char *directory = std::getenv("KE_MLIR_LIB_DIR"))
    return directory;
  static int anchor;
  std::string executable = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  llvm::SmallString<256> beside(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(executable)));
  llvm::sys::path::append(beside, "lib", "libomp.so");
  if (!executable.empty() && llvm::sys::fs::exists(beside))
    return std::string(llvm::sys::path::parent_path(beside));
  return KE_MLIR_LIB_DIR;
}

/// Byte offset of each field in a struct laid out by LLVM's rules: each
/// field aligned to its natural alignment.
struct StructLayout {
  size_t size = 0;
  size_t alignment = 1;
  size_t add(size_t fieldSize, size_t fieldAlignment) {
    size = (size + fieldAlignment - 1) / fieldAlignment * fieldAlignment;
    size_t offset = size;
    size += fieldSize;
    alignment = std::max(alignment, fieldAlignment);
    return offset;
  }
  size_t finalSize() const {
    return (size + alignment - 1) / alignment * alignment;
  }
};

/// The dummy "allocated" pointer MLIR uses for memrefs of constant globals.
constexpr uintptr_t kGlobalMemrefMarker = 0xdeadbeef;
} // namespace

CPUKernel::~CPUKernel() = default;

/// The default bound: the largest lowered kernel of the bench and of
/// KernelBench has about 5,500 operations; a softmax schedule that unrolled
/// into 14 MB of LLVM IR had hundreds of thousands.
static size_t operationLimit = 200000;

void CPUKernel::setOperationLimit(size_t operations) {
  operationLimit = operations;
}
size_t CPUKernel::getOperationLimit() { return operationLimit; }

llvm::Expected<std::unique_ptr<CPUKernel>>
CPUKernel::compile(func::FuncOp function, const ke::LowerCPUOptions &options,
                   const KernelSignature &signature) {
  MLIRContext *context = function.getContext();
  OwningOpRef<ModuleOp> module;
  func::FuncOp clone = cloneIntoNewModule(function, module);
  clone.setPublic();
  // The lowering replaces the func.func: keep its name, not the op.
  std::string entryName = clone.getSymName().str();
  prepareForLowering(clone);

  {
    ke::DiagnosticCollector diagnostics(context);
    PassManager pm(context, ModuleOp::getOperationName());
    std::string pipelineErrors;
    llvm::raw_string_ostream pipelineErrorStream(pipelineErrors);
    if (failed(ke::buildLowerCPUPipeline(pm, options, pipelineErrorStream)))
      return llvm::createStringError("lower: cannot build ke-lower-cpu: " +
                                     pipelineErrors);
    if (failed(pm.run(*module)))
      return llvm::createStringError("lower: " + diagnostics.str());
  }
  if (operationLimit) {
    size_t operations = 0;
    module->walk([&](Operation *) { ++operations; });
    if (operations > operationLimit)
      return llvm::createStringError(llvm::formatv(
          "lower: the lowered kernel has {0} operations, more than the limit "
          "of {1} (--max-lowered-ops): the schedule unrolls too far to "
          "compile in reasonable time",
          operations, operationLimit));
  }

  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return llvm::createStringError("jit: cannot detect the host: " +
                                   llvm::toString(machineBuilder.takeError()));
  machineBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto targetMachine = machineBuilder->createTargetMachine();
  if (!targetMachine)
    return llvm::createStringError("jit: cannot create the target machine: " +
                                   llvm::toString(targetMachine.takeError()));

  auto transformer = makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0,
                                               targetMachine->get());
  std::string libraryDirectory = getRuntimeLibraryDirectory();
  std::string runtimeLibrary = libraryDirectory + "/libmlir_c_runner_utils.so";
  std::string openMPLibrary = libraryDirectory + "/libomp.so";
  // Without MLIR's runner utilities beside it (the release archive), the
  // kernels' runtime calls resolve to ke-run's own (lib/Runtime/HostRuntime).
  llvm::SmallVector<llvm::StringRef, 2> libraries;
  if (llvm::sys::fs::exists(runtimeLibrary))
    libraries.push_back(runtimeLibrary);
  // Multi-threaded schedules call into the OpenMP runtime.
  if (llvm::sys::fs::exists(openMPLibrary))
    libraries.push_back(openMPLibrary);
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  engineOptions.sharedLibPaths = libraries;
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;

  ke::DiagnosticCollector diagnostics(context);
  auto engine = ExecutionEngine::create(*module, engineOptions,
                                        std::move(*targetMachine));
  if (!engine)
    return llvm::createStringError(
        "jit: " + llvm::toString(engine.takeError()) +
        (diagnostics.str().empty() ? std::string()
                                   : " (" + diagnostics.str() + ")"));
  // Profiling probes (ke-instrument) and allocations call into this
  // process.
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("ke_probe_start")] = {
        llvm::orc::ExecutorAddr::fromPtr(getProbeStartAddress()),
        llvm::JITSymbolFlags::Exported};
    symbols[interner("ke_probe_stop")] = {
        llvm::orc::ExecutorAddr::fromPtr(getProbeStopAddress()),
        llvm::JITSymbolFlags::Exported};
    // Allocations that fail under ke-run's memory limit are reported as
    // such (CrashContainment), not as the SIGSEGV of a null pointer.
    symbols[interner("malloc")] = {
        llvm::orc::ExecutorAddr::fromPtr(getCheckedMallocAddress()),
        llvm::JITSymbolFlags::Exported};
    symbols[interner("aligned_alloc")] = {
        llvm::orc::ExecutorAddr::fromPtr(getCheckedAlignedAllocAddress()),
        llvm::JITSymbolFlags::Exported};
    symbols[interner("free")] = {
        llvm::orc::ExecutorAddr::fromPtr(getKernelFreeAddress()),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  auto entry = (*engine)->lookupPacked(entryName);
  if (!entry)
    return llvm::createStringError("jit: " + llvm::toString(entry.takeError()));

  std::unique_ptr<CPUKernel> kernel(new CPUKernel());
  kernel->engine = std::move(*engine);
  kernel->entry = *entry;
  kernel->signature = signature;
  kernel->outParams = options.outParams;
  return kernel;
}

llvm::Error CPUKernel::run(llvm::ArrayRef<HostTensor> inputs,
                           llvm::SmallVectorImpl<HostTensor> *results) {
  if (inputs.size() != signature.arguments.size())
    return llvm::createStringError(
        llvm::formatv("run: expected {0} inputs, got {1}",
                      signature.arguments.size(), inputs.size()));

  // Storage for every expanded argument value; each packed slot points into
  // it. Reserved up front so the pointers stay valid.
  size_t numSlots = 0;
  for (const TensorSpec &spec : signature.arguments)
    numSlots += spec.isScalar ? 1 : 3 + 2 * spec.shape.size();
  if (outParams)
    for (const TensorSpec &spec : signature.results)
      numSlots += spec.isScalar ? 0 : 3 + 2 * spec.shape.size();
  llvm::SmallVector<uint64_t> values;
  values.reserve(numSlots);
  llvm::SmallVector<void *> packed;
  packed.reserve(numSlots + 1);
  auto push = [&](uint64_t value) {
    values.push_back(value);
    packed.push_back(&values.back());
  };
  auto pushDescriptor = [&](const HostTensor &tensor) {
    const TensorSpec &spec = tensor.getSpec();
    auto address = reinterpret_cast<uint64_t>(tensor.getData());
    push(address); // allocated
    push(address); // aligned
    push(0);       // offset
    for (int64_t extent : spec.shape)
      push(static_cast<uint64_t>(extent));
    int64_t stride = 1;
    llvm::SmallVector<int64_t> strides(spec.shape.size());
    for (int64_t d = static_cast<int64_t>(spec.shape.size()) - 1; d >= 0; --d) {
      strides[d] = stride;
      stride *= spec.shape[d];
    }
    for (int64_t s : strides)
      push(static_cast<uint64_t>(s));
  };
  for (const HostTensor &input : inputs) {
    const TensorSpec &spec = input.getSpec();
    if (spec.isScalar) {
      uint64_t raw = 0;
      std::memcpy(&raw, input.getData(), getByteWidth(spec.kind));
      push(raw);
      continue;
    }
    pushDescriptor(input);
  }
  if (outParams) {
    if (outputBuffers.empty())
      for (const TensorSpec &spec : signature.results)
        if (!spec.isScalar)
          outputBuffers.emplace_back(spec);
    if (results)
      for (HostTensor &buffer : outputBuffers)
        std::memset(buffer.getData(), 0xff,
                    std::max<int64_t>(0, buffer.getSpec().getNumBytes()));
    for (const HostTensor &buffer : outputBuffers)
      pushDescriptor(buffer);
  }

  StructLayout layout;
  llvm::SmallVector<size_t> resultOffsets;
  for (const TensorSpec &spec : signature.results) {
    if (spec.isScalar) {
      unsigned width = getByteWidth(spec.kind);
      resultOffsets.push_back(layout.add(width, width));
    } else if (outParams) {
      resultOffsets.push_back(0); // an out-parameter, not in the struct
    } else {
      resultOffsets.push_back(layout.add(8 * (3 + 2 * spec.shape.size()), 8));
    }
  }
  llvm::SmallVector<uint64_t> resultStorage(layout.finalSize() / 8 + 1, 0);
  packed.push_back(resultStorage.data());

  entry(packed.data());

  auto *resultBytes = reinterpret_cast<char *>(resultStorage.data());
  llvm::SmallVector<void *> toFree;
  llvm::Error error = llvm::Error::success();
  size_t nextBuffer = 0;
  for (auto [index, spec] : llvm::enumerate(signature.results)) {
    char *field = resultBytes + resultOffsets[index];
    if (spec.isScalar) {
      if (results) {
        HostTensor value(spec);
        std::memcpy(value.getData(), field, getByteWidth(spec.kind));
        results->push_back(std::move(value));
      }
      continue;
    }
    if (outParams) {
      const HostTensor &buffer = outputBuffers[nextBuffer++];
      if (results)
        results->push_back(buffer.clone());
      continue;
    }
    auto *descriptor = reinterpret_cast<int64_t *>(field);
    auto *allocated = reinterpret_cast<char *>(descriptor[0]);
    auto *aligned = reinterpret_cast<char *>(descriptor[1]);
    int64_t offset = descriptor[2];
    size_t rank = spec.shape.size();
    llvm::ArrayRef<int64_t> sizes(descriptor + 3, rank);
    llvm::ArrayRef<int64_t> strides(descriptor + 3 + rank, rank);

    bool aliases = false;
    for (auto [argIndex, input] : llvm::enumerate(inputs)) {
      auto *begin = static_cast<const char *>(input.getData());
      if (!input.getSpec().isScalar && aligned >= begin &&
          aligned <
              begin + std::max<int64_t>(1, input.getSpec().getNumBytes())) {
        aliases = true;
        if (!error)
          error = llvm::createStringError(llvm::formatv(
              "run: result #{0} aliases argument #{1}; kernels must return "
              "new tensors, not their inputs",
              index, argIndex));
      }
    }
    if (!aliases &&
        reinterpret_cast<uintptr_t>(allocated) != kGlobalMemrefMarker &&
        allocated && !llvm::is_contained(toFree, allocated))
      toFree.push_back(allocated);
    if (aliases)
      continue;
    if (sizes != llvm::ArrayRef<int64_t>(spec.shape)) {
      if (!error)
        error = llvm::createStringError(llvm::formatv(
            "run: result #{0} came back with the wrong shape", index));
      continue;
    }
    if (!results)
      continue;
    HostTensor value(spec);
    unsigned width = getByteWidth(spec.kind);
    int64_t count = spec.getNumElements();
    auto *out = static_cast<char *>(value.getData());
    llvm::SmallVector<int64_t> position(rank, 0);
    for (int64_t linear = 0; linear < count; ++linear) {
      int64_t element = offset;
      for (size_t d = 0; d < rank; ++d)
        element += position[d] * strides[d];
      std::memcpy(out + linear * width, aligned + element * width, width);
      for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d) {
        if (++position[d] < spec.shape[d])
          break;
        position[d] = 0;
      }
    }
    results->push_back(std::move(value));
  }
  for (void *pointer : toFree)
    freeToKernelHeap(pointer);
  return error;
}
