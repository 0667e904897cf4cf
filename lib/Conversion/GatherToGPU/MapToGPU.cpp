//===- MapToGPU.cpp - host loops and buffers onto the device --------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// After bufferization the gather lowering is host code: scf.parallel loops
// over memrefs (from linalg), memref.alloc for outputs, memref.copy. This
// pass puts all of it on the device:
//  - every outermost scf.parallel becomes a gpu.launch with one thread per
//    iteration: the iteration space is linearized with the innermost
//    dimension fastest, so consecutive threads of a warp handle consecutive
//    innermost coordinates (coalesced stores of the row-major output);
//  - memref.alloc / memref.dealloc become gpu.alloc / gpu.dealloc, and
//    memref.copy becomes gpu.memcpy;
//  - constant globals read by kernels are copied to the device once.
// Function arguments are device buffers: the caller (gather-run --device
// gpu) allocates them there.
//
//===----------------------------------------------------------------------===//

#include "MapToGPU.h"
#include "gather/Conversion/GatherToGPU.h"
#include "gather/Conversion/MultiaxisLowering/MultiaxisLowering.h"
#include "gather/Utils/TripCount.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERMAPTOGPU
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

static bool isInsideLaunch(Operation *op) {
  return op->getParentOfType<gpu::LaunchOp>() != nullptr;
}

namespace {
/// Buffers the host program keeps for itself: the pointer lists the buffer
/// deallocation builds to decide at run time what to free (when functions
/// return buffers that may alias) and the host copies of indices for an
/// error report. Only host loads and stores and gpu.memcpy reach them,
/// directly, through casts, or in functions that launch no kernel.
class HostBuffers {
public:
  explicit HostBuffers(ModuleOp module) : symbols(module) {}

  bool isHostOnly(Value buffer) {
    if (!visiting.insert(buffer).second)
      return true; // a cycle through calls: decided by the other uses
    bool hostOnly = llvm::all_of(buffer.getUses(), [&](OpOperand &use) {
      Operation *user = use.getOwner();
      if (isInsideLaunch(user))
        return false;
      // A gpu.memcpy copies between host and device memory either way: the
      // host copy of the indices for an error report is one end of one.
      if (isa<memref::LoadOp, memref::StoreOp, memref::DeallocOp, memref::DimOp,
              memref::ExtractAlignedPointerAsIndexOp, gpu::MemcpyOp>(user))
        return true;
      if (auto cast = dyn_cast<memref::CastOp>(user))
        return isHostOnly(cast.getResult());
      if (auto call = dyn_cast<func::CallOp>(user)) {
        auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
        return callee && isHostFunction(callee) &&
               isHostOnly(callee.getArgument(use.getOperandNumber()));
      }
      return false; // returned, copied, or anything else a kernel may read
    });
    visiting.erase(buffer);
    return hostOnly;
  }

  /// A function with a body that launches no kernel and passes no buffer
  /// to another function (a call with scalars only, such as the error
  /// hook's, is fine): a host helper.
  static bool isHostFunction(func::FuncOp fn) {
    if (fn.isExternal())
      return false;
    auto isBuffer = [](Type type) { return isa<BaseMemRefType>(type); };
    WalkResult result = fn.walk([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::interrupt();
      if (auto call = dyn_cast<func::CallOp>(op))
        if (llvm::any_of(call.getOperandTypes(), isBuffer) ||
            llvm::any_of(call.getResultTypes(), isBuffer))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return !result.wasInterrupted();
  }

private:
  SymbolTable symbols;
  llvm::DenseSet<Value> visiting;
};
} // namespace

namespace {
/// The innermost dimension of a parallel loop that only copies a row: one
/// memref.load whose result one memref.store writes, directly or through a
/// select with a value that does not change along the row, both indexed by
/// the innermost induction variable in their last position, on identity
/// layouts.
struct RowCopy {
  memref::LoadOp load;
  memref::StoreOp store;
  arith::SelectOp select; // null when the load's value is stored as it is
  int64_t lanes;          // elements per 16 bytes
};
} // namespace

/// The row copy of `loop`'s innermost dimension, if it is one whose rows can
/// be whole 16-byte vectors: the trip count and the row lengths of both
/// buffers multiples of the lanes, or of sizes known only at run time (then
/// checked by the condition of wholeVectorsCondition).
static std::optional<RowCopy> matchRowCopy(scf::ParallelOp loop) {
  int64_t rank = loop.getNumLoops();
  Value iv = loop.getInductionVars().back();
  std::optional<int64_t> lower =
      getConstantIntValue(loop.getLowerBound()[rank - 1]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[rank - 1]);
  if (!lower || !step || *lower != 0 || *step != 1)
    return std::nullopt;
  RowCopy copy;
  for (OpOperand &use : iv.getUses()) {
    Operation *user = use.getOwner();
    if (auto l = dyn_cast<memref::LoadOp>(user)) {
      if (copy.load || use.getOperandNumber() != l->getNumOperands() - 1)
        return std::nullopt;
      copy.load = l;
    } else if (auto st = dyn_cast<memref::StoreOp>(user)) {
      if (copy.store || use.getOperandNumber() != st->getNumOperands() - 1)
        return std::nullopt;
      copy.store = st;
    } else {
      return std::nullopt;
    }
  }
  memref::LoadOp load = copy.load;
  memref::StoreOp store = copy.store;
  if (!load || !store || !load.getResult().hasOneUse() ||
      load->getBlock() != store->getBlock())
    return std::nullopt;
  // The row may pass through a select whose other operand is a value the
  // innermost iteration does not change (`fill`: the zero row of a miss);
  // the iv has no other users, so the condition does not change along the
  // row either.
  auto select = store.getValue().getDefiningOp<arith::SelectOp>();
  if (store.getValue() != load.getResult() &&
      (!select || !select.getResult().hasOneUse() ||
       select->getBlock() != store->getBlock() ||
       (select.getTrueValue() != load.getResult() &&
        select.getFalseValue() != load.getResult()) ||
       select.getCondition() == load.getResult()))
    return std::nullopt;
  if (store.getValue() != load.getResult())
    copy.select = select;
  Type elementType = load.getMemRefType().getElementType();
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() < 8)
    return std::nullopt;
  copy.lanes = 128 / elementType.getIntOrFloatBitWidth();
  // A run-time row length is read on the host, before the launch: the
  // buffer must exist there.
  for (Value buffer : {load.getMemRef(), store.getMemRef()}) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.getLayout().isIdentity())
      return std::nullopt;
    if (type.isDynamicDim(type.getRank() - 1)
            ? !loop.isDefinedOutsideOfLoop(buffer)
            : type.getShape().back() % copy.lanes != 0)
      return std::nullopt;
  }
  std::optional<int64_t> upper =
      getConstantIntValue(loop.getUpperBound()[rank - 1]);
  if (upper && *upper % copy.lanes != 0)
    return std::nullopt;
  return copy;
}

/// The host's condition that `copy`'s rows are whole vectors at run time
/// (the trip count and each row length of a run-time size a multiple of
/// the lanes), built before `loop`; null when that holds statically.
static Value wholeVectorsCondition(OpBuilder &b, scf::ParallelOp loop,
                                   const RowCopy &copy) {
  Location loc = loop.getLoc();
  Value lanes, c0, condition; // made at the first run-time size
  auto requireMultiple = [&](Value size) {
    if (!lanes) {
      lanes = arith::ConstantIndexOp::create(b, loc, copy.lanes);
      c0 = arith::ConstantIndexOp::create(b, loc, 0);
    }
    Value rest = arith::RemUIOp::create(b, loc, size, lanes);
    Value whole =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rest, c0);
    condition =
        condition ? arith::AndIOp::create(b, loc, condition, whole).getResult()
                  : whole;
  };
  Value upper = loop.getUpperBound().back();
  if (!getConstantIntValue(upper))
    requireMultiple(upper);
  memref::LoadOp load = copy.load;
  memref::StoreOp store = copy.store;
  for (Value buffer : {load.getMemRef(), store.getMemRef()}) {
    auto type = cast<MemRefType>(buffer.getType());
    if (type.isDynamicDim(type.getRank() - 1))
      requireMultiple(
          memref::DimOp::create(b, loc, buffer, type.getRank() - 1));
  }
  return condition;
}

/// Rewrites a row copy to copy 16 bytes per iteration: vector.load and
/// vector.store with a 16-byte alignment (ld/st.global.v4 for f32), the
/// innermost trip count divided by the lanes. The alignment holds when row
/// lengths are multiples of the vector (matchRowCopy, and at run time
/// wholeVectorsCondition) and the buffers start 16-byte aligned (device
/// allocations are 256-byte aligned; callers must pass aligned buffers).
static void vectorizeRowCopy(RewriterBase &b, scf::ParallelOp loop,
                             const RowCopy &copy) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  int64_t lanes = copy.lanes;
  Value lanesValue = arith::ConstantIndexOp::create(b, loc, lanes);
  SmallVector<Value> upperBounds(loop.getUpperBound());
  if (std::optional<int64_t> upper = getConstantIntValue(upperBounds.back()))
    upperBounds.back() = arith::ConstantIndexOp::create(b, loc, *upper / lanes);
  else
    upperBounds.back() =
        arith::DivUIOp::create(b, loc, upperBounds.back(), lanesValue);
  b.modifyOpInPlace(loop,
                    [&] { loop.getUpperBoundMutable().assign(upperBounds); });
  b.setInsertionPointToStart(loop.getBody());
  Value iv = loop.getInductionVars().back();
  Value start = arith::MulIOp::create(b, loc, iv, lanesValue);
  memref::LoadOp load = copy.load;
  memref::StoreOp store = copy.store;
  auto vectorType =
      VectorType::get({lanes}, load.getMemRefType().getElementType());
  b.setInsertionPoint(load);
  SmallVector<Value> loadIndices(load.getIndices());
  loadIndices.back() = start;
  auto vectorLoad =
      vector::LoadOp::create(b, loc, vectorType, load.getMemRef(), loadIndices,
                             /*nontemporal=*/false, llvm::MaybeAlign(16));
  b.setInsertionPoint(store);
  Value row = vectorLoad.getResult();
  if (arith::SelectOp select = copy.select) {
    bool loadIsTrue = select.getTrueValue() == load.getResult();
    Value other = vector::BroadcastOp::create(
        b, loc, vectorType,
        loadIsTrue ? select.getFalseValue() : select.getTrueValue());
    row = arith::SelectOp::create(b, loc, select.getCondition(),
                                  loadIsTrue ? row : other,
                                  loadIsTrue ? other : row);
  }
  SmallVector<Value> storeIndices(store.getIndices());
  storeIndices.back() = start;
  vector::StoreOp::create(b, loc, row, store.getMemRef(), storeIndices,
                          /*nontemporal=*/false, llvm::MaybeAlign(16));
  b.eraseOp(store);
  if (copy.select)
    b.eraseOp(copy.select);
  b.eraseOp(load);
}

/// Replaces `loop` by a 1-D gpu.launch over its linearized iteration space
/// (below).
static void launchParallelLoop(RewriterBase &rewriter, scf::ParallelOp loop,
                               int64_t threadsPerBlock);

/// Replaces an outermost scf.parallel by gpu.launch ops. A row copy
/// (matchRowCopy) copies 16 bytes per thread; where its sizes are known
/// only at run time, the host launches that kernel when the rows are whole
/// vectors and the kernel of an element per thread otherwise (every size
/// of W1 dynamic ran 2.1x slower with elements alone on an H200).
LogicalResult mlir::gather::mapParallelLoopToGPU(RewriterBase &rewriter,
                                                 scf::ParallelOp loop,
                                                 int64_t threadsPerBlock) {
  if (!loop.getInitVals().empty())
    return loop.emitOpError("with reductions cannot be mapped to the GPU");
  std::optional<RowCopy> copy = matchRowCopy(loop);
  if (!copy) {
    launchParallelLoop(rewriter, loop, threadsPerBlock);
    return success();
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  Value whole = wholeVectorsCondition(rewriter, loop, *copy);
  if (!whole) {
    vectorizeRowCopy(rewriter, loop, *copy);
    launchParallelLoop(rewriter, loop, threadsPerBlock);
    return success();
  }
  auto version =
      scf::IfOp::create(rewriter, loop.getLoc(), whole, /*withElse=*/true);
  rewriter.setInsertionPoint(version.thenBlock()->getTerminator());
  auto vectorLoop = cast<scf::ParallelOp>(rewriter.clone(*loop));
  rewriter.moveOpBefore(loop, version.elseBlock()->getTerminator());
  // The clone matches as the original did.
  if (std::optional<RowCopy> cloned = matchRowCopy(vectorLoop))
    vectorizeRowCopy(rewriter, vectorLoop, *cloned);
  launchParallelLoop(rewriter, vectorLoop, threadsPerBlock);
  launchParallelLoop(rewriter, loop, threadsPerBlock);
  return success();
}

/// One thread per iteration, the innermost dimension fastest (coalesced),
/// in 32-bit index arithmetic where the total allows.
static void launchParallelLoop(RewriterBase &rewriter, scf::ParallelOp loop,
                               int64_t threadsPerBlock) {
  RewriterBase &b = rewriter;
  OpBuilder::InsertionGuard insertionGuard(b);
  b.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  int64_t rank = loop.getNumLoops();
  // Trip counts; 32-bit arithmetic in the kernel where the static total
  // fits (64-bit division is emulated on NVIDIA GPUs).
  SmallVector<Value> counts;
  SmallVector<int64_t> staticCounts;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    if (std::optional<int64_t> count = getStaticTripCount(lb, ub, step)) {
      staticCounts.push_back(*count);
      counts.push_back(arith::ConstantIndexOp::create(b, loc, *count));
      continue;
    }
    staticCounts.push_back(ShapedType::kDynamic);
    Value span = arith::SubIOp::create(b, loc, ub, lb);
    counts.push_back(arith::CeilDivUIOp::create(b, loc, span, step));
  }
  // 32-bit where the total fits 31 bits (thread ids, coordinates and
  // their unsigned divisions then fit too): decided here for static
  // sizes; with dynamic sizes the kernel comes in both widths and the host
  // launches the one the sizes allow (a dynamic size's static part too
  // large for 32 bits leaves only the wide one).
  bool narrowOnly = true, narrowPossible = true;
  int64_t staticTotal = 1;
  for (int64_t count : staticCounts) {
    if (ShapedType::isDynamic(count)) {
      narrowOnly = false;
      continue;
    }
    if (llvm::MulOverflow(staticTotal, count, staticTotal) ||
        staticTotal >= (int64_t(1) << 31)) {
      narrowOnly = narrowPossible = false;
      break;
    }
  }
  Value total = arith::ConstantIndexOp::create(b, loc, 1);
  for (Value count : counts)
    total = arith::MulIOp::create(b, loc, total, count);
  Value tpb = arith::ConstantIndexOp::create(b, loc, threadsPerBlock);
  Value blocks = arith::CeilDivUIOp::create(b, loc, total, tpb);
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  // CUDA rejects a launch of zero blocks.
  Value any =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, total, c0);
  auto guard = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&guard.getThenRegion().front());

  auto buildLaunch = [&](bool narrow) {
    auto launch = gpu::LaunchOp::create(b, loc, blocks, c1, c1, tpb, c1, c1);
    OpBuilder::InsertionGuard launchGuard(b);
    b.setInsertionPointToStart(&launch.getBody().front());
    gpu::KernelDim3 blockIds = launch.getBlockIds();
    gpu::KernelDim3 threadIds = launch.getThreadIds();
    Type workType = narrow ? Type(b.getI32Type()) : Type(b.getIndexType());
    auto toWork = [&](Value v) -> Value {
      return narrow
                 ? arith::IndexCastUIOp::create(b, loc, workType, v).getResult()
                 : v;
    };
    auto workConst = [&](int64_t v) -> Value {
      return narrow ? arith::ConstantIntOp::create(b, loc, b.getI32Type(), v)
                          .getResult()
                    : arith::ConstantIndexOp::create(b, loc, v).getResult();
    };
    Value id =
        arith::AddIOp::create(b, loc,
                              arith::MulIOp::create(b, loc, toWork(blockIds.x),
                                                    workConst(threadsPerBlock)),
                              toWork(threadIds.x));
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, id,
                                          toWork(total));
    auto body = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
    gpu::TerminatorOp::create(b, loc);
    b.setInsertionPointToStart(&body.getThenRegion().front());
    // Innermost dimension fastest: thread id -> innermost coordinate.
    SmallVector<Value> ivs(rank);
    Value remaining = id;
    for (int64_t d = rank - 1; d >= 0; --d) {
      Value coord = remaining;
      if (d > 0) {
        Value count = !narrow ? counts[d]
                      : ShapedType::isDynamic(staticCounts[d])
                          ? toWork(counts[d])
                          : workConst(staticCounts[d]);
        coord = arith::RemUIOp::create(b, loc, remaining, count);
        remaining = arith::DivUIOp::create(b, loc, remaining, count);
      }
      if (narrow)
        coord = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), coord);
      Value scaled = arith::MulIOp::create(b, loc, coord, loop.getStep()[d]);
      ivs[d] = arith::AddIOp::create(b, loc, loop.getLowerBound()[d], scaled);
    }
    IRMapping mapping;
    mapping.map(loop.getInductionVars(), ivs);
    for (Operation &op : loop.getBody()->without_terminator())
      b.clone(op, mapping);
  };
  if (narrowOnly || !narrowPossible) {
    buildLaunch(narrowOnly);
  } else {
    Value limit = arith::ConstantIndexOp::create(b, loc, int64_t(1) << 31);
    Value fits =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, total, limit);
    auto width = scf::IfOp::create(b, loc, fits, /*withElseRegion=*/true);
    b.setInsertionPointToStart(&width.getThenRegion().front());
    buildLaunch(/*narrow=*/true);
    b.setInsertionPointToStart(&width.getElseRegion().front());
    buildLaunch(/*narrow=*/false);
  }
  b.eraseOp(loop);
}

/// Copies a constant global that kernels read into device memory.
static void copyGlobalToDevice(memref::GetGlobalOp getGlobal) {
  SmallVector<OpOperand *> deviceUses;
  for (OpOperand &use : getGlobal->getUses())
    if (isInsideLaunch(use.getOwner()))
      deviceUses.push_back(&use);
  if (deviceUses.empty())
    return;
  OpBuilder b(getGlobal->getBlock(), std::next(getGlobal->getIterator()));
  Location loc = getGlobal.getLoc();
  auto type = cast<MemRefType>(getGlobal.getType());
  Value device = gpu::AllocOp::create(b, loc, type, Type(), ValueRange{},
                                      ValueRange{}, ValueRange{}, false)
                     .getMemref();
  gpu::MemcpyOp::create(b, loc, Type(), ValueRange{}, device,
                        getGlobal.getResult());
  for (OpOperand *use : deviceUses)
    use->set(device);
  // Freed before every return of the function.
  auto func = getGlobal->getParentOfType<FunctionOpInterface>();
  func->walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::ReturnLike>() &&
        op->getParentOp() == func.getOperation()) {
      OpBuilder rb(op);
      gpu::DeallocOp::create(rb, loc, Type(), ValueRange{}, device);
    }
  });
}

/// The buffer `memref` views, through casts, subviews and reshapes: the
/// memory is the host's or the device's as that buffer's is.
static Value viewedBuffer(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

/// Stack slots, constant globals (the kernels read a device copy:
/// copyGlobalToDevice), buffers kept on the host (and views of them), and
/// the arguments of private host helpers that every caller passes such a
/// buffer.
static bool isHostMemory(Value memref, const llvm::DenseSet<Value> &keptOnHost,
                         SymbolUserMap &callers) {
  memref = viewedBuffer(memref);
  if (memref.getDefiningOp<memref::AllocaOp>() || keptOnHost.contains(memref))
    return true;
  if (auto getGlobal = memref.getDefiningOp<memref::GetGlobalOp>()) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        getGlobal, getGlobal.getNameAttr());
    return global && global.getConstant();
  }
  auto argument = dyn_cast<BlockArgument>(memref);
  if (!argument)
    return false;
  auto fn = dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp());
  if (!fn || !fn.isPrivate() || !HostBuffers::isHostFunction(fn))
    return false;
  return llvm::all_of(callers.getUsers(fn), [&](Operation *user) {
    auto call = dyn_cast<func::CallOp>(user);
    return call && isHostMemory(call.getOperand(argument.getArgNumber()),
                                keptOnHost, callers);
  });
}

/// Whether `buffer` is one the host launches kernels on (a device
/// allocation or a public function's argument), for the stores and loads
/// that lie outside any loop.
static bool isDeviceBuffer(Value buffer, HostBuffers &hostBuffers) {
  // (A gather of constant indices folds to a load from a subview of the
  // data.)
  buffer = viewedBuffer(buffer);
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  auto argument = dyn_cast<BlockArgument>(buffer);
  auto fn = argument
                ? dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp())
                : func::FuncOp();
  return (alloc && !hostBuffers.isHostOnly(alloc.getResult())) ||
         (fn && fn.isPublic());
}

/// Whether `op` may write memory (or has effects it does not state).
static bool mayWrite(Operation *op) {
  if (isMemoryEffectFree(op))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return !effects || effects.hasEffect<MemoryEffects::Write>() ||
         effects.hasEffect<MemoryEffects::Free>();
}

/// The ops of `store`'s block that compute its value from loads of device
/// buffers (a rank-0 consumer's `load, addf, store`), in block order: the
/// side-effect-free ops but views and those loads, where nothing between a
/// load and the store writes memory. The host computes the rest and passes
/// it in.
static SmallVector<Operation *> deviceValueSlice(memref::StoreOp store,
                                                 HostBuffers &hostBuffers) {
  Block *block = store->getBlock();
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work = {store.getValueToStore()};
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    // Views of buffers stay on the host (the kernel takes the view it
    // makes): its lowering expands no view metadata.
    if (!def || def->getBlock() != block || slice.contains(def) ||
        def->getNumRegions() != 0 ||
        llvm::any_of(def->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
      continue;
    if (auto load = dyn_cast<memref::LoadOp>(def)) {
      if (!isDeviceBuffer(load.getMemRef(), hostBuffers))
        continue;
      bool written = false;
      for (Operation *op = def->getNextNode(); op != store;
           op = op->getNextNode())
        written |= mayWrite(op);
      if (written)
        continue;
    } else if (!isMemoryEffectFree(def)) {
      continue;
    }
    slice.insert(def);
    llvm::append_range(work, def->getOperands());
  }
  SmallVector<Operation *> ordered = slice.takeVector();
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// A rank-0 linalg op (a fill of a 0-d output, a consumer of a 0-d gather)
/// bufferizes to a store with no loop around it: give each such store to a
/// device buffer a one-iteration scf.parallel, so that it becomes a
/// one-thread launch like the rest instead of host code touching device
/// memory; the loads of device buffers its value comes from go with it.
static void wrapLoneDeviceStores(ModuleOp module) {
  HostBuffers hostBuffers(module);
  SmallVector<memref::StoreOp> lone;
  module.walk([&](memref::StoreOp store) {
    if (store.getMemRefType().getRank() != 0 ||
        store->getParentOfType<LoopLikeOpInterface>() ||
        isInsideLaunch(store) || store->getParentOfType<gpu::GPUModuleOp>())
      return;
    if (isDeviceBuffer(store.getMemRef(), hostBuffers))
      lone.push_back(store);
  });
  for (memref::StoreOp store : lone) {
    SmallVector<Operation *> slice = deviceValueSlice(store, hostBuffers);
    OpBuilder b(store);
    Location loc = store.getLoc();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ParallelOp::create(b, loc, ValueRange{zero},
                                        ValueRange{one}, ValueRange{one});
    b.setInsertionPoint(loop.getBody()->getTerminator());
    IRMapping inLoop;
    for (Operation *op : slice)
      b.clone(*op, inLoop);
    store->moveBefore(loop.getBody()->getTerminator());
    store.getValueMutable().assign(
        inLoop.lookupOrDefault(store.getValueToStore()));
    for (Operation *op : llvm::reverse(slice))
      if (op->use_empty())
        op->erase();
  }
}

namespace {
struct GatherMapToGPUPass
    : gather::impl::GatherMapToGPUBase<GatherMapToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (threadsPerBlock < 1 || threadsPerBlock > 1024) {
      module.emitError("gather-map-to-gpu: threads-per-block must be in "
                       "[1, 1024], got ")
          << static_cast<int64_t>(threadsPerBlock);
      return signalPassFailure();
    }
    wrapLoneDeviceStores(module);
    SmallVector<scf::ParallelOp> loops;
    module.walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() && !isInsideLaunch(loop))
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops)
      if (failed(mapParallelLoopToGPU(rewriter, loop, threadsPerBlock)))
        return signalPassFailure();

    HostBuffers hostBuffers(module);
    SmallVector<Operation *> hostOps;
    llvm::DenseSet<Value> keptOnHost;
    module.walk([&](Operation *op) {
      if (!isa<memref::GetGlobalOp, memref::AllocOp, memref::DeallocOp,
               memref::CopyOp>(op) ||
          isInsideLaunch(op) || op->getParentOfType<gpu::GPUModuleOp>())
        return;
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        if (hostBuffers.isHostOnly(alloc.getResult())) {
          keptOnHost.insert(alloc.getResult());
          return;
        }
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        if (keptOnHost.contains(dealloc.getMemref()))
          return;
      hostOps.push_back(op);
    });
    for (Operation *op : hostOps) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      if (auto getGlobal = dyn_cast<memref::GetGlobalOp>(op)) {
        copyGlobalToDevice(getGlobal);
      } else if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        auto device =
            gpu::AllocOp::create(b, loc, alloc.getType(), Type(), ValueRange{},
                                 alloc.getDynamicSizes(), ValueRange{}, false);
        alloc.replaceAllUsesWith(device.getMemref());
        alloc.erase();
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        gpu::DeallocOp::create(b, loc, Type(), ValueRange{},
                               dealloc.getMemref());
        dealloc.erase();
      } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        auto sourceType = cast<MemRefType>(copy.getSource().getType());
        auto targetType = cast<MemRefType>(copy.getTarget().getType());
        if (sourceType.getLayout().isIdentity() &&
            targetType.getLayout().isIdentity()) {
          gpu::MemcpyOp::create(b, loc, Type(), ValueRange{}, copy.getTarget(),
                                copy.getSource());
          copy.erase();
          continue;
        }
        // A strided view: an element-wise copy kernel.
        SmallVector<Value> sizes;
        for (int64_t d = 0; d < targetType.getRank(); ++d)
          sizes.push_back(memref::DimOp::create(b, loc, copy.getTarget(), d));
        scf::ParallelOp loop = buildParallelOverShape(
            b, loc, sizes, [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
              Value v = memref::LoadOp::create(nb, nloc, copy.getSource(), ivs);
              memref::StoreOp::create(nb, nloc, v, copy.getTarget(), ivs);
            });
        copy.erase();
        if (failed(mapParallelLoopToGPU(rewriter, loop, threadsPerBlock)))
          return signalPassFailure();
      }
    }
    // Kernel loads and stores state their natural alignment: the NVPTX
    // lowering otherwise takes the default data layout's (4 bytes for i64)
    // and splits 64-bit accesses in two.
    module.walk([&](gpu::LaunchOp launch) {
      launch.walk([&](Operation *op) {
        if (!isa<memref::LoadOp, memref::StoreOp>(op) ||
            op->hasAttr("alignment"))
          return;
        Type type =
            isa<memref::LoadOp>(op)
                ? cast<memref::LoadOp>(op).getMemRefType().getElementType()
                : cast<memref::StoreOp>(op).getMemRefType().getElementType();
        if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() < 8)
          return;
        op->setAttr("alignment",
                    IntegerAttr::get(IntegerType::get(op->getContext(), 64),
                                     type.getIntOrFloatBitWidth() / 8));
      });
    });

    // Anything that still reads or writes memory on the host would touch
    // device buffers from the CPU: reject it instead of crashing at run time.
    // The callers of every function are collected once: a walk of the
    // module per host load took most of the pass for large modules.
    SymbolTableCollection symbolTables;
    SymbolUserMap callers(symbolTables, module);
    WalkResult result = module.walk([&](Operation *op) {
      if (isInsideLaunch(op) || op->getParentOfType<gpu::GPUModuleOp>())
        return WalkResult::advance();
      Value memref;
      if (auto load = dyn_cast<memref::LoadOp>(op))
        memref = load.getMemRef();
      else if (auto store = dyn_cast<memref::StoreOp>(op))
        memref = store.getMemRef();
      if (memref && !isHostMemory(memref, keptOnHost, callers)) {
        op->emitOpError("on the host would access device memory; "
                        "gather-map-to-gpu cannot place it on the GPU");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
