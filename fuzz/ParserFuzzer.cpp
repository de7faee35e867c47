//===- ParserFuzzer.cpp - libFuzzer over the text ke takes from outside ---===//
//
// The parsers ke feeds untrusted text into, one per value of the first
// byte: kernel files (MLIR with ke's dialects, parsed and verified), an LLM
// reply (the rewrite extracted from markdown, and the provider's JSON body),
// ke-run's evaluation report (JSON), and GPU bundle manifests. None may
// crash, hang or leak on any input; a malformed one is an error.
//
// Built with scripts/test-sanitized.sh (clang, -fsanitize=fuzzer,address,
// undefined); fuzz/corpus/ holds the seeds, one file per input kind.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/EvaluationReport.h"
#include "ke/InitKe.h"
#include "ke/LLM/ChatProtocol.h"
#include "ke/Propose/Rewrite.h"
#include "ke/Runtime/GPUBundle.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace {
enum InputKind : uint8_t {
  KernelFile,
  RewriteReply,
  ProviderBody,
  EvaluationReportLine,
  BundleManifestText,
  NumInputKinds
};

/// A context with every dialect ke parses, silenced; replaced now and then
/// because a context keeps every type and attribute it ever uniqued.
mlir::MLIRContext &getContext() {
  static std::unique_ptr<mlir::MLIRContext> context;
  static unsigned uses = 0;
  if (!context || ++uses % 2000 == 0) {
    mlir::DialectRegistry registry;
    ke::registerEverything(registry);
    context = std::make_unique<mlir::MLIRContext>(
        registry, mlir::MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
    context->getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
  }
  return *context;
}

void parseKernelFile(llvm::StringRef text) {
  // MLIR's lexer reads up to a terminating NUL, as files ke reads have
  // (MemoryBuffer::getFile); the fuzzer's bytes have none.
  std::string terminated = text.str();
  mlir::ParserConfig config(&getContext());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(terminated, config);
  if (module)
    (void)mlir::verify(*module);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  llvm::StringRef text(reinterpret_cast<const char *>(data) + 1, size - 1);
  switch (static_cast<InputKind>(data[0] % NumInputKinds)) {
  case KernelFile:
    parseKernelFile(text);
    break;
  case RewriteReply: {
    auto rewrite = ke::propose::parseRewriteReply(text);
    if (!rewrite)
      llvm::consumeError(rewrite.takeError());
    break;
  }
  case ProviderBody:
    for (llvm::StringRef provider : {"openai", "anthropic"}) {
      std::unique_ptr<ke::llm::ChatProtocol> protocol =
          ke::llm::ChatProtocol::get(provider);
      if (!protocol)
        continue;
      auto reply = protocol->parseReply(text);
      if (!reply)
        llvm::consumeError(reply.takeError());
    }
    break;
  case EvaluationReportLine: {
    auto report = ke::eval::EvaluationReport::parse(text);
    if (!report)
      llvm::consumeError(report.takeError());
    break;
  }
  case BundleManifestText: {
    std::string error;
    (void)ke::runtime::BundleManifest::read(text.str(), error);
    break;
  }
  case NumInputKinds:
    break;
  }
  return 0;
}
