//===- GPUBundleWriter.cpp - a lowered GPU kernel as a bundle -------------===//

#include "ke/Eval/GPUBundleWriter.h"
#include "ke/Runtime/GPUBundle.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace ke::eval;

#ifndef KE_LLVM_TOOLS_DIR
#define KE_LLVM_TOOLS_DIR "/usr/lib/llvm-22/bin"
#endif

namespace {
llvm::Error writeFile(llvm::StringRef path, llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec)
    return llvm::createStringError("bundle: cannot write '" + path.str() +
                                   "': " + ec.message());
  out << contents;
  return llvm::Error::success();
}

/// Compiles the host code of `lowered` for this host and links it with
/// ld.lld as `directory`/`name`.
llvm::Error linkHostLibrary(mlir::ModuleOp lowered, llvm::StringRef directory,
                            llvm::StringRef name) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      mlir::translateModuleToLLVMIR(lowered, context);
  if (!module)
    return llvm::createStringError("translate: the host code does not "
                                   "translate to LLVM IR");
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("codegen: " + error);
  llvm::TargetOptions targetOptions;
  // The module-loading constructors must run at dlopen: .init_array, not
  // the legacy .ctors that ld.lld does not convert.
  targetOptions.UseInitArray = true;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "generic", "", targetOptions, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Default));
  module->setTargetTriple(triple);
  module->setDataLayout(machine->createDataLayout());
  llvm::SmallString<0> object;
  {
    llvm::raw_svector_ostream stream(object);
    llvm::legacy::PassManager passes;
    if (machine->addPassesToEmitFile(passes, stream, nullptr,
                                     llvm::CodeGenFileType::ObjectFile))
      return llvm::createStringError("codegen: cannot emit an object");
    passes.run(*module);
  }
  std::string objectPath = (directory + "/" + name + ".o").str();
  if (llvm::Error error = writeFile(objectPath, object))
    return error;
  auto linker = llvm::sys::findProgramByName("ld.lld", {KE_LLVM_TOOLS_DIR});
  if (!linker)
    linker = llvm::sys::findProgramByName("ld.lld-22");
  // GPU hosts running the release archive rarely have lld; binutils' ld
  // links the same shared object.
  if (!linker)
    linker = llvm::sys::findProgramByName("ld");
  if (!linker)
    return llvm::createStringError(
        "link: neither ld.lld nor ld found (Debian: lld-22 or binutils)");
  std::string output = (directory + "/" + name).str();
  std::string log = (directory + "/" + name + ".log").str();
  llvm::sys::fs::remove(log);
  // Undefined mgpu* symbols resolve against the runner at load time.
  llvm::StringRef argv[] = {*linker, "-shared", "-o", output, objectPath};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log, log};
  if (llvm::sys::ExecuteAndWait(*linker, argv, std::nullopt, redirects, 120)) {
    auto text = llvm::MemoryBuffer::getFile(log);
    return llvm::createStringError(
        "link: " + (text ? (*text)->getBuffer().str() : std::string("failed")));
  }
  llvm::sys::fs::remove(objectPath);
  llvm::sys::fs::remove(log);
  return llvm::Error::success();
}

} // namespace

llvm::Error ke::eval::writeGPUBundle(mlir::ModuleOp lowered,
                                     llvm::StringRef kernel,
                                     llvm::StringRef target,
                                     const KernelSignature &signature,
                                     unsigned seeds,
                                     double roundingAllowance,
                                     llvm::StringRef directory) {
  runtime::BundleManifest manifest;
  manifest.kernel = kernel.str();
  manifest.target = target.str();
  manifest.seeds = seeds;
  auto describe = [&](const TensorSpec &spec,
                      std::vector<runtime::BundleTensor> &into) -> llvm::Error {
    if (spec.isScalar)
      return llvm::createStringError(
          "bundle: the GPU runner takes tensors only, not scalars");
    into.push_back(
        {getKindName(spec.kind).str(),
         std::vector<int64_t>(spec.shape.begin(), spec.shape.end())});
    return llvm::Error::success();
  };
  for (const TensorSpec &spec : signature.arguments)
    if (llvm::Error error = describe(spec, manifest.arguments))
      return error;
  for (const TensorSpec &spec : signature.results)
    if (llvm::Error error = describe(spec, manifest.results))
      return error;
  if (signature.atol)
    manifest.atol = *signature.atol;
  else if (!signature.results.empty())
    manifest.atol = signature.getTolerance(signature.results[0].kind).atol;
  manifest.atol += roundingAllowance;
  if (signature.rtol)
    manifest.rtol = *signature.rtol;
  else if (!signature.results.empty())
    manifest.rtol = signature.getTolerance(signature.results[0].kind).rtol;

  llvm::sys::fs::create_directories(directory);
  // Never run a profiling build of another schedule.
  llvm::sys::fs::remove((directory + "/kernel-profile.so").str());
  if (llvm::Error error =
          writeFile((directory + "/bundle.txt").str(), manifest.write()))
    return error;

  // Host code for this machine, as a shared object.
  return linkHostLibrary(lowered, directory, "kernel.so");
}

llvm::Error
ke::eval::addGPUProfileBuild(mlir::ModuleOp profiled,
                             llvm::ArrayRef<std::string> regionNames,
                             llvm::StringRef directory) {
  std::string library = (directory + "/kernel-profile.so").str();
  if (llvm::Error error =
          linkHostLibrary(profiled, directory, "kernel-profile.so")) {
    llvm::sys::fs::remove(library);
    return error;
  }
  std::error_code ec;
  llvm::raw_fd_ostream manifest((directory + "/bundle.txt").str(), ec,
                                llvm::sys::fs::OF_Append);
  if (ec) {
    llvm::sys::fs::remove(library);
    return llvm::createStringError("bundle: cannot add the region names: " +
                                   ec.message());
  }
  for (auto [id, name] : llvm::enumerate(regionNames))
    if (!name.empty())
      manifest << "region " << id << " " << name << "\n";
  return llvm::Error::success();
}

llvm::Error ke::eval::addBundleSeed(llvm::StringRef directory,
                                    unsigned seedIndex,
                                    llvm::ArrayRef<HostTensor> inputs,
                                    llvm::ArrayRef<HostTensor> expected) {
  auto write = [&](const char *role, size_t index,
                   const HostTensor &tensor) -> llvm::Error {
    return writeFile(
        llvm::formatv("{0}/{1}-{2}-{3}.bin", directory, role, seedIndex, index)
            .str(),
        llvm::StringRef(static_cast<const char *>(tensor.getData()),
                        tensor.getSpec().getNumBytes()));
  };
  for (auto [i, tensor] : llvm::enumerate(inputs))
    if (llvm::Error error = write("in", i, tensor))
      return error;
  for (auto [i, tensor] : llvm::enumerate(expected))
    if (llvm::Error error = write("expected", i, tensor))
      return error;
  return llvm::Error::success();
}
