//===- GPUCodeStats.cpp - what a GPU kernel's code says of it -------------===//

#include "ke/Eval/GPUCodeStats.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>

using namespace ke::eval;

namespace {
int64_t toInteger(llvm::StringRef text) {
  int64_t value = 0;
  text.trim().getAsInteger(10, value);
  return value;
}

bool isInstruction(llvm::StringRef line) {
  line = line.trim();
  return !line.empty() && line.ends_with(";") && !line.starts_with(".") &&
         !line.starts_with("//") && !line.starts_with("{") &&
         !line.starts_with("}");
}

std::optional<std::string> findPtxas() {
  llvm::SmallVector<llvm::StringRef> paths;
  std::string cudaHome;
  if (const char *home = std::getenv("CUDA_HOME")) {
    cudaHome = std::string(home) + "/bin";
    paths.push_back(cudaHome);
  }
  paths.push_back("/usr/local/cuda/bin");
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  if (auto found = llvm::sys::findProgramByName("ptxas", paths))
    return *found;
  return std::nullopt;
}

/// ptxas -v's report: "Compiling entry function 'k' ..." then "Used N
/// registers, M bytes smem" and "S bytes spill stores".
void applyPtxas(llvm::StringRef ptx, llvm::StringRef chip,
                GPUCodeStats &stats) {
  std::optional<std::string> ptxas = findPtxas();
  if (!ptxas)
    return;
  llvm::SmallString<128> input, output;
  if (llvm::sys::fs::createTemporaryFile("ke", "ptx", input) ||
      llvm::sys::fs::createTemporaryFile("ke", "log", output))
    return;
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(input, ec);
    out << ptx;
  }
  std::string arch = "-arch=" + chip.str();
  llvm::StringRef argv[] = {*ptxas, arch, "-v", "-o", "/dev/null", input};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, output.str(),
                                                output.str()};
  int status =
      llvm::sys::ExecuteAndWait(*ptxas, argv, std::nullopt, redirects, 120);
  auto log = llvm::MemoryBuffer::getFile(output);
  llvm::sys::fs::remove(input);
  llvm::sys::fs::remove(output);
  if (status != 0 || !log)
    return;
  static const llvm::Regex entry("Compiling entry function '([^']+)'");
  static const llvm::Regex used("Used ([0-9]+) registers");
  static const llvm::Regex smem("([0-9]+) bytes smem");
  static const llvm::Regex spill("([0-9]+) bytes spill stores");
  GPUKernelStats *current = nullptr;
  llvm::SmallVector<llvm::StringRef> lines;
  (*log)->getBuffer().split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef> match;
    if (entry.match(line, &match)) {
      current = nullptr;
      for (GPUKernelStats &kernel : stats.kernels)
        if (kernel.name == match[1])
          current = &kernel;
    }
    if (!current)
      continue;
    if (used.match(line, &match))
      current->registers = toInteger(match[1]);
    if (smem.match(line, &match))
      current->sharedBytes = toInteger(match[1]);
    if (spill.match(line, &match))
      current->spillBytes = toInteger(match[1]);
  }
  stats.source = "ptxas -v (" + *ptxas + ")";
}

/// Blocks of `threads` an SM of sm_90 can hold with `registers` per thread
/// (65536 registers, 2048 threads, 32 blocks, 228 KB shared memory).
int64_t nvidiaOccupancy(int64_t registers, int64_t shared, int64_t threads) {
  if (registers <= 0 || threads <= 0)
    return -1;
  int64_t perBlock = ((registers * threads + 255) / 256) * 256;
  int64_t byRegisters = 65536 / perBlock;
  int64_t byThreads = 2048 / threads;
  int64_t byShared = shared > 0 ? (228 * 1024) / shared : 32;
  return std::max<int64_t>(
      0, std::min({byRegisters, byThreads, byShared, int64_t(32)}));
}
} // namespace

double GPUCodeStats::getStaticCost() const {
  double cost = 0.0;
  for (const GPUKernelStats &kernel : kernels) {
    double occupancyPenalty =
        kernel.occupancy > 0
            ? 8.0 / double(std::min<int64_t>(8, kernel.occupancy))
            : 8.0;
    cost += double(kernel.instructions) * occupancyPenalty +
            double(kernel.spillBytes) * 4.0;
  }
  return cost;
}

llvm::json::Value GPUCodeStats::toJSON() const {
  llvm::json::Array array;
  for (const GPUKernelStats &kernel : kernels)
    array.push_back(llvm::json::Object{{"name", kernel.name},
                                       {"registers", kernel.registers},
                                       {"sgprs", kernel.sgprs},
                                       {"shared_bytes", kernel.sharedBytes},
                                       {"spill_bytes", kernel.spillBytes},
                                       {"instructions", kernel.instructions},
                                       {"occupancy", kernel.occupancy}});
  return llvm::json::Object{{"chip", chip},
                            {"source", source},
                            {"static_cost", getStaticCost()},
                            {"kernels", std::move(array)}};
}

GPUCodeStats ke::eval::analyzePTX(llvm::StringRef ptx, llvm::StringRef chip) {
  GPUCodeStats stats;
  stats.chip = chip.str();
  stats.source = "PTX declarations (no ptxas found: registers are virtual)";
  static const llvm::Regex entry("\\.entry[ \t]+([A-Za-z0-9_$]+)");
  static const llvm::Regex reg("\\.reg[ \t]+\\.[a-z0-9]+[ \t]+[^<]*<([0-9]+)>");
  static const llvm::Regex shared("\\.shared[^\\[]*\\[([0-9]+)\\]");
  static const llvm::Regex local("\\.local[^\\[]*\\[([0-9]+)\\]");
  llvm::SmallVector<llvm::StringRef> lines;
  ptx.split(lines, '\n');
  GPUKernelStats *current = nullptr;
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef> match;
    if (entry.match(line, &match)) {
      stats.kernels.push_back({});
      current = &stats.kernels.back();
      current->name = match[1].str();
      current->registers = 0;
      continue;
    }
    if (!current)
      continue;
    if (reg.match(line, &match))
      current->registers += toInteger(match[1]);
    else if (shared.match(line, &match))
      current->sharedBytes += toInteger(match[1]);
    else if (local.match(line, &match))
      current->spillBytes += toInteger(match[1]);
    else if (isInstruction(line))
      ++current->instructions;
  }
  applyPtxas(ptx, chip, stats);
  // Occupancy for 256-thread blocks: the most ke-lower-nvgpu's default
  // tiling and its row reductions use.
  for (GPUKernelStats &kernel : stats.kernels)
    kernel.occupancy =
        nvidiaOccupancy(kernel.registers, kernel.sharedBytes, 256);
  return stats;
}

GPUCodeStats ke::eval::analyzeAMDGCN(llvm::StringRef assembly,
                                     llvm::StringRef chip) {
  GPUCodeStats stats;
  stats.chip = chip.str();
  stats.source = "AMDGCN .amdhsa directives (LLVM AMDGPU backend)";
  static const llvm::Regex kernel("^\\.amdhsa_kernel[ \t]+([A-Za-z0-9_$]+)");
  static const llvm::Regex function("^([A-Za-z_][A-Za-z0-9_$]*):");
  llvm::SmallVector<llvm::StringRef> lines;
  assembly.split(lines, '\n');
  std::map<std::string, int64_t> instructions;
  std::string inFunction;
  GPUKernelStats *current = nullptr;
  for (llvm::StringRef raw : lines) {
    llvm::StringRef line = raw.trim();
    llvm::SmallVector<llvm::StringRef> match;
    if (function.match(raw, &match)) {
      inFunction = match[1].str();
      continue;
    }
    if (line.starts_with(".end_amdhsa_kernel") ||
        line.starts_with(".Lfunc_end")) {
      inFunction.clear();
      current = nullptr;
      continue;
    }
    if (kernel.match(line, &match)) {
      stats.kernels.push_back({});
      current = &stats.kernels.back();
      current->name = match[1].str();
      continue;
    }
    auto [directive, value] = line.split(' ');
    if (current) {
      if (directive == ".amdhsa_next_free_vgpr")
        current->registers = toInteger(value);
      else if (directive == ".amdhsa_next_free_sgpr")
        current->sgprs = toInteger(value);
      else if (directive == ".amdhsa_group_segment_fixed_size")
        current->sharedBytes = toInteger(value);
      else if (directive == ".amdhsa_private_segment_fixed_size")
        current->spillBytes = toInteger(value);
      continue;
    }
    if (!inFunction.empty() && !line.empty() && !line.starts_with(".") &&
        !line.starts_with(";") && !line.ends_with(":"))
      ++instructions[inFunction];
  }
  for (GPUKernelStats &kernel : stats.kernels) {
    kernel.instructions = instructions[kernel.name];
    if (kernel.registers > 0) {
      int64_t granule = (kernel.registers + 7) / 8 * 8;
      kernel.occupancy = std::min<int64_t>(8, 512 / granule);
    }
  }
  return stats;
}
