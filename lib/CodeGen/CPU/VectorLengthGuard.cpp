//===- VectorLengthGuard.cpp - check the vector length code was built for -===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"
#include "gather/Dialect/Gather/IR/RuntimeErrorKind.h"
#include "gather/Utils/CInterface.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERVECTORLENGTHGUARD
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {

/// The entry points the guard goes into: functions for SVE (the feature
/// "+sve"; the check is SVE's instruction) callable from outside the module
/// whose vscale_range asks for more than one unit of 128 bits.
/// The C interface wrappers (which gather-llvm-target leaves without a
/// vscale_range) only call the function they wrap, which is guarded
/// itself: a wrapper that returned early would leave its result unwritten.
static int64_t requiredVscale(LLVM::LLVMFuncOp function) {
  if (function.isExternal() || function.isPrivate() ||
      function.getLinkage() == LLVM::Linkage::Internal ||
      function.getLinkage() == LLVM::Linkage::Private ||
      gather::isCInterfaceWrapper(function.getName()))
    return 0;
  LLVM::TargetFeaturesAttr features = function.getTargetFeaturesAttr();
  LLVM::VScaleRangeAttr range = function.getVscaleRangeAttr();
  if (!features || !features.contains("+sve") || !range || !range.getMinRange())
    return 0;
  int64_t min = range.getMinRange().getInt();
  return min > 1 ? min : 0;
}

/// `@__gather_runtime_error(i64 x 6)`, declared where missing.
static LLVM::LLVMFuncOp getOrDeclareHook(ModuleOp module,
                                         SymbolTable &symbols) {
  if (auto hook = symbols.lookup<LLVM::LLVMFuncOp>(gather::kRuntimeErrorHook))
    return hook;
  MLIRContext *context = module.getContext();
  auto i64 = IntegerType::get(context, 64);
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                          SmallVector<Type>(6, i64));
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto hook = LLVM::LLVMFuncOp::create(b, module.getLoc(),
                                       gather::kRuntimeErrorHook, type);
  symbols.insert(hook);
  return hook;
}

/// A NUL-terminated constant "@name" naming the function in the report.
static LLVM::GlobalOp createSiteString(ModuleOp module, SymbolTable &symbols,
                                       LLVM::LLVMFuncOp function) {
  MLIRContext *context = module.getContext();
  std::string text = "@" + function.getName().str();
  text.push_back('\0');
  auto type =
      LLVM::LLVMArrayType::get(IntegerType::get(context, 8), text.size());
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto global = LLVM::GlobalOp::create(
      b, function.getLoc(), type, /*isConstant=*/true, LLVM::Linkage::Internal,
      ("__gather_vector_length_site_" + function.getName()).str(),
      b.getStringAttr(text));
  // Renamed where the name is taken.
  symbols.insert(global);
  return global;
}

/// At the function's entry: the CPU's SVE register length against
/// `required` units of 128 bits; below it, a report of both lengths in bits
/// and a return (of zeros: a recording error hook returns, and the caller
/// then finds the error), before any vector code runs.
static void guard(ModuleOp module, SymbolTable &symbols,
                  LLVM::LLVMFuncOp function, int64_t required) {
  LLVM::LLVMFuncOp hook = getOrDeclareHook(module, symbols);
  LLVM::GlobalOp site = createSiteString(module, symbols, function);
  MLIRContext *context = module.getContext();
  Location loc = function.getLoc();
  auto i64 = IntegerType::get(context, 64);
  auto ptr = LLVM::LLVMPointerType::get(context);

  Block *entry = &function.front();
  Block *rest = entry->splitBlock(entry->begin());
  // Allocas of constant size stay in the entry block: LLVM places only
  // those in the function's frame.
  for (Operation &op : llvm::make_early_inc_range(*rest)) {
    auto alloca = dyn_cast<LLVM::AllocaOp>(op);
    if (!alloca)
      continue;
    Operation *size = alloca.getArraySize().getDefiningOp();
    if (!size || !size->hasTrait<OpTrait::ConstantLike>())
      continue;
    if (size->getBlock() == rest)
      size->moveBefore(entry, entry->end());
    alloca->moveBefore(entry, entry->end());
  }

  Block *fail = new Block();
  function.getBody().getBlocks().insertAfter(Region::iterator(rest), fail);

  OpBuilder b = OpBuilder::atBlockEnd(entry);
  // The register length in bytes from SVE's `rdvl`, which LLVM cannot see
  // through: llvm.intr.vscale would fold against the function's own
  // vscale_range, which promises the very length checked.
  Value bytes = LLVM::InlineAsmOp::create(
                    b, loc, i64, ValueRange{}, "rdvl $0, #1", "=r",
                    /*has_side_effects=*/true, /*is_align_stack=*/false,
                    LLVM::tailcallkind::TailCallKind::None,
                    /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr)
                    .getResult(0);
  Value minimum =
      LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(required * 16));
  Value enough =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, bytes, minimum);
  auto constant = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(value));
  };
  // In the entry block, a slot of the frame.
  Value two = constant(2);
  Value details = LLVM::AllocaOp::create(b, loc, ptr, i64, two);
  LLVM::CondBrOp::create(b, loc, enough, rest, fail);

  b.setInsertionPointToEnd(fail);
  LLVM::StoreOp::create(b, loc, constant(required * 128), details);
  Value second =
      LLVM::GEPOp::create(b, loc, ptr, i64, details, ArrayRef<LLVM::GEPArg>{1});
  LLVM::StoreOp::create(b, loc, LLVM::MulOp::create(b, loc, bytes, constant(8)),
                        second);
  Value siteAddress = LLVM::AddressOfOp::create(b, loc, site);
  Value zero = constant(0);
  LLVM::CallOp::create(
      b, loc, hook,
      ValueRange{LLVM::PtrToIntOp::create(b, loc, i64, siteAddress), zero, zero,
                 constant(static_cast<int64_t>(
                     gather::RuntimeErrorKind::VectorLengthTooShort)),
                 two, LLVM::PtrToIntOp::create(b, loc, i64, details)});
  Type result = function.getFunctionType().getReturnType();
  if (isa<LLVM::LLVMVoidType>(result))
    LLVM::ReturnOp::create(b, loc, ValueRange{});
  else
    LLVM::ReturnOp::create(b, loc, LLVM::ZeroOp::create(b, loc, result));
}

struct GatherVectorLengthGuardPass
    : gather::impl::GatherVectorLengthGuardBase<GatherVectorLengthGuardPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<LLVM::LLVMFuncOp, int64_t>> entries;
    for (auto function : module.getOps<LLVM::LLVMFuncOp>())
      if (int64_t required = requiredVscale(function))
        entries.emplace_back(function, required);
    SymbolTable symbols(module);
    for (auto [function, required] : entries)
      guard(module, symbols, function, required);
  }
};

} // namespace
