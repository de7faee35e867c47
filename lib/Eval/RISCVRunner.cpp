//===- RISCVRunner.cpp - a kernel on rv64gcv under qemu -------------------===//

#include "ke/Eval/RISCVRunner.h"
#include "ke/Eval/PrepareForLowering.h"
#include "ke/Support/DiagnosticCollector.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <cstring>
#include <map>

using namespace mlir;
using namespace ke::eval;

#ifndef KE_LLVM_TOOLS_DIR
#define KE_LLVM_TOOLS_DIR "/usr/lib/llvm-22/bin"
#endif

namespace {
constexpr llvm::StringLiteral kGCC = "riscv64-linux-gnu-gcc";
constexpr llvm::StringLiteral kQEMU = "qemu-riscv64";
/// RVV 1.0 with 512-bit vector registers: code generated for a CPU model
/// may assume its VLEN as a minimum (sifive-x280: 512), so the emulated
/// machine must have at least as much.
constexpr llvm::StringLiteral kQEMUCPU =
    "rv64,v=true,vlen=512,elen=64,vext_spec=v1.0";

std::optional<std::string>
findTool(llvm::StringRef name, llvm::ArrayRef<llvm::StringRef> paths = {}) {
  auto found = llvm::sys::findProgramByName(name, paths);
  if (found)
    return *found;
  return std::nullopt;
}

std::optional<std::string> findMCA() {
  if (auto tool = findTool("llvm-mca", {KE_LLVM_TOOLS_DIR}))
    return tool;
  return findTool("llvm-mca-22");
}

llvm::Error writeFile(llvm::StringRef path, llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec)
    return llvm::createStringError("cannot write '" + path.str() +
                                   "': " + ec.message());
  out << contents;
  return llvm::Error::success();
}

/// Runs a program, capturing its output; an error with the output if it
/// fails or times out.
llvm::Error execute(llvm::StringRef program,
                    llvm::ArrayRef<std::string> arguments,
                    llvm::StringRef outputPath, unsigned timeout,
                    llvm::StringRef stage, std::string *output = nullptr) {
  llvm::SmallVector<llvm::StringRef> argv = {program};
  for (const std::string &argument : arguments)
    argv.push_back(argument);
  // Redirection does not truncate: start from an empty file.
  llvm::sys::fs::remove(outputPath);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, outputPath,
                                                outputPath};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects,
                                         timeout, 0, &message);
  std::string captured;
  if (auto buffer = llvm::MemoryBuffer::getFile(outputPath))
    captured = (*buffer)->getBuffer().str();
  if (output)
    *output = captured;
  if (status == 0)
    return llvm::Error::success();
  llvm::StringRef shown = llvm::StringRef(captured).take_back(1500);
  if (status == -2)
    return llvm::createStringError(
        stage.str() + ": " + llvm::sys::path::filename(program).str() +
        " timed out after " + std::to_string(timeout) + " s");
  return llvm::createStringError(
      llvm::formatv("{0}: {1} failed (status {2}{3}): {4}", stage,
                    llvm::sys::path::filename(program), status,
                    message.empty() ? "" : ", " + message, shown));
}

const char *getCType(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return "float";
  case ElementKind::F64:
    return "double";
  case ElementKind::I1:
  case ElementKind::I8:
    return "int8_t";
  case ElementKind::I16:
    return "int16_t";
  case ElementKind::I32:
    return "int32_t";
  case ElementKind::I64:
    return "int64_t";
  default:
    return nullptr;
  }
}

/// The C harness: reads every input from a file, calls the kernel's C
/// interface once, writes every result and the block counts.
llvm::Expected<std::string> makeHarness(llvm::StringRef name,
                                        const KernelSignature &signature) {
  std::string c;
  llvm::raw_string_ostream os(c);
  os << "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
        "#include <string.h>\n"
        "extern uint64_t __ke_block_counts[];\n"
        "extern const uint64_t __ke_block_count_n;\n"
        "static void *readInput(const char *path, size_t bytes) {\n"
        "  void *data = NULL;\n"
        "  if (posix_memalign(&data, 64, bytes ? bytes : 1)) exit(3);\n"
        "  FILE *f = fopen(path, \"rb\");\n"
        "  if (!f || fread(data, 1, bytes, f) != bytes) { perror(path); "
        "exit(3); }\n"
        "  fclose(f);\n  return data;\n}\n"
        "static void writeOutput(const char *path, const void *data, size_t "
        "bytes) {\n"
        "  FILE *f = fopen(path, \"wb\");\n"
        "  if (!f || fwrite(data, 1, bytes, f) != bytes) { perror(path); "
        "exit(3); }\n"
        "  fclose(f);\n}\n"
        // memref.copy of non-contiguous views calls this (MLIR's runtime
        // has it; the harness is linked without that runtime).
        "typedef struct { int64_t rank; void *descriptor; } Unranked;\n"
        "void memrefCopy(int64_t size, Unranked *src, Unranked *dst) {\n"
        "  int64_t rank = src->rank;\n"
        "  char **s = (char **)src->descriptor, **d = (char "
        "**)dst->descriptor;\n"
        "  int64_t *ss = (int64_t *)(s + 2), *ds = (int64_t *)(d + 2);\n"
        "  int64_t *sizes = ss + 1, *sst = ss + 1 + rank, *dst_ = ds + 1 + "
        "rank;\n"
        "  int64_t index[16] = {0}, total = 1;\n"
        "  for (int64_t i = 0; i < rank; ++i) total *= sizes[i];\n"
        "  for (int64_t n = 0; n < total; ++n) {\n"
        "    int64_t so = ss[0], dof = ds[0];\n"
        "    for (int64_t i = 0; i < rank; ++i) { so += index[i] * sst[i]; dof "
        "+= index[i] * dst_[i]; }\n"
        "    memcpy(d[1] + dof * size, s[1] + so * size, size);\n"
        "    for (int64_t i = rank - 1; i >= 0; --i) { if (++index[i] < "
        "sizes[i]) break; index[i] = 0; }\n"
        "  }\n}\n";
  auto descriptor = [&](llvm::StringRef type, size_t rank) {
    os << "typedef struct { void *allocated, *aligned; int64_t offset";
    if (rank)
      os << "; int64_t sizes[" << rank << "], strides[" << rank << "]";
    os << "; } " << type << ";\n";
  };
  for (auto [i, spec] : llvm::enumerate(signature.arguments)) {
    if (!getCType(spec.kind))
      return llvm::createStringError("riscv: the harness has no C type for " +
                                     getKindName(spec.kind).str() +
                                     " arguments");
    if (!spec.isScalar)
      descriptor("Arg" + std::to_string(i), spec.shape.size());
  }
  if (signature.results.empty())
    return llvm::createStringError("riscv: the kernel has no results");
  os << "typedef struct {\n";
  for (auto [i, spec] : llvm::enumerate(signature.results)) {
    if (spec.isScalar || !getCType(spec.kind))
      return llvm::createStringError(
          "riscv: the harness supports tensor results of f32, f64 and "
          "integer types only");
    os << "  struct { void *allocated, *aligned; int64_t offset";
    if (!spec.shape.empty())
      os << "; int64_t sizes[" << spec.shape.size() << "], strides["
         << spec.shape.size() << "]";
    os << "; } r" << i << ";\n";
  }
  os << "} Results;\n";
  os << "void _mlir_ciface_" << name << "(Results *";
  for (auto [i, spec] : llvm::enumerate(signature.arguments))
    os << ", "
       << (spec.isScalar ? std::string(getCType(spec.kind))
                         : "Arg" + std::to_string(i) + " *");
  os << ");\n";
  os << "int main(int argc, char **argv) {\n";
  size_t expected = signature.arguments.size() + signature.results.size() + 2;
  os << "  if (argc != " << expected
     << ") { fprintf(stderr, \"usage: inputs... outputs... counts\\n\"); "
        "return 2; }\n";
  for (auto [i, spec] : llvm::enumerate(signature.arguments)) {
    std::string bytes = std::to_string(spec.getNumBytes());
    if (spec.isScalar) {
      os << "  " << getCType(spec.kind) << " a" << i << "; memcpy(&a" << i
         << ", readInput(argv[" << i + 1 << "], " << bytes << "), " << bytes
         << ");\n";
      continue;
    }
    os << "  Arg" << i << " a" << i << ";\n  a" << i << ".allocated = a" << i
       << ".aligned = readInput(argv[" << i + 1 << "], " << bytes << ");\n  a"
       << i << ".offset = 0;\n";
    int64_t stride = 1;
    for (int64_t d = int64_t(spec.shape.size()) - 1; d >= 0; --d) {
      os << "  a" << i << ".sizes[" << d << "] = " << spec.shape[d] << "; a"
         << i << ".strides[" << d << "] = " << stride << ";\n";
      stride *= spec.shape[d];
    }
  }
  os << "  Results results;\n  _mlir_ciface_" << name << "(&results";
  for (auto [i, spec] : llvm::enumerate(signature.arguments))
    os << ", " << (spec.isScalar ? "" : "&") << "a" << i;
  os << ");\n";
  for (auto [i, spec] : llvm::enumerate(signature.results))
    os << "  writeOutput(argv[" << signature.arguments.size() + i + 1
       << "], (char *)results.r" << i << ".aligned + results.r" << i
       << ".offset * " << getByteWidth(spec.kind) << ", " << spec.getNumBytes()
       << ");\n";
  os << "  writeOutput(argv[argc - 1], __ke_block_counts, "
        "__ke_block_count_n * sizeof(uint64_t));\n  return 0;\n}\n";
  return c;
}

/// The marked assembly regrouped by machine basic block: each block with
/// instructions becomes llvm-mca region "m<i>", and `owner[i]` is the IR
/// block whose markers it holds (a loop rotated by block placement splits
/// one IR block over several machine blocks; each runs as often as it).
/// Machine blocks without a marker (made by codegen) own nothing: -1.
std::string regroupByMachineBlock(llvm::StringRef assembly,
                                  std::vector<int> &owner) {
  static const llvm::Regex label("^[A-Za-z_.$][A-Za-z0-9_.$]*:");
  static const llvm::Regex marker("LLVM-MCA-(BEGIN|END) b([0-9]+)");
  llvm::SmallVector<llvm::StringRef> lines;
  assembly.split(lines, '\n');
  std::string out;
  std::string block;
  int blockOwner = -1;
  bool hasInstructions = false;
  auto flush = [&] {
    if (hasInstructions) {
      std::string name = "m" + std::to_string(owner.size());
      out += "\t# LLVM-MCA-BEGIN " + name + "\n" + block + "\t# LLVM-MCA-END " +
             name + "\n";
      owner.push_back(blockOwner);
    } else {
      out += block;
    }
    block.clear();
    blockOwner = -1;
    hasInstructions = false;
  };
  for (llvm::StringRef line : lines) {
    llvm::StringRef trimmed = line.trim();
    llvm::SmallVector<llvm::StringRef> match;
    if (marker.match(line, &match)) {
      if (blockOwner < 0)
        match[2].getAsInteger(10, blockOwner);
      continue; // our markers replace the IR-level ones
    }
    if (label.match(line)) {
      flush();
      out += line.str() + "\n";
      continue;
    }
    block += line.str() + "\n";
    if (!trimmed.empty() && !trimmed.starts_with("#") &&
        !trimmed.starts_with(".") && !trimmed.starts_with("@"))
      hasInstructions = true;
  }
  flush();
  return out;
}

/// Cycles per iteration of each "m<N>" region of llvm-mca's report.
std::vector<double> parseMCA(llvm::StringRef report, unsigned numBlocks) {
  std::vector<double> cycles(numBlocks, 0.0);
  static const llvm::Regex region("Code Region - m([0-9]+)");
  static const llvm::Regex iterations("^Iterations: +([0-9]+)");
  static const llvm::Regex total("^Total Cycles: +([0-9]+)");
  llvm::SmallVector<llvm::StringRef> lines;
  report.split(lines, '\n');
  std::optional<unsigned> current;
  double count = 1;
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef> match;
    if (region.match(line, &match)) {
      unsigned block = 0;
      match[1].getAsInteger(10, block);
      current = block < numBlocks ? std::optional(block) : std::nullopt;
    } else if (iterations.match(line.trim(), &match)) {
      match[1].getAsInteger(10, count);
      count = std::max(1.0, count);
    } else if (current && total.match(line.trim(), &match)) {
      uint64_t value = 0;
      match[1].getAsInteger(10, value);
      cycles[*current] = double(value) / count;
      current.reset();
    }
  }
  return cycles;
}
} // namespace

llvm::Error ke::eval::checkRISCVTools() {
  std::vector<std::string> missing;
  if (!findTool(kGCC))
    missing.push_back("riscv64-linux-gnu-gcc (Debian: gcc-riscv64-linux-gnu, "
                      "libc6-dev-riscv64-cross)");
  if (!findTool(kQEMU))
    missing.push_back("qemu-riscv64 (Debian: qemu-user)");
  if (!findMCA())
    missing.push_back("llvm-mca (Debian: llvm-22)");
  if (missing.empty())
    return llvm::Error::success();
  return llvm::createStringError("target: the riscv target needs " +
                                 llvm::join(missing, ", "));
}

RISCVKernel::~RISCVKernel() {
  if (ownsDirectory)
    llvm::sys::fs::remove_directories(directory);
}

llvm::Expected<std::unique_ptr<RISCVKernel>>
RISCVKernel::compile(func::FuncOp function, const LowerCPUOptions &options,
                     const KernelSignature &signature,
                     const RISCVRunOptions &runOptions) {
  if (llvm::Error error = checkRISCVTools())
    return std::move(error);
  MLIRContext *context = function.getContext();
  OwningOpRef<ModuleOp> module;
  func::FuncOp clone = cloneIntoNewModule(function, module);
  clone.setPublic();
  std::string name = clone.getSymName().str();
  prepareForLowering(clone);
  // The harness calls _mlir_ciface_<name>.
  clone->setAttr("llvm.emit_c_interface", UnitAttr::get(context));
  {
    ke::DiagnosticCollector diagnostics(context);
    PassManager pm(context, ModuleOp::getOperationName());
    LowerCPUOptions sequential;
    sequential.naive = options.naive.getValue();
    sequential.vectorWidth = options.vectorWidth.getValue();
    // RISC-V's vectors, not the host's.
    sequential.elementwiseVectorWidth = options.vectorWidth.getValue();
    sequential.threads = false;
    sequential.x86Transposes = false;
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    if (failed(buildLowerCPUPipeline(pm, sequential, errorStream)))
      return llvm::createStringError("lower: " + errors);
    if (failed(pm.run(*module)))
      return llvm::createStringError("lower: " + diagnostics.str());
  }
  ke::DiagnosticCollector diagnostics(context);
  auto code = generateRISCVCode(*module, runOptions.codegen);
  if (!code)
    return llvm::createStringError(llvm::toString(code.takeError()) +
                                   diagnostics.str());

  std::unique_ptr<RISCVKernel> kernel(new RISCVKernel());
  kernel->signature = signature;
  kernel->options = runOptions;
  kernel->assembly = code->plainAssembly;
  if (runOptions.workDirectory.empty()) {
    llvm::SmallString<128> directory;
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("ke-riscv", directory))
      return llvm::createStringError("link: cannot create a directory: " +
                                     ec.message());
    kernel->directory = std::string(directory);
    kernel->ownsDirectory = true;
  } else {
    kernel->directory = runOptions.workDirectory;
    llvm::sys::fs::create_directories(kernel->directory);
  }
  auto path = [&](llvm::StringRef file) {
    return (kernel->directory + "/" + file).str();
  };
  auto harness = makeHarness(name, signature);
  if (!harness)
    return harness.takeError();
  if (llvm::Error error = writeFile(path("kernel.o"), code->countingObject))
    return std::move(error);
  std::vector<int> owner;
  std::string regions = regroupByMachineBlock(code->markedAssembly, owner);
  if (llvm::Error error = writeFile(path("kernel.s"), regions))
    return std::move(error);
  if (llvm::Error error = writeFile(path("harness.c"), *harness))
    return std::move(error);
  kernel->executable = path("kernel");
  if (llvm::Error error =
          execute(*findTool(kGCC),
                  {"-O2", "-static", path("harness.c"), path("kernel.o"), "-lm",
                   "-o", kernel->executable},
                  path("link.log"), runOptions.timeoutSeconds, "link"))
    return std::move(error);

  std::string report;
  if (llvm::Error error =
          execute(*findMCA(),
                  {"-mtriple=riscv64-unknown-linux-gnu",
                   "-mcpu=" + runOptions.codegen.cpu,
                   "-mattr=" + runOptions.codegen.features, "-iterations=100",
                   path("kernel.s")},
                  path("mca.log"), runOptions.timeoutSeconds, "mca", &report))
    return std::move(error);
  // Cycles per IR block: the sum over the machine blocks it became.
  std::vector<double> perMachineBlock = parseMCA(report, owner.size());
  kernel->cyclesPerBlock.assign(code->numBlocks, 0.0);
  for (auto [machineBlock, irBlock] : llvm::enumerate(owner))
    if (irBlock >= 0 && unsigned(irBlock) < code->numBlocks)
      kernel->cyclesPerBlock[irBlock] += perMachineBlock[machineBlock];
  return kernel;
}

llvm::Error RISCVKernel::run(llvm::ArrayRef<HostTensor> inputs,
                             llvm::SmallVectorImpl<HostTensor> &results) {
  std::vector<std::string> arguments = {"-cpu", kQEMUCPU.str(), executable};
  for (auto [i, input] : llvm::enumerate(inputs)) {
    std::string file = llvm::formatv("{0}/in{1}.bin", directory, i).str();
    if (llvm::Error error = writeFile(
            file, llvm::StringRef(static_cast<const char *>(input.getData()),
                                  input.getSpec().getNumBytes())))
      return error;
    arguments.push_back(file);
  }
  for (size_t i = 0; i < signature.results.size(); ++i)
    arguments.push_back(llvm::formatv("{0}/out{1}.bin", directory, i).str());
  arguments.push_back(directory + "/counts.bin");
  if (llvm::Error error =
          execute(*findTool(kQEMU), arguments, directory + "/run.log",
                  options.timeoutSeconds, "run"))
    return error;
  results.clear();
  for (auto [i, spec] : llvm::enumerate(signature.results)) {
    auto buffer = llvm::MemoryBuffer::getFile(
        llvm::formatv("{0}/out{1}.bin", directory, i).str());
    if (!buffer || (*buffer)->getBufferSize() != size_t(spec.getNumBytes()))
      return llvm::createStringError("run: result #" + std::to_string(i) +
                                     " was not written");
    HostTensor tensor(spec);
    std::memcpy(tensor.getData(), (*buffer)->getBufferStart(),
                spec.getNumBytes());
    results.push_back(std::move(tensor));
  }
  auto counts = llvm::MemoryBuffer::getFile(directory + "/counts.bin");
  if (!counts)
    return llvm::createStringError("run: no block counts were written");
  blockCounts.assign(
      reinterpret_cast<const uint64_t *>((*counts)->getBufferStart()),
      reinterpret_cast<const uint64_t *>((*counts)->getBufferEnd()));
  // The estimate's terms, for whoever wonders where the cycles go.
  std::string table = "block executions cycles/execution cycles\n";
  for (size_t i = 0; i < std::min(blockCounts.size(), cyclesPerBlock.size());
       ++i)
    table += llvm::formatv("b{0} {1} {2:f2} {3:f0}\n", i, blockCounts[i],
                           cyclesPerBlock[i],
                           double(blockCounts[i]) * cyclesPerBlock[i])
                 .str();
  return writeFile(directory + "/estimate.txt", table);
}

double RISCVKernel::getEstimatedCycles() const {
  double cycles = 0.0;
  for (size_t i = 0; i < std::min(blockCounts.size(), cyclesPerBlock.size());
       ++i)
    cycles += double(blockCounts[i]) * cyclesPerBlock[i];
  return cycles;
}
