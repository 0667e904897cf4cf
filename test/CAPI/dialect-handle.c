/* The gather dialect through the MLIR C API: register it in a context with
   the dialect handle, parse and verify a gather op, print it; then compile
   and run a gather with the compile-and-run entry points and check the
   numbers, and an out-of-bounds index comes back as an error; then run it
   into a buffer of the caller's (gatherProgramRunInto), and a buffer of the
   wrong size is an error that leaves it untouched; then the options struct
   (gatherProgramCreateWithOptions) and its rejected settings. */
// RUN: gather-capi-test 2>&1 | FileCheck %s

#include "gather-c/Gather.h"

#include "mlir-c/IR.h"

#include <stdio.h>
#include <string.h>

static const char *kModule =
    "func.func @main(%d: tensor<?x3xf32>, %i: tensor<?xi64>) -> "
    "tensor<?x3xf32> {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %n = tensor.dim %i, %c0 : tensor<?xi64>\n"
    "  %init = tensor.empty(%n) : tensor<?x3xf32>\n"
    "  %0 = gather.block %d[%i] axis = 0 into %init : tensor<?x3xf32>, "
    "tensor<?xi64> into tensor<?x3xf32>\n"
    "  return %0 : tensor<?x3xf32>\n"
    "}\n";

static void printToFile(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

int main(void) {
  MlirContext context = mlirContextCreate();
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__gather__(), context);
  mlirContextGetOrLoadDialect(context,
                              mlirStringRefCreateFromCString("gather"));
  /* func and tensor are needed to parse the module. */
  mlirContextSetAllowUnregisteredDialects(context, 0);
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kModule));
  /* func is not registered in this bare context: parsing must fail cleanly,
     and the gather dialect alone must be loaded. */
  printf("parsed without func: %s\n", mlirModuleIsNull(module) ? "no" : "yes");
  MlirDialect dialect = mlirContextGetOrLoadDialect(
      context, mlirStringRefCreateFromCString("gather"));
  MlirStringRef ns = mlirDialectGetNamespace(dialect);
  printf("dialect: %.*s\n", (int)ns.length, ns.data);
  // CHECK: parsed without func: no
  // CHECK: dialect: gather
  const char *genericOp =
      "%d = \"test.d\"() : () -> tensor<4x3xf32>\n"
      "%i = \"test.i\"() : () -> tensor<2xi64>\n"
      "%e = \"test.e\"() : () -> tensor<2x3xf32>\n"
      "%0 = gather.block %d[%i] axis = -2 out_of_bounds = clamp into %e : "
      "tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>\n";
  mlirContextSetAllowUnregisteredDialects(context, 1);
  MlirModule ops =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(genericOp));
  printf("verified: %s\n",
         !mlirModuleIsNull(ops) &&
                 mlirOperationVerify(mlirModuleGetOperation(ops))
             ? "yes"
             : "no");
  mlirOperationPrint(mlirModuleGetOperation(ops), printToFile, stdout);
  printf("\n");
  // CHECK: verified: yes
  // CHECK: gather.block %{{.*}}[%{{.*}}] axis = -2 out_of_bounds = clamp
  mlirModuleDestroy(ops);
  mlirContextDestroy(context);

  char error[2048];
  GatherProgram *program =
      gatherProgramCreate(kModule, NULL, "cpu", 1, error, sizeof(error));
  if (!program) {
    printf("compile failed: %s\n", error);
    return 1;
  }
  printf("signature: %d inputs (%s rank %lld, dim 1 = %lld), %d result\n",
         gatherProgramNumInputs(program),
         gatherProgramInputElementType(program, 0),
         (long long)gatherProgramInputRank(program, 0),
         (long long)gatherProgramInputDim(program, 0, 1),
         gatherProgramNumResults(program));
  // CHECK: signature: 2 inputs (f32 rank 2, dim 1 = 3), 1 result
  float data[12];
  for (int k = 0; k < 12; ++k)
    data[k] = (float)k;
  long long ids[3] = {3, -4, 1};
  int64_t dataShape[2] = {4, 3}, idsShape[1] = {3};
  void *inputs[2] = {data, ids};
  const int64_t *shapes[2] = {dataShape, idsShape};
  void *resultData[1];
  int64_t *resultShapes[1];
  if (gatherProgramRun(program, inputs, shapes, resultData, resultShapes, error,
                       sizeof(error))) {
    printf("run failed: %s\n", error);
    return 1;
  }
  float *out = (float *)resultData[0];
  printf("result %lldx%lld:", (long long)resultShapes[0][0],
         (long long)resultShapes[0][1]);
  for (int k = 0; k < 9; ++k)
    printf(" %g", out[k]);
  printf("\n");
  // CHECK: result 3x3: 9 10 11 0 1 2 3 4 5
  gatherFree(resultData[0]);
  gatherFree(resultShapes[0]);
  ids[1] = 4;
  int rc = gatherProgramRun(program, inputs, shapes, resultData, resultShapes,
                            error, sizeof(error));
  printf("out of bounds: rc=%d %s\n", rc, error);
  // CHECK: out of bounds: rc=1 gather.block at <gather module>:5:8: index 4 at
  // indices[1] is out of range [-4, 3] for dimension 0 (size 4)
  gatherProgramDestroy(program);
  printf("bad device: %s\n",
         gatherProgramCreate(kModule, NULL, "tpu", 0, error, sizeof(error))
             ? "accepted"
             : error);
  // CHECK: bad device: unknown device 'tpu' (cpu or gpu)

  /* The result written into the caller's buffer by the compiled code. */
  program = gatherProgramCreateWithFlags(kModule, NULL, "cpu", 1, 3,
                                         GATHER_PROGRAM_DESTINATION_ENTRIES,
                                         error, sizeof(error));
  if (!program) {
    printf("compile failed: %s\n", error);
    return 1;
  }
  ids[1] = -4;
  float buffer[9];
  for (int k = 0; k < 9; ++k)
    buffer[k] = -1.0f;
  void *outputs[1] = {buffer};
  int64_t bufferShape[2] = {3, 3};
  const int64_t *outputShapes[1] = {bufferShape};
  rc = gatherProgramRunInto(program, inputs, shapes, outputs, outputShapes,
                            error, sizeof(error));
  printf("into: rc=%d in place %d:", rc, gatherProgramWritesInPlace(program));
  for (int k = 0; k < 9; ++k)
    printf(" %g", buffer[k]);
  printf("\n");
  // CHECK: into: rc=0 in place 1: 9 10 11 0 1 2 3 4 5
  int64_t wrongShape[2] = {2, 3};
  outputShapes[0] = wrongShape;
  buffer[0] = -1.0f;
  rc = gatherProgramRunInto(program, inputs, shapes, outputs, outputShapes,
                            error, sizeof(error));
  printf("wrong size: rc=%d %s, untouched %d\n", rc, error, buffer[0] == -1.0f);
  // CHECK: wrong size: rc=1 output 0: dimension 0 is 2 but the result's is 3,
  // untouched 1
  gatherProgramDestroy(program);

  /* Every setting in one struct: LLVM on one compile thread at -O1, the IR
     verified after every pass. */
  GatherProgramOptions options;
  gatherProgramOptionsInit(NULL);
  gatherProgramOptionsInit(&options);
  printf("defaults: device %s, opt level %d, compile threads %d, verify each "
         "%d\n",
         options.device, options.optLevel, options.compileThreads,
         options.verifyEach);
  // CHECK: defaults: device cpu, opt level 3, compile threads 0, verify each 0
  options.threads = 1;
  options.optLevel = 1;
  options.compileThreads = 1;
  options.verifyEach = 1;
  program = gatherProgramCreateWithOptions(kModule, NULL, &options, error,
                                           sizeof(error));
  if (!program) {
    printf("compile failed: %s\n", error);
    return 1;
  }
  rc = gatherProgramRun(program, inputs, shapes, resultData, resultShapes,
                        error, sizeof(error));
  out = (float *)resultData[0];
  printf("options: rc=%d:", rc);
  for (int k = 0; rc == 0 && k < 9; ++k)
    printf(" %g", out[k]);
  printf("\n");
  // CHECK: options: rc=0: 9 10 11 0 1 2 3 4 5
  gatherFree(resultData[0]);
  gatherFree(resultShapes[0]);
  gatherProgramDestroy(program);
  options.compileThreads = -1;
  printf("negative compile threads: %s\n",
         gatherProgramCreateWithOptions(kModule, NULL, &options, error,
                                        sizeof(error))
             ? "accepted"
             : error);
  // CHECK: negative compile threads: options: compileThreads -1 is negative
  options.compileThreads = 0;
  options.optLevel = 4;
  printf("opt level 4: %s\n", gatherProgramCreateWithOptions(
                                  kModule, NULL, &options, error, sizeof(error))
                                  ? "accepted"
                                  : error);
  // CHECK: opt level 4: optimization level 4 is out of range [0, 3]
  options.optLevel = 3;
  options.structSize = 0;
  printf("no struct size: %s\n",
         gatherProgramCreateWithOptions(kModule, NULL, &options, error,
                                        sizeof(error))
             ? "accepted"
             : error);
  // CHECK: no struct size: options: structSize 0 is out of range [8,
  // CHECK-SAME: fill the options with gatherProgramOptionsInit
  return 0;
}
