//===- VectorLengthGuard.cpp - check the vector length code was built for -===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"
#include "gather/Dialect/Gather/IR/RuntimeErrorKind.h"
#include "gather/Dialect/Gather/IR/RuntimeFunctions.h"
#include "gather/Target/CpuTarget.h"
#include "gather/Utils/CInterface.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/TargetParser/RISCVTargetParser.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERVECTORLENGTHGUARD
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {

/// What a function's code assumes of the vector registers beyond what its
/// architecture guarantees (128 bits for SVE and for RISC-V V).
struct LengthPromise {
  /// The register length the code needs; 0: nothing beyond the guarantee.
  int64_t bits = 0;
  /// The bits in one unit of LLVM's vscale: 128 for SVE, 64 for RISC-V V.
  int64_t bitsPerVscale = 0;
};

/// SVE code (`+sve`) with vscale_range(min > 1, _), as gather-llvm-target
/// sets for an SVE CPU described with wide registers; RISC-V V code (`+v`)
/// with zvl<N>b for N above 128 (LLVM takes the minimum from that feature,
/// the CPU's or the description's) or with such a vscale_range.
static LengthPromise promiseOf(LLVM::LLVMFuncOp function) {
  LLVM::TargetFeaturesAttr features = function.getTargetFeaturesAttr();
  if (!features)
    return {};
  bool sve = features.contains("+sve");
  bool rvv = features.contains("+v");
  if (!sve && !rvv)
    return {};
  LengthPromise promise{0, sve ? gather::kSveBitsPerVscale
                               : llvm::RISCV::RVVBitsPerBlock};
  LLVM::VScaleRangeAttr range = function.getVscaleRangeAttr();
  if (range && range.getMinRange())
    promise.bits = range.getMinRange().getInt() * promise.bitsPerVscale;
  if (rvv)
    for (StringAttr feature : features.getFeatures())
      if (feature.getValue().starts_with("+"))
        promise.bits =
            std::max(promise.bits, gather::riscvZvlBits(feature.getValue()));
  if (promise.bits <= gather::kGuaranteedVectorBits)
    promise.bits = 0;
  return promise;
}

/// The function with no more than the architecture's guarantee: no
/// vscale_range, and each RISC-V zvl<N>b above 128 turned off (the CPU
/// named by target_cpu may imply it; a '-' feature overrides the CPU's).
static void dropPromise(LLVM::LLVMFuncOp function) {
  function.removeVscaleRangeAttr();
  LLVM::TargetFeaturesAttr features = function.getTargetFeaturesAttr();
  if (!features)
    return;
  SmallVector<std::string> names;
  for (StringAttr feature : features.getFeatures()) {
    StringRef name = feature.getValue();
    if (gather::riscvZvlBits(name) > gather::kGuaranteedVectorBits)
      names.push_back(
          ("-" + name.drop_front(name.starts_with("+") ? 1 : 0)).str());
    else
      names.push_back(name.str());
  }
  SmallVector<StringRef> refs(names.begin(), names.end());
  function.setTargetFeaturesAttr(
      LLVM::TargetFeaturesAttr::get(function.getContext(), refs));
}

/// Functions callable from outside the module.
static bool isEntryPoint(LLVM::LLVMFuncOp function) {
  return !function.isExternal() && !function.isPrivate() &&
         function.getLinkage() != LLVM::Linkage::Internal &&
         function.getLinkage() != LLVM::Linkage::Private;
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

/// Splits an entry point into its body, moved unchanged into an internal
/// function `<name>.vl<bits>` that keeps the promise, and a checked entry
/// without it: the CPU's register length (llvm.intr.vscale, which nothing
/// in the entry bounds) against the promise; enough, a call of the body;
/// too short, a report of both lengths in bits and a return of zeros (a
/// recording error hook returns, and the caller then finds the error).
/// No instruction that needs the length runs before the check, by
/// construction: the promise is not where the check is.
static void guard(ModuleOp module, SymbolTable &symbols, LLVM::LLVMFuncOp hook,
                  LLVM::LLVMFuncOp function, LengthPromise promise) {
  MLIRContext *context = module.getContext();
  Location loc = function.getLoc();
  auto i64 = IntegerType::get(context, 64);
  auto ptr = LLVM::LLVMPointerType::get(context);

  auto body = cast<LLVM::LLVMFuncOp>(function->clone());
  body.setSymName((function.getName() + ".vl" + Twine(promise.bits)).str());
  body.setLinkage(LLVM::Linkage::Internal);
  // Inlined into the entry, the body would lose the promise (and with it
  // SVE's instructions for fixed-length vectors), not its correctness.
  body.setNoInline(true);
  symbols.insert(body, std::next(Block::iterator(function)));
  LLVM::GlobalOp site = createSiteString(module, symbols, function);

  function.getBody().dropAllReferences();
  function.getBody().getBlocks().clear();
  dropPromise(function);
  OpBuilder b(context);
  Block *entry = function.addEntryBlock(b);
  Block *run = new Block();
  Block *fail = new Block();
  function.getBody().push_back(run);
  function.getBody().push_back(fail);

  b.setInsertionPointToEnd(entry);
  auto constant = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(value));
  };
  Value bits = LLVM::MulOp::create(b, loc, LLVM::vscale::create(b, loc, i64),
                                   constant(promise.bitsPerVscale));
  Value enough = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, bits,
                                      constant(promise.bits));
  // In the entry block, a slot of the frame.
  Value two = constant(2);
  Value details = LLVM::AllocaOp::create(b, loc, ptr, i64, two);
  LLVM::CondBrOp::create(b, loc, enough, run, fail);

  b.setInsertionPointToEnd(run);
  auto call = LLVM::CallOp::create(b, loc, body, entry->getArguments());
  LLVM::ReturnOp::create(b, loc, call.getResults());

  b.setInsertionPointToEnd(fail);
  LLVM::StoreOp::create(b, loc, constant(promise.bits), details);
  Value second =
      LLVM::GEPOp::create(b, loc, ptr, i64, details, ArrayRef<LLVM::GEPArg>{1});
  LLVM::StoreOp::create(b, loc, bits, second);
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
    SmallVector<std::pair<LLVM::LLVMFuncOp, LengthPromise>> entries;
    SmallVector<LLVM::LLVMFuncOp> wrappers;
    for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
      if (!isEntryPoint(function))
        continue;
      LengthPromise promise = promiseOf(function);
      if (!promise.bits)
        continue;
      // A C interface wrapper copies descriptors (with the promise, in
      // registers of the promised length) and calls the function it wraps,
      // an entry point checked itself: without the promise it is right on
      // any length.
      if (gather::isCInterfaceWrapper(function.getName()))
        wrappers.push_back(function);
      else
        entries.emplace_back(function, promise);
    }
    for (LLVM::LLVMFuncOp wrapper : wrappers)
      dropPromise(wrapper);
    if (entries.empty())
      return;
    SymbolTable symbols(module);
    LLVM::LLVMFuncOp hook = gather::lookupOrDeclareRuntimeLLVMFunction(
        module, symbols, gather::RuntimeFunction::ErrorHook);
    if (!hook)
      return signalPassFailure();
    for (auto [function, promise] : entries)
      guard(module, symbols, hook, function, promise);
  }
};

} // namespace
