//===- FileProposer.cpp - candidates from a file --------------------------===//

#include "ke/Propose/FileProposer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace ke::propose;

llvm::Expected<std::unique_ptr<FileProposer>>
FileProposer::create(llvm::StringRef path, MLIRContext *context) {
  std::string messages;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
    llvm::raw_string_ostream os(messages);
    os << diagnostic.getLocation() << ": " << diagnostic << "\n";
    return success();
  });
  llvm::SourceMgr sourceMgr;
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(path, sourceMgr, ParserConfig(context));
  if (!module)
    return llvm::createStringError("cannot read proposals from '" + path.str() +
                                   "': " + messages);
  std::unique_ptr<FileProposer> proposer(new FileProposer());
  for (auto function : module->getOps<func::FuncOp>()) {
    Entry entry;
    auto strategy = function->getAttrOfType<StringAttr>("ke.strategy");
    entry.strategy = strategy
                         ? strategy.str()
                         : ("@" + function.getSymName() + " of " + path).str();
    std::string text;
    llvm::raw_string_ostream os(text);
    function->print(os);
    entry.payloadIR = text;
    proposer->entries.push_back(std::move(entry));
  }
  return proposer;
}

std::vector<Proposal> FileProposer::propose(const ProposalContext &context) {
  std::vector<Proposal> proposals;
  for (unsigned i = 0; i < context.count && next < entries.size(); ++i) {
    Proposal proposal;
    proposal.payloadIR = entries[next].payloadIR;
    proposal.strategy = entries[next].strategy;
    proposal.memory = MemoryOperator::Restart;
    proposals.push_back(std::move(proposal));
    ++next;
  }
  return proposals;
}
