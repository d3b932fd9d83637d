// Offline 3D bin packing in the problem registry (src/problem/registry.h).
#include "problems/bpp3d/bpp_file.h"
#include "problems/bpp3d/bpp_instance_file.h"
#include "problems/bpp3d/problem.h"
#include "src/problem/registry.h"

namespace eie::bpp3d {
namespace {

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
  d.make = [](const ProblemOptions& options) {
    return std::make_shared<Bpp3dProblem>(
        parse_generation(option(options, "protocol"), option(options, "base")));
  };
  d.formats = {{".bpp", [](const std::filesystem::path& path) -> std::unique_ptr<InstanceFile> {
                  return std::make_unique<BppInstanceFile>(read_bpp(path), path.stem().string());
                }}};
  return d;
}

[[maybe_unused]] const bool registered = register_problem(descriptor());

}  // namespace
}  // namespace eie::bpp3d
