# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The test harnesses of check-gather (differential tests against the numpy
reference, tiling tests, the PTX checks, the ONNX conformance runner, the
specification's examples). Not part of the installed `gather` package: lit
puts test/lib on PYTHONPATH beside python/."""
