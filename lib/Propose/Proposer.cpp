//===- Proposer.cpp - shared pieces of the proposer interface -------------===//

#include "ke/Propose/Proposer.h"

#include "llvm/ADT/StringExtras.h"

using namespace ke::propose;

Proposer::~Proposer() = default;

llvm::StringRef ke::propose::getMemoryOperatorName(MemoryOperator memory) {
  switch (memory) {
  case MemoryOperator::InheritTrajectory:
    return "inherit";
  case MemoryOperator::CompareSiblings:
    return "siblings";
  case MemoryOperator::Combine:
    return "combine";
  case MemoryOperator::Restart:
    return "restart";
  }
  return "?";
}

std::string ke::propose::describeOpKinds(llvm::ArrayRef<OpShape> shapes) {
  std::vector<std::string> kinds;
  for (const OpShape &shape : shapes) {
    llvm::StringRef name = shape.name;
    name.consume_front("linalg.");
    kinds.push_back(name.str());
  }
  return llvm::join(kinds, ",");
}
