//===- RuntimeFunctions.cpp - run-time functions compiled code calls ------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/RuntimeFunctions.h"
#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/RuntimeErrorKind.h"

#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::gather;

StringRef mlir::gather::getRuntimeFunctionName(RuntimeFunction function) {
  switch (function) {
  case RuntimeFunction::ErrorHook:
    return kRuntimeErrorHook;
  case RuntimeFunction::AssertBarrier:
    return kAssertBarrier;
  case RuntimeFunction::ErrorStateOf:
    return kErrorStateOf;
  case RuntimeFunction::AdoptErrorState:
    return kAdoptErrorState;
  case RuntimeFunction::Malloc:
    return kRuntimeMalloc;
  case RuntimeFunction::Free:
    return kRuntimeFree;
  case RuntimeFunction::ErrorRecorded:
    return kErrorRecorded;
  }
  llvm_unreachable("unknown run-time function");
}

FunctionType mlir::gather::getRuntimeFunctionType(MLIRContext *context,
                                                  RuntimeFunction function) {
  // The pointer type only where used: it needs the LLVM dialect loaded,
  // which the passes that call only the hook do not.
  switch (function) {
  case RuntimeFunction::ErrorHook:
    return FunctionType::get(
        context, SmallVector<Type>(6, IntegerType::get(context, 64)), {});
  case RuntimeFunction::AssertBarrier:
    return FunctionType::get(context, {}, {});
  case RuntimeFunction::ErrorStateOf:
    return FunctionType::get(context, {},
                             {LLVM::LLVMPointerType::get(context)});
  case RuntimeFunction::AdoptErrorState: {
    Type pointer = LLVM::LLVMPointerType::get(context);
    return FunctionType::get(context, {pointer}, {pointer});
  }
  case RuntimeFunction::Malloc:
    return FunctionType::get(context, {IntegerType::get(context, 64)},
                             {LLVM::LLVMPointerType::get(context)});
  case RuntimeFunction::Free:
    return FunctionType::get(context, {LLVM::LLVMPointerType::get(context)},
                             {});
  case RuntimeFunction::ErrorRecorded:
    return FunctionType::get(context, {}, {IntegerType::get(context, 32)});
  }
  llvm_unreachable("unknown run-time function");
}

/// The module's symbol of `function`'s name where it is a `FuncT` of
/// `type`; null where the module has none; failure, after an error at the
/// symbol, where it is something else.
template <typename FuncT, typename TypeT>
static FailureOr<FuncT> lookupExisting(SymbolTable &symbols,
                                       RuntimeFunction function, TypeT type,
                                       StringRef kindName) {
  StringRef name = getRuntimeFunctionName(function);
  Operation *existing = symbols.lookup(name);
  if (!existing)
    return FuncT();
  if (auto fn = dyn_cast<FuncT>(existing))
    if (fn.getFunctionType() == type)
      return fn;
  existing->emitError("'") << name << "' is the run-time library's; it must be "
                           << kindName << " of " << type;
  return failure();
}

func::FuncOp mlir::gather::lookupOrDeclareRuntimeFunction(
    ModuleOp module, SymbolTable &symbols, RuntimeFunction function) {
  FunctionType type = getRuntimeFunctionType(module.getContext(), function);
  FailureOr<func::FuncOp> existing =
      lookupExisting<func::FuncOp>(symbols, function, type, "a func.func");
  if (failed(existing))
    return nullptr;
  func::FuncOp fn = *existing;
  if (!fn) {
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    fn = func::FuncOp::create(b, module.getLoc(),
                              getRuntimeFunctionName(function), type);
    fn.setPrivate();
    symbols.insert(fn);
  }
  if (function == RuntimeFunction::AssertBarrier)
    module.getContext()
        ->getLoadedDialect<GatherDialect>()
        ->getLeavesCallAttrHelper()
        .setAttr(fn, UnitAttr::get(module.getContext()));
  return fn;
}

LLVM::LLVMFuncOp mlir::gather::lookupOrDeclareRuntimeLLVMFunction(
    ModuleOp module, SymbolTable &symbols, RuntimeFunction function) {
  MLIRContext *context = module.getContext();
  // Every argument and result is an i64 or a pointer: the same types in
  // the LLVM dialect.
  FunctionType signature = getRuntimeFunctionType(context, function);
  Type result = signature.getNumResults() == 0
                    ? LLVM::LLVMVoidType::get(context)
                    : signature.getResult(0);
  auto type = LLVM::LLVMFunctionType::get(result, signature.getInputs());
  FailureOr<LLVM::LLVMFuncOp> existing =
      lookupExisting<LLVM::LLVMFuncOp>(symbols, function, type, "an llvm.func");
  if (failed(existing) || *existing)
    return failed(existing) ? nullptr : *existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto fn = LLVM::LLVMFuncOp::create(b, module.getLoc(),
                                     getRuntimeFunctionName(function), type);
  symbols.insert(fn);
  return fn;
}
