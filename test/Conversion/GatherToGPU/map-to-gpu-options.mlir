// RUN: not gather-opt %s --gather-map-to-gpu=threads-per-block=2048 2>&1 | FileCheck %s
// CHECK: error: gather-map-to-gpu: threads-per-block must be in [1, 1024], got 2048
func.func @f() {
  return
}
