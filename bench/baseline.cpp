// Hand-written gather loops for the benchmark (g++ -O3 -march=native
// -fopenmp): the same semantics as the compiled kernels' default policy
// (negative indices wrap; every index is checked once before the gather).
//
//   baseline WORKLOAD DIR RUNS THREADS  -> prints the median milliseconds
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <omp.h>
#include <string>
#include <vector>

template <typename T> static std::vector<T> load(const std::string &path, size_t count) {
  std::vector<T> v(count);
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f || std::fread(v.data(), sizeof(T), count, f) != count) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::fclose(f);
  return v;
}

// Wraps negatives and checks bounds once; returns false on a bad index.
static bool normalize(std::vector<int64_t> &idx, int64_t size, int64_t period = 1,
                      const int64_t *sizes = nullptr) {
  bool ok = true;
#pragma omp parallel for reduction(&& : ok)
  for (int64_t i = 0; i < (int64_t)idx.size(); ++i) {
    int64_t s = sizes ? sizes[i % period] : size;
    int64_t v = idx[i] < 0 ? idx[i] + s : idx[i];
    ok = ok && v >= 0 && v < s;
    idx[i] = v;
  }
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: baseline W1..W5 DIR RUNS THREADS\n");
    return 2;
  }
  std::string w = argv[1], dir = argv[2];
  int runs = std::atoi(argv[3]);
  omp_set_num_threads(std::atoi(argv[4]));
  std::vector<double> times;
  for (int run = 0; run < runs; ++run) {
    std::vector<float> out;
    // Loading is outside the timed region; index normalization is inside
    // (the compiled kernels check and wrap at run time too).
    if (w == "W1") {
      const int64_t N = 50000, D = 768, K = 8192;
      static auto data = load<float>(dir + "/W1_data.bin", N * D);
      auto idx0 = load<int64_t>(dir + "/W1_idx.bin", K);
      out.assign(K * D, 0);
      auto t0 = std::chrono::steady_clock::now();
      auto idx = idx0;
      if (!normalize(idx, N)) return 1;
#pragma omp parallel for
      for (int64_t k = 0; k < K; ++k)
        std::memcpy(&out[k * D], &data[idx[k] * D], D * sizeof(float));
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    } else if (w == "W2") {
      const int64_t A = 64, B = 1000, C = 256, K = 500;
      static auto data = load<float>(dir + "/W2_data.bin", A * B * C);
      auto idx0 = load<int64_t>(dir + "/W2_idx.bin", K);
      out.assign(A * K * C, 0);
      auto t0 = std::chrono::steady_clock::now();
      auto idx = idx0;
      if (!normalize(idx, B)) return 1;
#pragma omp parallel for collapse(2)
      for (int64_t a = 0; a < A; ++a)
        for (int64_t k = 0; k < K; ++k)
          std::memcpy(&out[(a * K + k) * C], &data[(a * B + idx[k]) * C], C * sizeof(float));
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    } else if (w == "W3") {
      const int64_t R = 4096, C = 4096, K = 1024;
      static auto data = load<float>(dir + "/W3_data.bin", R * C);
      auto idx0 = load<int64_t>(dir + "/W3_idx.bin", R * K);
      out.assign(R * K, 0);
      auto t0 = std::chrono::steady_clock::now();
      auto idx = idx0;
      if (!normalize(idx, C)) return 1;
#pragma omp parallel for
      for (int64_t r = 0; r < R; ++r)
        for (int64_t k = 0; k < K; ++k)
          out[r * K + k] = data[r * C + idx[r * K + k]];
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    } else if (w == "W4") {
      const int64_t B = 16, H = 512, W = 512, C = 4, K = 65536;
      static auto data = load<float>(dir + "/W4_data.bin", B * H * W * C);
      auto idx0 = load<int64_t>(dir + "/W4_idx.bin", B * K * 2);
      out.assign(B * K * C, 0);
      auto t0 = std::chrono::steady_clock::now();
      auto idx = idx0;
      int64_t sizes[2] = {H, W};
      if (!normalize(idx, 0, 2, sizes)) return 1;
#pragma omp parallel for collapse(2)
      for (int64_t b = 0; b < B; ++b)
        for (int64_t k = 0; k < K; ++k) {
          const int64_t *p = &idx[(b * K + k) * 2];
          std::memcpy(&out[(b * K + k) * C], &data[((b * H + p[0]) * W + p[1]) * C], C * sizeof(float));
        }
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    } else if (w == "W5") {
      const int64_t N = 32, H = 56, W = 56, C = 64, R = 8, P = 16;
      static auto data = load<float>(dir + "/W5_data.bin", N * H * W * C);
      auto idx0 = load<int64_t>(dir + "/W5_idx.bin", R * P * 2);
      out.assign(R * H * W * P, 0);
      auto t0 = std::chrono::steady_clock::now();
      auto idx = idx0;
      int64_t sizes[2] = {N, C};
      if (!normalize(idx, 0, 2, sizes)) return 1;
#pragma omp parallel for collapse(2)
      for (int64_t r = 0; r < R; ++r)
        for (int64_t h = 0; h < H; ++h)
          for (int64_t x = 0; x < W; ++x)
            for (int64_t p = 0; p < P; ++p) {
              const int64_t *c = &idx[(r * P + p) * 2];
              out[((r * H + h) * W + x) * P + p] = data[((c[0] * H + h) * W + x) * C + c[1]];
            }
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    } else {
      std::fprintf(stderr, "unknown workload %s\n", w.c_str());
      return 2;
    }
  }
  std::sort(times.begin(), times.end());
  std::printf("%.4f\n", times[times.size() / 2]);
  return 0;
}
