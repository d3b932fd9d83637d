#include "problems/bpp3d/problem.h"

#include <stdexcept>

#include "problems/bpp3d/actions.h"
#include "problems/bpp3d/heuristic.h"
#include "src/util/parse.h"

namespace eie::bpp3d {

Protocol parse_generation(const std::string& protocol, const std::string& base) {
  if (protocol != "eie" && protocol != "attend2pack") {
    throw std::invalid_argument(
        "bpp3d protocol: expected eie (sides U{10..50}) or attend2pack "
        "(U{20..80}), got '" +
        protocol + "'");
  }
  auto p = protocol == "eie" ? eie_protocol() : attend2pack_protocol();
  if (base.empty()) return p;
  const auto x = base.find('x');
  if (x == std::string::npos)
    throw std::invalid_argument("--base: expected LxW, got '" + base + "'");
  p.length = static_cast<int>(parse_int(base.substr(0, x), "--base L"));
  p.width = static_cast<int>(parse_int(base.substr(x + 1), "--base W"));
  if (p.length < 1 || p.width < 1 || p.length > kMaxSide || p.width > kMaxSide)
    throw std::invalid_argument("--base: sides must be in 1.." + std::to_string(kMaxSide));
  if (p.max_side > std::min(p.length, p.width)) {
    throw std::invalid_argument("--base " + base + ": boxes of side up to " +
                                std::to_string(p.max_side) + " may not fit it");
  }
  return p;
}

std::vector<BppData> data_of(const Instances& instances) {
  const auto boxes = instances.at("boxes").to(torch::kCPU, torch::kInt).contiguous();
  const auto bin = instances.at("bin").to(torch::kCPU, torch::kInt).contiguous();
  const int64_t count = boxes.size(0), n = boxes.size(1);
  std::vector<BppData> out(count);
  for (int64_t b = 0; b < count; ++b) {
    const auto* s = boxes[b].data_ptr<int32_t>();
    out[b].length = bin[b][0].item<int32_t>();
    out[b].width = bin[b][1].item<int32_t>();
    for (int64_t i = 0; i < n; ++i) out[b].boxes.push_back({s[3 * i], s[3 * i + 1], s[3 * i + 2]});
  }
  return out;
}

Instances instances_of(const BppData& data) {
  const auto n = static_cast<int64_t>(data.boxes.size());
  auto boxes = torch::empty({1, n, 3}, torch::kInt);
  auto* s = boxes.data_ptr<int32_t>();
  for (int64_t i = 0; i < n; ++i) {
    s[3 * i] = data.boxes[i].l, s[3 * i + 1] = data.boxes[i].w, s[3 * i + 2] = data.boxes[i].h;
  }
  return Instances({{"boxes", boxes},
                    {"bin", torch::tensor({data.length, data.width}, torch::kInt).view({1, 2})}});
}

Bpp3dProblem::Bpp3dProblem(Protocol generation) : generation_(generation) {}

Instances Bpp3dProblem::generate(int64_t count, int64_t n, torch::Generator& generator) const {
  if (n < 1) throw std::invalid_argument("bpp3d: n must be at least 1, got " + std::to_string(n));
  const auto& p = generation_;
  auto boxes = torch::randint(p.min_side, p.max_side + 1, {count, n, 3}, generator,
                              torch::TensorOptions().dtype(torch::kInt));
  auto bin = torch::tensor({p.length, p.width}, torch::kInt).view({1, 2}).repeat({count, 1});
  return Instances({{"boxes", boxes}, {"bin", bin}});
}

void Bpp3dProblem::validate(const Instances& instances) const {
  const auto& boxes = instances.at("boxes");
  const auto& bin = instances.at("bin");
  if (boxes.dim() != 3 || boxes.size(2) != 3)
    throw std::invalid_argument("bpp3d: boxes must have shape [count, n, 3]");
  if (boxes.size(1) < 1) throw std::invalid_argument("bpp3d: instances have no boxes");
  if (bin.dim() != 2 || bin.size(1) != 2)
    throw std::invalid_argument("bpp3d: bin must have shape [count, 2]");
  if (boxes.is_floating_point() || bin.is_floating_point())
    throw std::invalid_argument("bpp3d: box sides and bases must be integers");
  if (!(bin == bin[0]).all().item<bool>())
    throw std::invalid_argument("bpp3d: all instances must share one bin base");
  const auto data = data_of(instances);
  for (size_t i = 0; i < data.size(); ++i) {
    try {
      data[i].validate();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("instance " + std::to_string(i) + ": " + e.what());
    }
  }
}

int64_t Bpp3dProblem::size(const Instances& instances) const {
  return instances.at("boxes").size(1);
}

torch::Tensor Bpp3dProblem::check(const Instances& instances, const torch::Tensor& actions) const {
  const auto data = data_of(instances);
  const auto a = actions.to(torch::kCPU, torch::kLong).contiguous();
  if (a.size(0) != static_cast<int64_t>(data.size()))
    throw std::logic_error("one packing per instance expected");
  auto costs = torch::empty({a.size(0)}, torch::kDouble);
  for (int64_t b = 0; b < a.size(0); ++b) {
    const auto* row = a[b].data_ptr<int64_t>();
    const auto placements = replay(data[b], std::vector<int64_t>(row, row + a.size(1)));
    costs[b] = -load_rate(data[b], check_packing(data[b], placements));
  }
  return costs;
}

std::map<std::string, torch::Tensor> Bpp3dProblem::measures(const Instances& instances,
                                                            const torch::Tensor& costs) const {
  const auto volume = instances.at("boxes").to(torch::kDouble).prod(2).sum(1);
  const auto base = instances.at("bin").to(torch::kDouble).prod(1);
  const auto rate = -costs;
  return {{"load_rate", rate}, {"height", (volume / (base * rate)).round()}};
}

torch::Tensor Bpp3dProblem::cost_bound(const Instances& instances) const {
  const auto data = data_of(instances);
  auto out = torch::empty({static_cast<int64_t>(data.size())}, torch::kDouble);
  for (size_t b = 0; b < data.size(); ++b) out[b] = -load_rate(data[b], volume_bound(data[b]));
  return out;
}

torch::Tensor Bpp3dProblem::start_actions(const Instances& instances, int64_t K) const {
  // Box b in the first of its orientations that fits the base (actions b * 6 + o).
  const int64_t B = instances.count(), n = size(instances);
  const auto boxes = spread_choices(n, K, instances.at("boxes").device());
  const auto fits = environment(instances)->feasible().view({B, n, kOrientations});
  const auto first_fit = fits.index_select(1, boxes).to(torch::kByte).argmax(2);  // [B, K]
  return boxes.unsqueeze(0) * kOrientations + first_fit;
}

Instances Bpp3dProblem::permute(const Instances& instances, const torch::Tensor& perm) const {
  return instances.with("boxes", instances.at("boxes").index_select(1, perm));
}

torch::Tensor Bpp3dProblem::unpermute(const torch::Tensor& actions, const torch::Tensor& perm) const {
  // Box steps (even) name box * 6 + orientation; position steps (odd) name no box.
  auto out = actions.clone();
  const auto box_steps = torch::arange(0, actions.size(1), 2);
  const auto chosen = actions.index_select(1, box_steps);
  out.index_copy_(1, box_steps,
                  perm.index({chosen.div(kOrientations, "floor")}) * kOrientations +
                      chosen.remainder(kOrientations));
  return out;
}

std::vector<Instances> Bpp3dProblem::symmetries(const Instances& instances) const {
  return {instances};
}

torch::Tensor Bpp3dProblem::construct(const std::string& method, const Instances& instances) const {
  if (method != "heightmap")
    throw std::invalid_argument("unknown bpp3d method '" + method + "' (heightmap)");
  const auto data = data_of(instances);
  const auto packings = heightmap_greedy_all(data);
  const auto n = static_cast<int64_t>(data[0].boxes.size());
  auto out = torch::empty({static_cast<int64_t>(data.size()), 2 * n}, torch::kLong);
  for (size_t b = 0; b < data.size(); ++b) {
    const auto actions = actions_of(data[b], packings[b]);
    std::copy(actions.begin(), actions.end(), out[b].data_ptr<int64_t>());
  }
  return out;
}

torch::Tensor Bpp3dProblem::improve(const std::string& method, const Instances&,
                                    const torch::Tensor&) const {
  throw std::invalid_argument("bpp3d has no improvement method ('" + method + "')");
}

std::unique_ptr<Bpp3dEnvironment> Bpp3dProblem::environment(const Instances& instances) const {
  return std::make_unique<Bpp3dEnvironment>(data_of(instances));
}

}  // namespace eie::bpp3d
