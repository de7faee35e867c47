//===- KeDialect.h - the ke dialect -----------------------------*- C++ -*-===//
//
// Public header of the ke dialect: the dialect, its enums and its ops.
//
//===----------------------------------------------------------------------===//

#ifndef KE_KEDIALECT_H
#define KE_KEDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"

#include "ke/KeDialect.h.inc"
#include "ke/KeEnums.h.inc"

#define GET_OP_CLASSES
#include "ke/KeOps.h.inc"

#endif // KE_KEDIALECT_H
