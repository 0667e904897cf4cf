//===- RuntimeFunctions.h - functions compiled code calls -------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The declarations of the run-time library's functions in a module, made
// the same way by every pass that calls one (RuntimeErrorKind.h names them
// and gives their C signatures).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_RUNTIMEFUNCTIONS_H
#define GATHER_DIALECT_GATHER_IR_RUNTIMEFUNCTIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::gather {

/// A function of the run-time library that compiled code calls.
enum class RuntimeFunction {
  /// kRuntimeErrorHook: `(i64 x 6) -> ()`.
  ErrorHook,
  /// kAssertBarrier: `() -> ()`.
  AssertBarrier,
  /// kErrorStateOf: `() -> !llvm.ptr`.
  ErrorStateOf,
  /// kAdoptErrorState: `(!llvm.ptr) -> !llvm.ptr`.
  AdoptErrorState,
  /// kRuntimeMalloc: `(i64) -> !llvm.ptr`.
  Malloc,
  /// kRuntimeFree: `(!llvm.ptr) -> ()`.
  Free,
  /// kErrorRecorded: `() -> i32`.
  ErrorRecorded,
};

/// Its symbol name.
StringRef getRuntimeFunctionName(RuntimeFunction function);

/// Its type as a func.func.
FunctionType getRuntimeFunctionType(MLIRContext *context,
                                    RuntimeFunction function);

/// The declaration of `function` in `module` as a func.func: the module's
/// own func.func of that name and type, or else a new private declaration
/// at the start of the module, added to `symbols` (the module's table).
/// Another symbol of that name is an error there, and the result null: a
/// renamed declaration would not link, and a call of another type would
/// not verify. The barrier's gets `gather.leaves_call`: the gather dialect
/// must be loaded.
func::FuncOp lookupOrDeclareRuntimeFunction(ModuleOp module,
                                            SymbolTable &symbols,
                                            RuntimeFunction function);

/// The same as an llvm.func, for passes after the conversion to the LLVM
/// dialect.
LLVM::LLVMFuncOp lookupOrDeclareRuntimeLLVMFunction(ModuleOp module,
                                                    SymbolTable &symbols,
                                                    RuntimeFunction function);

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_IR_RUNTIMEFUNCTIONS_H
