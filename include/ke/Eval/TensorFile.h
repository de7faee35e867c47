//===- TensorFile.h - inputs and expected outputs from outside ke -*- C++ -*-===//
//
// A ke tensor file holds a kernel's inputs and the outputs another framework
// computed for them (ke-import writes PyTorch's), so `ke-run --expected`
// can check a kernel against that framework and not only against its own
// reference. Format: the line "KETENSORS 1", one line of JSON
// {"inputs": [{"dtype": "f32", "shape": [..]}, ..], "outputs": [..]}, then
// every tensor's bytes (dense, row-major, little-endian, i1 as one byte),
// inputs first.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_TENSORFILE_H
#define KE_EVAL_TENSORFILE_H

#include "ke/Eval/HostTensor.h"
#include "llvm/Support/Error.h"

#include <string>

namespace ke::eval {

struct TensorFile {
  llvm::SmallVector<HostTensor> inputs, outputs;
};

/// Reads `path`; errors name the file and what is wrong with it.
llvm::Expected<TensorFile> readTensorFile(llvm::StringRef path);

/// Writes `inputs` and `outputs` to `path` in the same format.
llvm::Error writeTensorFile(llvm::StringRef path,
                            llvm::ArrayRef<HostTensor> inputs,
                            llvm::ArrayRef<HostTensor> outputs);

/// "f32[512, 4096]": how messages name a tensor's kind and shape.
std::string describeSpec(const TensorSpec &spec);

} // namespace ke::eval

#endif // KE_EVAL_TENSORFILE_H
