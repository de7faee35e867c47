//===- RISCVCodegen.cpp - LLVM-dialect kernels to RISC-V code -------------===//

#include "ke/Target/RISCVCodegen.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <mutex>

extern "C" {
void LLVMInitializeRISCVTargetInfo();
void LLVMInitializeRISCVTarget();
void LLVMInitializeRISCVTargetMC();
void LLVMInitializeRISCVAsmPrinter();
void LLVMInitializeRISCVAsmParser();
}

using namespace ke;

namespace {
constexpr llvm::StringLiteral kTriple = "riscv64-unknown-linux-gnu";

/// Basic blocks of defined functions, in a fixed order.
std::vector<llvm::BasicBlock *> numberBlocks(llvm::Module &module) {
  std::vector<llvm::BasicBlock *> blocks;
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      for (llvm::BasicBlock &block : function)
        blocks.push_back(&block);
  return blocks;
}

void addBlockCounters(llvm::Module &module) {
  std::vector<llvm::BasicBlock *> blocks = numberBlocks(module);
  llvm::LLVMContext &context = module.getContext();
  auto *i64 = llvm::Type::getInt64Ty(context);
  auto *arrayType =
      llvm::ArrayType::get(i64, std::max<size_t>(1, blocks.size()));
  auto *counts = new llvm::GlobalVariable(
      module, arrayType, /*isConstant=*/false,
      llvm::GlobalValue::ExternalLinkage,
      llvm::ConstantAggregateZero::get(arrayType), "__ke_block_counts");
  new llvm::GlobalVariable(
      module, i64, /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
      llvm::ConstantInt::get(i64, blocks.size()), "__ke_block_count_n");
  for (auto [index, block] : llvm::enumerate(blocks)) {
    llvm::IRBuilder<> builder(&*block->getFirstInsertionPt());
    llvm::Value *slot =
        builder.CreateConstInBoundsGEP2_64(arrayType, counts, 0, index);
    llvm::Value *value = builder.CreateLoad(i64, slot);
    builder.CreateStore(builder.CreateAdd(value, builder.getInt64(1)), slot);
  }
}

void addMCAMarkers(llvm::Module &module) {
  std::vector<llvm::BasicBlock *> blocks = numberBlocks(module);
  auto *type = llvm::FunctionType::get(
      llvm::Type::getVoidTy(module.getContext()), false);
  for (auto [index, block] : llvm::enumerate(blocks)) {
    std::string name = "b" + std::to_string(index);
    llvm::IRBuilder<> begin(&*block->getFirstInsertionPt());
    begin.CreateCall(llvm::InlineAsm::get(type, "# LLVM-MCA-BEGIN " + name, "",
                                          /*hasSideEffects=*/true));
    llvm::IRBuilder<> end(block->getTerminator());
    end.CreateCall(llvm::InlineAsm::get(type, "# LLVM-MCA-END " + name, "",
                                        /*hasSideEffects=*/true));
  }
}

llvm::Expected<std::string> emit(llvm::Module &module,
                                 llvm::TargetMachine &machine,
                                 llvm::CodeGenFileType type) {
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, stream, nullptr, type))
    return llvm::createStringError("codegen: the RISC-V target cannot emit "
                                   "this file type");
  passes.run(module);
  return std::string(buffer);
}
} // namespace

llvm::Expected<RISCVCode>
ke::generateRISCVCode(mlir::ModuleOp module,
                      const RISCVCodegenOptions &options) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeRISCVTargetInfo();
    LLVMInitializeRISCVTarget();
    LLVMInitializeRISCVTargetMC();
    LLVMInitializeRISCVAsmPrinter();
    LLVMInitializeRISCVAsmParser(); // the mca markers are inline asm
  });
  std::string error;
  llvm::Triple triple(kTriple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("codegen: no RISC-V target in this LLVM: " +
                                   error);
  llvm::TargetOptions targetOptions;
  targetOptions.MCOptions.ABIName = "lp64d"; // what riscv64-linux-gnu-gcc uses
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, options.cpu, options.features, targetOptions, llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return llvm::createStringError("codegen: cannot create a RISC-V target "
                                   "machine for cpu '" +
                                   options.cpu + "'");

  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return llvm::createStringError("translate: the module does not translate "
                                   "to LLVM IR");
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());
  auto optimize = mlir::makeOptimizingTransformer(3, 0, machine.get());
  if (llvm::Error error = optimize(llvmModule.get()))
    return llvm::createStringError("codegen: " +
                                   llvm::toString(std::move(error)));

  RISCVCode code;
  code.numBlocks = numberBlocks(*llvmModule).size();
  std::unique_ptr<llvm::Module> marked = llvm::CloneModule(*llvmModule);
  std::unique_ptr<llvm::Module> plain = llvm::CloneModule(*llvmModule);
  addBlockCounters(*llvmModule);
  addMCAMarkers(*marked);
  auto object = emit(*llvmModule, *machine, llvm::CodeGenFileType::ObjectFile);
  if (!object)
    return object.takeError();
  auto assembly = emit(*marked, *machine, llvm::CodeGenFileType::AssemblyFile);
  if (!assembly)
    return assembly.takeError();
  auto plainAssembly =
      emit(*plain, *machine, llvm::CodeGenFileType::AssemblyFile);
  if (!plainAssembly)
    return plainAssembly.takeError();
  code.countingObject = std::move(*object);
  code.markedAssembly = std::move(*assembly);
  code.plainAssembly = std::move(*plainAssembly);
  return code;
}
