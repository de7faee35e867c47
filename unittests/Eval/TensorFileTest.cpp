//===- TensorFileTest.cpp - ke tensor files written and read back ---------===//

#include "ke/Eval/TensorFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace ke::eval;

namespace {
HostTensor makeTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape,
                      double first) {
  TensorSpec spec;
  spec.kind = kind;
  spec.shape.assign(shape.begin(), shape.end());
  HostTensor tensor(spec);
  for (int64_t i = 0; i < tensor.getNumElements(); ++i)
    tensor.setFromDouble(i, first + i);
  return tensor;
}

std::string temporaryPath() {
  llvm::SmallString<128> path;
  llvm::sys::fs::createTemporaryFile("ke-tensors", "tensors", path);
  return path.str().str();
}

TEST(TensorFileTest, RoundTripsKindsShapesAndBytes) {
  std::string path = temporaryPath();
  llvm::SmallVector<HostTensor> inputs, outputs;
  inputs.push_back(makeTensor(ElementKind::F32, {2, 3}, 0.5));
  inputs.push_back(makeTensor(ElementKind::I64, {4}, 7));
  inputs.push_back(makeTensor(ElementKind::I1, {3}, 0));
  outputs.push_back(makeTensor(ElementKind::F32, {}, -1.0)); // 0-d
  ASSERT_FALSE(llvm::errorToBool(writeTensorFile(path, inputs, outputs)));

  llvm::Expected<TensorFile> file = readTensorFile(path);
  ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());
  ASSERT_EQ(file->inputs.size(), 3u);
  ASSERT_EQ(file->outputs.size(), 1u);
  EXPECT_EQ(describeSpec(file->inputs[0].getSpec()), "f32[2, 3]");
  EXPECT_EQ(describeSpec(file->inputs[1].getSpec()), "i64[4]");
  EXPECT_EQ(describeSpec(file->outputs[0].getSpec()), "f32[]");
  EXPECT_EQ(file->inputs[0].getAsDouble(5), 5.5);
  EXPECT_EQ(file->inputs[1].getAsInt(3), 10);
  EXPECT_EQ(file->inputs[2].getAsInt(1), 1);
  EXPECT_EQ(file->outputs[0].getAsDouble(0), -1.0);
  llvm::sys::fs::remove(path);
}

/// A file that is not what its header says is refused with the reason.
TEST(TensorFileTest, RefusesBadFiles) {
  auto readText = [](llvm::StringRef text) {
    std::string path = temporaryPath();
    {
      std::error_code ec;
      llvm::raw_fd_ostream out(path, ec);
      out << text;
    }
    llvm::Expected<TensorFile> file = readTensorFile(path);
    llvm::sys::fs::remove(path);
    return file ? std::string("read") : llvm::toString(file.takeError());
  };
  EXPECT_NE(readText("P6\n").find("not a ke tensor file"), std::string::npos);
  EXPECT_NE(readText("KETENSORS 1\n{\"inputs\": [}\n").find("bad header"),
            std::string::npos);
  EXPECT_NE(readText("KETENSORS 1\n{\"inputs\": [{\"dtype\": \"f7\", "
                     "\"shape\": []}], \"outputs\": []}\n")
                .find("unknown dtype \"f7\""),
            std::string::npos);
  // Two f32 announced, one present.
  EXPECT_NE(readText("KETENSORS 1\n{\"inputs\": [{\"dtype\": \"f32\", "
                     "\"shape\": [2]}], \"outputs\": []}\nabcd")
                .find("truncated"),
            std::string::npos);
  EXPECT_NE(readText("KETENSORS 1\n{\"inputs\": [], \"outputs\": []}\nxx")
                .find("2 bytes after the tensors"),
            std::string::npos);
  EXPECT_EQ(readText("KETENSORS 1\n{\"inputs\": [], \"outputs\": []}\n"),
            "read");
}
} // namespace
