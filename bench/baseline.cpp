// Hand-written gather loops for the benchmark (g++ -O3 -march=native
// -fopenmp), what a performance engineer would write for each workload:
// one pass, indices read in place (no copy), negative indices wrapped
// inline. Two variants, timed separately:
//   unchecked: no bounds check (a bad index reads out of bounds);
//   checked:   the compiled kernels' default policy: every index checked in
//              the same pass (a flag, decided after the loop; the read goes
//              through index 0 when the index is bad, so it never reads
//              out of bounds), and an error returned instead of the output.
//
// A third figure is the bandwidth reference: a memcpy of the output's bytes
// from a contiguous buffer of the same size, split over the threads in one
// parallel loop (the least time any gather of that output could take).
//
//   baseline WORKLOAD DIR RUNS THREADS  -> prints "UNCHECKED_MS CHECKED_MS
//   MEMCPY_MS" (medians) and writes the output to DIR/WORKLOAD_cpp_out.bin. The output
//   buffer is allocated and touched outside the timed region.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <omp.h>
#include <string>
#include <vector>

template <typename T>
static std::vector<T> load(const std::string &path, size_t count) {
  std::vector<T> v(count);
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f || std::fread(v.data(), sizeof(T), count, f) != count) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::fclose(f);
  return v;
}

static inline int64_t wrap(int64_t v, int64_t size) {
  return v < 0 ? v + size : v;
}

// The index for a read: wrapped; under Checked, 0 for a bad one, and `bad`
// raised.
template <bool Checked>
static inline int64_t resolve(int64_t v, int64_t size, bool &bad) {
  int64_t w = wrap(v, size);
  if (!Checked)
    return w;
  bool ok = w >= 0 && w < size;
  bad |= !ok;
  return ok ? w : 0;
}

// Rows of D elements of type T picked by K indices of type I; serial below
// `parallelRows` rows (thread start-up costs more than a small lookup).
template <bool Checked, typename T, typename I>
static bool rowGather(const std::vector<T> &data, const std::vector<I> &idx,
                      int64_t N, int64_t D, int64_t K, T *out,
                      int64_t parallelRows = 64) {
  bool bad = false;
#pragma omp parallel for reduction(|| : bad) if (K >= parallelRows)
  for (int64_t k = 0; k < K; ++k) {
    int64_t r = resolve<Checked>(static_cast<int64_t>(idx[k]), N, bad);
    std::memcpy(&out[k * D], &data[r * D], D * sizeof(T));
  }
  return !bad;
}

struct Workloads {
  std::string dir;
  std::vector<float> out;
  std::vector<uint16_t> outHalf;

  template <bool Checked> bool W1() {
    const int64_t N = 50000, D = 768, K = 8192;
    static auto data = load<float>(dir + "/W1_data.bin", N * D);
    static auto idx = load<int64_t>(dir + "/W1_idx.bin", K);
    return rowGather<Checked>(data, idx, N, D, K, out.data());
  }

  // W1 with int32 indices.
  template <bool Checked> bool W1i32() {
    const int64_t N = 50000, D = 768, K = 8192;
    static auto data = load<float>(dir + "/W1i32_data.bin", N * D);
    static auto idx = load<int32_t>(dir + "/W1i32_idx.bin", K);
    return rowGather<Checked>(data, idx, N, D, K, out.data());
  }

  // W1 with a half-precision table (rows copied as 16-bit elements).
  template <bool Checked> bool W1f16() {
    const int64_t N = 50000, D = 768, K = 8192;
    static auto data = load<uint16_t>(dir + "/W1f16_data.bin", N * D);
    static auto idx = load<int64_t>(dir + "/W1f16_idx.bin", K);
    return rowGather<Checked>(data, idx, N, D, K, outHalf.data());
  }

  // An inference-sized lookup: 32 rows of a 30000x768 table.
  template <bool Checked> bool W6() {
    const int64_t N = 30000, D = 768, K = 32;
    static auto data = load<float>(dir + "/W6_data.bin", N * D);
    static auto idx = load<int64_t>(dir + "/W6_idx.bin", K);
    return rowGather<Checked>(data, idx, N, D, K, out.data());
  }

  template <bool Checked> bool W2() {
    const int64_t A = 64, B = 1000, C = 256, K = 500;
    static auto data = load<float>(dir + "/W2_data.bin", A * B * C);
    static auto idx = load<int64_t>(dir + "/W2_idx.bin", K);
    bool bad = false;
#pragma omp parallel for collapse(2) reduction(|| : bad)
    for (int64_t a = 0; a < A; ++a)
      for (int64_t k = 0; k < K; ++k) {
        int64_t b = resolve<Checked>(idx[k], B, bad);
        std::memcpy(&out[(a * K + k) * C], &data[(a * B + b) * C],
                    C * sizeof(float));
      }
    return !bad;
  }

  template <bool Checked> bool W3() {
    const int64_t R = 4096, C = 4096, K = 1024;
    static auto data = load<float>(dir + "/W3_data.bin", R * C);
    static auto idx = load<int64_t>(dir + "/W3_idx.bin", R * K);
    bool bad = false;
#pragma omp parallel for reduction(|| : bad)
    for (int64_t r = 0; r < R; ++r) {
      bool rowBad = false;
      for (int64_t k = 0; k < K; ++k)
        out[r * K + k] =
            data[r * C + resolve<Checked>(idx[r * K + k], C, rowBad)];
      bad |= rowBad;
    }
    return !bad;
  }

  template <bool Checked> bool W4() {
    const int64_t B = 16, H = 512, W = 512, C = 4, K = 65536;
    static auto data = load<float>(dir + "/W4_data.bin", B * H * W * C);
    static auto idx = load<int64_t>(dir + "/W4_idx.bin", B * K * 2);
    bool bad = false;
#pragma omp parallel for collapse(2) reduction(|| : bad)
    for (int64_t b = 0; b < B; ++b)
      for (int64_t k = 0; k < K; ++k) {
        const int64_t *p = &idx[(b * K + k) * 2];
        int64_t y = resolve<Checked>(p[0], H, bad);
        int64_t x = resolve<Checked>(p[1], W, bad);
        std::memcpy(&out[(b * K + k) * C], &data[((b * H + y) * W + x) * C],
                    C * sizeof(float));
      }
    return !bad;
  }

  template <bool Checked> bool W5() {
    const int64_t N = 32, H = 56, W = 56, C = 64, R = 8, P = 16;
    static auto data = load<float>(dir + "/W5_data.bin", N * H * W * C);
    static auto idx = load<int64_t>(dir + "/W5_idx.bin", R * P * 2);
    bool bad = false;
#pragma omp parallel for collapse(2) reduction(|| : bad)
    for (int64_t r = 0; r < R; ++r)
      for (int64_t h = 0; h < H; ++h) {
        // The (n, c) pairs of this row, resolved once for the whole row.
        int64_t n[P], c[P];
        for (int64_t p = 0; p < P; ++p) {
          n[p] = resolve<Checked>(idx[(r * P + p) * 2], N, bad);
          c[p] = resolve<Checked>(idx[(r * P + p) * 2 + 1], C, bad);
        }
        for (int64_t x = 0; x < W; ++x)
          for (int64_t p = 0; p < P; ++p)
            out[((r * H + h) * W + x) * P + p] =
                data[((n[p] * H + h) * W + x) * C + c[p]];
      }
    return !bad;
  }
};

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: baseline WORKLOAD DIR RUNS THREADS\n");
    return 2;
  }
  std::string w = argv[1];
  int runs = std::atoi(argv[3]);
  omp_set_num_threads(std::atoi(argv[4]));
  Workloads workloads{argv[2], {}};
  const size_t outSize = w == "W1" || w == "W1i32" || w == "W1f16"
                             ? 8192 * 768
                         : w == "W6" ? 32 * 768
                         : w == "W2" ? 64 * 500 * 256
                         : w == "W3" ? 4096 * 1024
                         : w == "W4" ? 16 * 65536 * 4
                         : w == "W5" ? 8 * 56 * 56 * 16
                                     : 0;
  if (!outSize) {
    std::fprintf(stderr, "unknown workload %s\n", w.c_str());
    return 2;
  }
  bool half = w == "W1f16";
  if (half)
    workloads.outHalf.assign(outSize, 0);
  else
    workloads.out.assign(outSize, 0);
  auto call = [&](bool checked) {
    if (w == "W1")
      return checked ? workloads.W1<true>() : workloads.W1<false>();
    if (w == "W1i32")
      return checked ? workloads.W1i32<true>() : workloads.W1i32<false>();
    if (w == "W1f16")
      return checked ? workloads.W1f16<true>() : workloads.W1f16<false>();
    if (w == "W6")
      return checked ? workloads.W6<true>() : workloads.W6<false>();
    if (w == "W2")
      return checked ? workloads.W2<true>() : workloads.W2<false>();
    if (w == "W3")
      return checked ? workloads.W3<true>() : workloads.W3<false>();
    if (w == "W4")
      return checked ? workloads.W4<true>() : workloads.W4<false>();
    return checked ? workloads.W5<true>() : workloads.W5<false>();
  };
  double medians[2];
  double memcpyMedian = 0;
  for (int checked = 0; checked < 2; ++checked) {
    call(checked); // loads the data outside the timed runs
    std::vector<double> times;
    for (int run = 0; run < runs; ++run) {
      auto t0 = std::chrono::steady_clock::now();
      if (!call(checked)) {
        std::fprintf(stderr, "index out of bounds\n");
        return 1;
      }
      times.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - t0)
                          .count());
    }
    std::sort(times.begin(), times.end());
    medians[checked] = times[times.size() / 2];
  }
  {
    size_t bytes = outSize * (half ? 2 : sizeof(float));
    std::vector<char> source(bytes, 1);
    char *target = half ? reinterpret_cast<char *>(workloads.outHalf.data())
                        : reinterpret_cast<char *>(workloads.out.data());
    std::vector<char> saved(target, target + bytes);
    auto copy = [&] {
      int threads = omp_get_max_threads();
      size_t chunk = (bytes + threads - 1) / threads;
#pragma omp parallel for if (bytes >= (1 << 20))
      for (int t = 0; t < threads; ++t) {
        size_t begin = std::min(bytes, t * chunk);
        size_t end = std::min(bytes, begin + chunk);
        std::memcpy(target + begin, source.data() + begin, end - begin);
      }
    };
    copy();
    std::vector<double> times;
    for (int run = 0; run < runs; ++run) {
      auto t0 = std::chrono::steady_clock::now();
      copy();
      times.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - t0)
                          .count());
    }
    std::sort(times.begin(), times.end());
    memcpyMedian = times[times.size() / 2];
    std::memcpy(target, saved.data(), bytes);
  }
  // The last (checked) output, for the harness to compare with numpy.
  std::string outPath = std::string(argv[2]) + "/" + w + "_cpp_out.bin";
  FILE *f = std::fopen(outPath.c_str(), "wb");
  size_t written =
      f ? (half ? std::fwrite(workloads.outHalf.data(), 2, outSize, f)
                : std::fwrite(workloads.out.data(), sizeof(float), outSize, f))
        : 0;
  if (written != outSize) {
    std::fprintf(stderr, "cannot write %s\n", outPath.c_str());
    return 1;
  }
  std::fclose(f);
  std::printf("%.4f %.4f %.4f\n", medians[0], medians[1], memcpyMedian);
  return 0;
}
