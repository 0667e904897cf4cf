// Prints hostScalableVectorBits() for test/Target/host-vector-length.test.
#include "gather/Target/HostVectorLength.h"

#include <cstdio>

int main() {
  std::printf("scalable vector bits: %lld\n",
              static_cast<long long>(mlir::gather::hostScalableVectorBits()));
  return 0;
}
