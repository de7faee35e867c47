//===- TensorFile.cpp - inputs and expected outputs from outside ke -------===//

#include "ke/Eval/TensorFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <optional>

using namespace ke::eval;
namespace json = llvm::json;

static constexpr llvm::StringLiteral magicLine = "KETENSORS 1\n";

static std::optional<ElementKind> parseKind(llvm::StringRef name) {
  for (ElementKind kind :
       {ElementKind::F16, ElementKind::BF16, ElementKind::F32, ElementKind::F64,
        ElementKind::I1, ElementKind::I8, ElementKind::I16, ElementKind::I32,
        ElementKind::I64})
    if (getKindName(kind) == name)
      return kind;
  return std::nullopt;
}

std::string ke::eval::describeSpec(const TensorSpec &spec) {
  std::string dims;
  llvm::raw_string_ostream os(dims);
  llvm::interleaveComma(spec.shape, os);
  return (getKindName(spec.kind) + "[" + dims + "]").str();
}

/// The specs of one list ("inputs" or "outputs") of the header.
static llvm::Expected<llvm::SmallVector<TensorSpec>>
parseSpecs(const json::Object &header, llvm::StringRef list,
           llvm::StringRef path) {
  auto fail = [&](const llvm::Twine &what) {
    return llvm::createStringError(
        llvm::formatv("{0}: {1}", path, what.str()).str());
  };
  const json::Array *entries = header.getArray(list);
  if (!entries)
    return fail("the header has no \"" + list + "\" list");
  llvm::SmallVector<TensorSpec> specs;
  for (auto [index, entry] : llvm::enumerate(*entries)) {
    const json::Object *object = entry.getAsObject();
    std::optional<llvm::StringRef> dtype =
        object ? object->getString("dtype") : std::nullopt;
    const json::Array *shape = object ? object->getArray("shape") : nullptr;
    if (!dtype || !shape)
      return fail(llvm::formatv("{0} #{1} needs \"dtype\" and \"shape\"",
                                list, index));
    std::optional<ElementKind> kind = parseKind(*dtype);
    if (!kind)
      return fail(llvm::formatv("{0} #{1} has the unknown dtype \"{2}\"", list,
                                index, *dtype));
    TensorSpec spec;
    spec.kind = *kind;
    for (const json::Value &dim : *shape) {
      std::optional<int64_t> size = dim.getAsInteger();
      if (!size || *size < 0)
        return fail(llvm::formatv("{0} #{1} has a bad dimension", list, index));
      spec.shape.push_back(*size);
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

llvm::Expected<TensorFile> ke::eval::readTensorFile(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError(
        llvm::formatv("{0}: {1}", path, buffer.getError().message()).str());
  llvm::StringRef bytes = (*buffer)->getBuffer();
  if (!bytes.consume_front(magicLine))
    return llvm::createStringError(
        (path + ": not a ke tensor file (no 'KETENSORS 1' line)").str());
  auto [headerLine, data] = bytes.split('\n');
  llvm::Expected<json::Value> header = json::parse(headerLine);
  if (!header)
    return llvm::createStringError(
        (path + ": bad header: " + llvm::toString(header.takeError())).str());
  const json::Object *object = header->getAsObject();
  if (!object)
    return llvm::createStringError(
        (path + ": the header is not a JSON object").str());
  TensorFile file;
  size_t offset = 0;
  for (auto [list, tensors] :
       {std::pair{llvm::StringRef("inputs"), &file.inputs},
        std::pair{llvm::StringRef("outputs"), &file.outputs}}) {
    llvm::Expected<llvm::SmallVector<TensorSpec>> specs =
        parseSpecs(*object, list, path);
    if (!specs)
      return specs.takeError();
    for (TensorSpec &spec : *specs) {
      HostTensor tensor(spec);
      size_t size = spec.getNumBytes();
      if (offset + size > data.size())
        return llvm::createStringError(
            llvm::formatv("{0}: truncated: the header describes more bytes "
                          "than the file holds ({1})",
                          path, data.size())
                .str());
      std::memcpy(tensor.getData(), data.data() + offset, size);
      offset += size;
      tensors->push_back(std::move(tensor));
    }
  }
  if (offset != data.size())
    return llvm::createStringError(
        llvm::formatv("{0}: {1} bytes after the tensors the header describes",
                      path, data.size() - offset)
            .str());
  return file;
}

llvm::Error ke::eval::writeTensorFile(llvm::StringRef path,
                                      llvm::ArrayRef<HostTensor> inputs,
                                      llvm::ArrayRef<HostTensor> outputs) {
  auto describe = [](llvm::ArrayRef<HostTensor> tensors) {
    json::Array list;
    for (const HostTensor &tensor : tensors) {
      json::Array shape;
      for (int64_t dim : tensor.getSpec().shape)
        shape.push_back(dim);
      list.push_back(json::Object{{"dtype", getKindName(tensor.getSpec().kind)},
                                  {"shape", std::move(shape)}});
    }
    return list;
  };
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError((path + ": " + ec.message()).str());
  out << magicLine;
  out << json::Value(json::Object{{"inputs", describe(inputs)},
                                  {"outputs", describe(outputs)}})
      << "\n";
  for (llvm::ArrayRef<HostTensor> tensors : {inputs, outputs})
    for (const HostTensor &tensor : tensors)
      out.write(static_cast<const char *>(tensor.getData()),
                tensor.getSpec().getNumBytes());
  return llvm::Error::success();
}
