//===- GatherFastCall.c - one C call per Python call of a program ---------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The optional accelerator of python/gather/jit.py's Program.__call__. The
// plain-Python call checks the arguments, builds ctypes arrays, calls the C
// API and wraps each result in numpy: about 150 microseconds on W5 of
// bench/run.py when a 1 ms gather has pushed the interpreter's code out of
// the caches, 14% of the call. Here the same work is one C function.
//
// It does only the common case: numpy arrays, C-contiguous, in native byte
// order, of the signature's element types and static sizes. Anything else
// returns NotImplemented and jit.py takes its plain path, which converts
// what it can and words every error: the rules and the messages stay in
// one place.
//
// The module does not link libGatherCAPI.so: jit.py hands it the addresses
// of gatherProgramRunEntry, gatherProgramRunIntoEntry and gatherFree of the
// library it loaded, since two copies of that library cannot share a
// process. A Caller runs the entry whose signature it checks against, by
// name: calls need no lock (the C API's runs of one program may overlap),
// and a select on another thread changes only the Callers made after it.
//
//===----------------------------------------------------------------------===//

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include "gather-c/Gather.h"

#include <stdint.h>
#include <string.h>

typedef int (*RunFunction)(GatherProgram *, const char *, void *const *,
                           const int64_t *const *, void **, int64_t **, char *,
                           size_t);
typedef int (*RunIntoFunction)(GatherProgram *, const char *, void *const *,
                               const int64_t *const *, void *const *,
                               const int64_t *const *, char *, size_t);
typedef void (*FreeFunction)(void *);

// Beyond these the plain path runs.
enum { kMaxValues = 16, kMaxRank = 16, kErrorBytes = 4096 };

// What an argument or a result must be: numpy's kind ('f', 'b', or 'i',
// which takes 'u' too, as jit.py's dtype table does), item size and sizes
// (-1: dynamic).
typedef struct {
  char kind;
  int itemSize;
  int rank;
  npy_intp sizes[kMaxRank];
} ValueSpec;

typedef struct {
  PyObject_HEAD GatherProgram *program;
  RunFunction run;
  RunIntoFunction runInto;
  FreeFunction free;
  PyObject *entry;     // the function's name (bytes)
  PyObject *errorType; // gather.jit.GatherError
  int numInputs, numResults;
  ValueSpec inputs[kMaxValues];
  ValueSpec results[kMaxValues];
  PyArray_Descr *resultDescrs[kMaxValues]; // each result's default dtype
} Caller;

static void Caller_dealloc(Caller *self) {
  Py_XDECREF(self->entry);
  Py_XDECREF(self->errorType);
  for (int r = 0; r < self->numResults; ++r)
    Py_XDECREF(self->resultDescrs[r]);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

// (kind, item size, sizes) into `spec`; a Python error on a bad form.
static int parseSpec(PyObject *item, ValueSpec *spec) {
  const char *kind;
  PyObject *sizes;
  if (!PyArg_ParseTuple(item, "siO!", &kind, &spec->itemSize, &PyTuple_Type,
                        &sizes))
    return -1;
  spec->kind = kind[0];
  spec->rank = (int)PyTuple_GET_SIZE(sizes);
  if (spec->rank > kMaxRank) {
    PyErr_SetString(PyExc_ValueError, "rank beyond the fast call's");
    return -1;
  }
  for (int d = 0; d < spec->rank; ++d) {
    spec->sizes[d] = PyLong_AsSsize_t(PyTuple_GET_ITEM(sizes, d));
    if (spec->sizes[d] == -1 && PyErr_Occurred())
      return -1;
  }
  return 0;
}

// Caller(handle, run, run_into, free, entry, error_type, inputs, results):
// addresses as integers; inputs and results tuples of (kind, item size,
// sizes); results also give each default dtype as a fourth item.
static int Caller_init(Caller *self, PyObject *args, PyObject *kwargs) {
  (void)kwargs; // (none taken)
  unsigned long long handle, run, runInto, freeAddress;
  PyObject *entry, *errorType, *inputs, *results;
  if (!PyArg_ParseTuple(args, "KKKKO!OO!O!", &handle, &run, &runInto,
                        &freeAddress, &PyBytes_Type, &entry, &errorType,
                        &PyTuple_Type, &inputs, &PyTuple_Type, &results))
    return -1;
  if (PyTuple_GET_SIZE(inputs) > kMaxValues ||
      PyTuple_GET_SIZE(results) > kMaxValues) {
    PyErr_SetString(PyExc_ValueError, "more values than the fast call takes");
    return -1;
  }
  self->program = (GatherProgram *)(uintptr_t)handle;
  self->run = (RunFunction)(uintptr_t)run;
  self->runInto = (RunIntoFunction)(uintptr_t)runInto;
  self->free = (FreeFunction)(uintptr_t)freeAddress;
  Py_INCREF(entry);
  Py_XSETREF(self->entry, entry);
  Py_INCREF(errorType);
  Py_XSETREF(self->errorType, errorType);
  for (int r = 0; r < self->numResults; ++r)
    Py_CLEAR(self->resultDescrs[r]);
  self->numInputs = self->numResults = 0;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(inputs); ++i) {
    if (parseSpec(PyTuple_GET_ITEM(inputs, i), &self->inputs[i]))
      return -1;
    ++self->numInputs;
  }
  for (Py_ssize_t r = 0; r < PyTuple_GET_SIZE(results); ++r) {
    PyObject *item = PyTuple_GET_ITEM(results, r);
    PyObject *dtype;
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 4) {
      PyErr_SetString(PyExc_TypeError,
                      "a result is (kind, size, sizes, dtype)");
      return -1;
    }
    PyObject *head = PyTuple_GetSlice(item, 0, 3);
    int failed = !head || parseSpec(head, &self->results[r]);
    Py_XDECREF(head);
    if (failed)
      return -1;
    dtype = PyTuple_GET_ITEM(item, 3);
    if (!PyArray_DescrCheck(dtype)) {
      PyErr_SetString(PyExc_TypeError,
                      "a result's dtype must be a numpy dtype");
      return -1;
    }
    Py_INCREF(dtype);
    self->resultDescrs[r] = (PyArray_Descr *)dtype;
    ++self->numResults;
  }
  return 0;
}

// Whether `descr` holds elements of `spec` in native byte order.
static int matchesElement(PyArray_Descr *descr, const ValueSpec *spec) {
  if (descr->elsize != spec->itemSize || !PyArray_ISNBO(descr->byteorder))
    return 0;
  if (spec->kind == 'i')
    return descr->kind == 'i' || descr->kind == 'u';
  return descr->kind == spec->kind;
}

// Whether `object` is an array the compiled code can take as it is: C
// order, native elements of `spec`, its rank and static sizes.
static int isFastArray(PyObject *object, const ValueSpec *spec, int writeable) {
  if (!PyArray_CheckExact(object))
    return 0;
  PyArrayObject *array = (PyArrayObject *)object;
  if (!PyArray_IS_C_CONTIGUOUS(array) ||
      (writeable && !PyArray_ISWRITEABLE(array)) ||
      PyArray_NDIM(array) != spec->rank ||
      !matchesElement(PyArray_DESCR(array), spec))
    return 0;
  const npy_intp *sizes = PyArray_DIMS(array);
  for (int d = 0; d < spec->rank; ++d)
    if (spec->sizes[d] >= 0 && sizes[d] != spec->sizes[d])
      return 0;
  return 1;
}

// The arrays' addresses and sizes; 0 when one is not a fast array.
typedef struct {
  void *data[kMaxValues];
  int64_t sizes[kMaxValues][kMaxRank];
  const int64_t *sizePointers[kMaxValues];
} Buffers;

static int collect(PyObject *const *objects, int count, const ValueSpec *specs,
                   int writeable, Buffers *buffers) {
  for (int i = 0; i < count; ++i) {
    if (!isFastArray(objects[i], &specs[i], writeable))
      return 0;
    PyArrayObject *array = (PyArrayObject *)objects[i];
    buffers->data[i] = PyArray_DATA(array);
    for (int d = 0; d < specs[i].rank; ++d)
      buffers->sizes[i][d] = PyArray_DIMS(array)[d];
    buffers->sizePointers[i] = buffers->sizes[i];
  }
  return 1;
}

// The result dtypes asked for (None: the defaults) into `descrs`, borrowed;
// 0 when they are not dtypes of the results' element types.
static int resultDtypes(Caller *self, PyObject *given, PyArray_Descr **descrs) {
  if (given == Py_None) {
    for (int r = 0; r < self->numResults; ++r)
      descrs[r] = self->resultDescrs[r];
    return 1;
  }
  if (!PyList_CheckExact(given) && !PyTuple_CheckExact(given))
    return 0;
  if (PySequence_Fast_GET_SIZE(given) != self->numResults)
    return 0;
  for (int r = 0; r < self->numResults; ++r) {
    PyObject *item = PySequence_Fast_GET_ITEM(given, r);
    if (!PyArray_DescrCheck(item) ||
        !matchesElement((PyArray_Descr *)item, &self->results[r]))
      return 0;
    descrs[r] = (PyArray_Descr *)item;
  }
  return 1;
}

// Calls `call` with the GIL released; the Python error of a failed run.
typedef struct {
  Caller *self;
  Buffers *inputs;
  void **resultData;
  int64_t **resultSizes;
  Buffers *outputs;
} Call;

static int invoke(Call *call) {
  Caller *self = call->self;
  char error[kErrorBytes];
  error[0] = '\0';
  // The name's bytes live as long as the Caller, which the call holds.
  const char *entry = PyBytes_AS_STRING(self->entry);
  int status;
  Py_BEGIN_ALLOW_THREADS;
  if (call->outputs)
    status = self->runInto(self->program, entry, call->inputs->data,
                           call->inputs->sizePointers, call->outputs->data,
                           call->outputs->sizePointers, error, sizeof(error));
  else
    status = self->run(self->program, entry, call->inputs->data,
                       call->inputs->sizePointers, call->resultData,
                       call->resultSizes, error, sizeof(error));
  Py_END_ALLOW_THREADS;
  if (status == 0)
    return 0;
  PyObject *message =
      PyUnicode_DecodeUTF8(error, (Py_ssize_t)strlen(error), "replace");
  if (message) {
    PyErr_SetObject(self->errorType, message);
    Py_DECREF(message);
  }
  return -1;
}

static void freeResult(PyObject *capsule) {
  FreeFunction free = (FreeFunction)PyCapsule_GetContext(capsule);
  free(PyCapsule_GetPointer(capsule, "gather.result"));
}

// An array over the result buffer `data` (no copy), which frees it with the
// last reference; `data` is freed on a failure too.
static PyObject *wrapResult(Caller *self, void *data, int64_t *sizes, int rank,
                            PyArray_Descr *descr) {
  npy_intp dims[kMaxRank];
  for (int d = 0; d < rank; ++d)
    dims[d] = (npy_intp)sizes[d];
  Py_INCREF(descr); // (taken by the call)
  PyObject *array = PyArray_NewFromDescr(&PyArray_Type, descr, rank, dims, NULL,
                                         data, NPY_ARRAY_CARRAY, NULL);
  if (!array || !data) { // (numpy allocated an empty array's own memory)
    self->free(data);
    return array;
  }
  PyObject *capsule = PyCapsule_New(data, "gather.result", freeResult);
  if (!capsule || PyCapsule_SetContext(capsule, (void *)self->free)) {
    if (!capsule)
      self->free(data);
    Py_XDECREF(capsule);
    Py_DECREF(array);
    return NULL;
  }
  if (PyArray_SetBaseObject((PyArrayObject *)array, capsule)) {
    Py_DECREF(array);
    return NULL;
  }
  return array;
}

// call(arrays, result_dtypes): the results in new arrays, or NotImplemented.
static PyObject *Caller_call(Caller *self, PyObject *const *args,
                             Py_ssize_t nargs) {
  if (nargs != 2 || !PyTuple_CheckExact(args[0])) {
    PyErr_SetString(PyExc_TypeError, "call(arrays, result_dtypes)");
    return NULL;
  }
  PyObject *arrays = args[0];
  PyArray_Descr *descrs[kMaxValues];
  Buffers inputs;
  if (PyTuple_GET_SIZE(arrays) != self->numInputs ||
      !collect(PySequence_Fast_ITEMS(arrays), self->numInputs, self->inputs, 0,
               &inputs) ||
      !resultDtypes(self, args[1], descrs))
    Py_RETURN_NOTIMPLEMENTED;
  void *resultData[kMaxValues];
  int64_t *resultSizes[kMaxValues];
  Call call = {self, &inputs, resultData, resultSizes, NULL};
  if (invoke(&call))
    return NULL;
  PyObject *results[kMaxValues];
  int failed = 0;
  for (int r = 0; r < self->numResults; ++r) {
    results[r] = NULL;
    if (!failed)
      results[r] = wrapResult(self, resultData[r], resultSizes[r],
                              self->results[r].rank, descrs[r]);
    else
      self->free(resultData[r]);
    self->free(resultSizes[r]);
    failed |= results[r] == NULL;
  }
  if (failed) {
    for (int r = 0; r < self->numResults; ++r)
      Py_XDECREF(results[r]);
    return NULL;
  }
  if (self->numResults == 1)
    return results[0];
  PyObject *tuple = PyTuple_New(self->numResults);
  if (!tuple) {
    for (int r = 0; r < self->numResults; ++r)
      Py_DECREF(results[r]);
    return NULL;
  }
  for (int r = 0; r < self->numResults; ++r)
    PyTuple_SET_ITEM(tuple, r, results[r]);
  return tuple;
}

// into(arrays, out, result_dtypes): `out` written, or NotImplemented.
static PyObject *Caller_into(Caller *self, PyObject *const *args,
                             Py_ssize_t nargs) {
  if (nargs != 3 || !PyTuple_CheckExact(args[0])) {
    PyErr_SetString(PyExc_TypeError, "into(arrays, out, result_dtypes)");
    return NULL;
  }
  PyObject *arrays = args[0], *out = args[1];
  PyObject *const *outs = &out;
  Py_ssize_t numOuts = 1;
  if (PyTuple_Check(out)) {
    outs = PySequence_Fast_ITEMS(out);
    numOuts = PyTuple_GET_SIZE(out);
  }
  PyArray_Descr *descrs[kMaxValues];
  Buffers inputs, outputs;
  if (PyTuple_GET_SIZE(arrays) != self->numInputs ||
      numOuts != self->numResults ||
      !collect(PySequence_Fast_ITEMS(arrays), self->numInputs, self->inputs, 0,
               &inputs) ||
      !collect(outs, self->numResults, self->results, 1, &outputs) ||
      !resultDtypes(self, args[2], descrs))
    Py_RETURN_NOTIMPLEMENTED;
  // Dtypes asked for must be the outputs' own.
  if (args[2] != Py_None)
    for (int r = 0; r < self->numResults; ++r)
      if (!PyArray_EquivTypes(PyArray_DESCR((PyArrayObject *)outs[r]),
                              descrs[r]))
        Py_RETURN_NOTIMPLEMENTED;
  Call call = {self, &inputs, NULL, NULL, &outputs};
  if (invoke(&call))
    return NULL;
  Py_INCREF(out);
  return out;
}

static PyMethodDef Caller_methods[] = {
    {"call", (PyCFunction)(void (*)(void))Caller_call, METH_FASTCALL,
     "call(arrays, result_dtypes): the results in new arrays, or "
     "NotImplemented where the plain path must run"},
    {"into", (PyCFunction)(void (*)(void))Caller_into, METH_FASTCALL,
     "into(arrays, out, result_dtypes): `out` written, or NotImplemented"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject CallerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "_gather_fastcall.Caller",
    .tp_basicsize = sizeof(Caller),
    .tp_dealloc = (destructor)Caller_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The fast call of one gather program's selected function.",
    .tp_methods = Caller_methods,
    .tp_init = (initproc)Caller_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef fastCallModule = {
    PyModuleDef_HEAD_INIT, .m_name = "_gather_fastcall",
    .m_doc = "One C call per Python call of a gather program.", .m_size = -1};

PyMODINIT_FUNC PyInit__gather_fastcall(void) {
  import_array();
  if (PyType_Ready(&CallerType) < 0)
    return NULL;
  PyObject *module = PyModule_Create(&fastCallModule);
  if (!module)
    return NULL;
  Py_INCREF(&CallerType);
  if (PyModule_AddObject(module, "Caller", (PyObject *)&CallerType) < 0) {
    Py_DECREF(&CallerType);
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
