// 3D packing environment speed on one core: a step is what the height-map
// heuristic and the placement policy need per box on a 120 x 100 base: the
// resting-height maps of all 6 orientations (sliding-window maxima), the lowest
// placement among them, and placing the box. Boxes have the EIE paper's sides
// U{10..50}; the bin is emptied every 100 boxes so heights stay typical.
// Run: build/experiments/bpp3d_step_speed [STEPS]
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "problems/bpp3d/heuristic.h"

int main(int argc, char** argv) {
  using namespace eie::bpp3d;
  const int steps = argc > 1 ? std::stoi(argv[1]) : 100000;
  const auto protocol = eie_protocol(120, 100);
  std::mt19937_64 rng(1);
  HeightMap map(protocol.length, protocol.width);
  std::vector<int32_t> scratch;
  int64_t heights = 0;  // keeps the work observable
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    if (s % 100 == 0) map.reset();
    const int span = protocol.max_side - protocol.min_side + 1;
    const Box box{protocol.min_side + static_cast<int>(rng() % span),
                  protocol.min_side + static_cast<int>(rng() % span),
                  protocol.min_side + static_cast<int>(rng() % span)};
    const auto p = lowest_placement(map, box, 0, scratch);
    heights += map.place(p.x, p.y, p.dx, p.dy, p.dz);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%d steps in %.2f s: %.0f steps/s on one core (checksum %lld)\n", steps, seconds,
              steps / seconds, static_cast<long long>(heights));
  return 0;
}
