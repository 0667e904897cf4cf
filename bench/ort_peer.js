// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ONNX Runtime's CPU kernels as a peer of bench/run.py, from Node.js (the
// npm package onnxruntime-node; `npm install --ignore-scripts
// onnxruntime-node` in the directory given to run.py's --ort).
//
//   node ort_peer.js SPEC.json
//
// SPEC: {"model": path, "inputs": [{"name", "type", "dims", "file"}],
// "output": path, "runs": N, "threads": T, "profile": prefix}. Runs the
// model once to warm up and N more times with ORT's profiler on, writes the
// first output's raw bytes to "output", and leaves the profile as
// PREFIX_<time>.json, where the harness reads the gather node's kernel
// times.
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

const ARRAYS = {
  float32: Float32Array,
  float16: Uint16Array,
  int32: Int32Array,
  int64: BigInt64Array,
};

(async () => {
  const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const feeds = {};
  for (const input of spec.inputs) {
    const bytes = fs.readFileSync(input.file);
    const Array = ARRAYS[input.type];
    const copy = new Uint8Array(bytes.length);
    copy.set(bytes);
    feeds[input.name] = new ort.Tensor(
        input.type, new Array(copy.buffer, 0, bytes.length / Array.BYTES_PER_ELEMENT),
        input.dims);
  }
  const session = await ort.InferenceSession.create(spec.model, {
    intraOpNumThreads: spec.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableProfiling: true,
    profileFilePrefix: spec.profile,
  });
  let result;
  for (let run = 0; run <= spec.runs; ++run)
    result = await session.run(feeds);
  const output = result[session.outputNames[0]];
  fs.writeFileSync(spec.output, Buffer.from(output.data.buffer, output.data.byteOffset,
                                            output.data.byteLength));
  if (session.endProfiling)
    session.endProfiling();
  await session.release();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
