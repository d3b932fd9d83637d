// Offline 3D bin packing in the problem registry (src/problem/registry.h).
#include "problems/bpp3d/actions.h"
#include "problems/bpp3d/bpp_file.h"
#include "problems/bpp3d/bpp_instance_file.h"
#include "problems/bpp3d/problem.h"
#include "src/problem/registry.h"

namespace eie::bpp3d {
namespace {

// Per box in packing order: box, x, y, z, dx, dy, dz ([B, n, 7] int32).
SolutionTensors placement_tensors(const Instances& instances, const torch::Tensor& actions) {
  const auto data = data_of(instances);
  const auto rows = actions.to(torch::kLong).contiguous();
  const int64_t count = rows.size(0), n = instances.at("boxes").size(1);
  auto placements = torch::empty({count, n, kPlacementColumns}, torch::kInt);
  for (int64_t b = 0; b < count; ++b) {
    const auto* row = rows[b].data_ptr<int64_t>();
    placement_rows(replay(data[b], std::vector<int64_t>(row, row + rows.size(1))),
                   placements[b].data_ptr<int32_t>());
  }
  return {{"placements", placements}};
}

ProblemDescriptor descriptor() {
  ProblemDescriptor d;
  d.name = "bpp3d";
  d.counts = "boxes";
  d.options = {{"protocol", "sides: eie (U{10..50}, default) or attend2pack (U{20..80} on 100x100)",
                /*recorded=*/false, /*fallback=*/"eie", /*sweep_key=*/"", /*sweep_label=*/"",
                /*values=*/{"eie", "attend2pack"}},
               {"base", "bin base LxW (default 120x100; the paper also uses 140x110, 160x120)",
                /*recorded=*/false, /*fallback=*/"", /*sweep_key=*/"bases", /*sweep_label=*/"",
                /*values=*/{}}};
  d.classical = "heightmap";
  d.make = [](const ProblemOptions& options) {
    return std::make_shared<Bpp3dProblem>(
        parse_generation(option(options, "protocol"), option(options, "base")));
  };
  d.formats = {{".bpp", [](const std::filesystem::path& path) -> std::unique_ptr<InstanceFile> {
                  return std::make_unique<BppInstanceFile>(read_bpp(path), path.stem().string());
                }}};
  d.fields = {{"boxes", torch::kInt, 3, "[count, n, 3]"}, {"bin", torch::kInt, 2, "[count, 2]"}};
  d.solution = placement_tensors;
  return d;
}

[[maybe_unused]] const bool registered = register_problem(descriptor());

}  // namespace
}  // namespace eie::bpp3d
