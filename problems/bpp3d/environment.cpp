#include "problems/bpp3d/environment.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "problems/bpp3d/actions.h"
#include "problems/bpp3d/block_fit.h"

namespace eie::bpp3d {

namespace {

constexpr float kFloor = -4;  // relative heights below -4 S look alike to the policy

torch::Tensor tensor_of(const std::vector<float>& values, std::vector<int64_t> shape) {
  return torch::from_blob(const_cast<float*>(values.data()), shape, torch::kFloat).clone();
}

std::vector<int64_t> to_vector(const torch::Tensor& action) {
  const auto a = action.to(torch::kCPU, torch::kLong).contiguous();
  return {a.data_ptr<int64_t>(), a.data_ptr<int64_t>() + a.numel()};
}

}  // namespace

Bpp3dEnvironment::Bpp3dEnvironment(std::vector<BppData> instances)
    : instances_(std::move(instances)) {
  if (instances_.empty()) throw std::invalid_argument("bpp3d: no instances");
  n_ = static_cast<int64_t>(instances_[0].boxes.size());
  length_ = instances_[0].length;
  width_ = instances_[0].width;
  for (const auto& d : instances_) {
    if (d.length != length_ || d.width != width_ || static_cast<int64_t>(d.boxes.size()) != n_)
      throw std::invalid_argument("bpp3d: instances of a batch share n and the bin base");
    maps_.emplace_back(length_, width_);
    for (const auto& box : d.boxes) {
      for (const auto& e : orientations(box)) fits_.push_back(e.dx <= length_ && e.dy <= width_);
    }
    packed_.emplace_back(n_, 0);
    int longest = 1;
    for (const auto& b : d.boxes) longest = std::max({longest, b.l, b.w, b.h});
    scale_.push_back(static_cast<float>(longest));
  }
  placements_.resize(instances_.size());
  chosen_box_.assign(instances_.size(), 0);
  chosen_extents_.resize(instances_.size());
  const size_t cells = instances_.size() * length_ * width_;
  resting_.resize(cells);
  candidates_.resize(cells);
  candidate_positions_.resize(instances_.size());
  candidate_features_.resize(instances_.size());
  chosen_resting_.resize(cells);
}

torch::Tensor Bpp3dEnvironment::feasible() const {
  const auto B = static_cast<int64_t>(instances_.size());
  if (box_chosen_) {
    return torch::from_blob(const_cast<uint8_t*>(candidates_.data()),
                            {B, int64_t{length_} * width_}, torch::kUInt8)
        .to(torch::kBool);
  }
  // Orientations that fit the base never change; only packed boxes drop out.
  std::vector<uint8_t> mask(fits_);
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t i = 0; i < n_; ++i) {
      if (packed_[b][i]) std::fill_n(mask.begin() + (b * n_ + i) * kOrientations, kOrientations, 0);
    }
  }
  return torch::from_blob(mask.data(), {B, n_ * kOrientations}, torch::kUInt8).to(torch::kBool);
}

void Bpp3dEnvironment::step(const torch::Tensor& action) {
  const auto chosen = to_vector(action);
  const auto B = static_cast<int64_t>(instances_.size());
  const size_t cells = size_t(length_) * width_;
  for (int64_t b = 0; b < B; ++b) {  // checked before any state changes
    const auto a = chosen[b];
    const bool ok = box_chosen_
                        ? a >= 0 && a < int64_t(cells) && candidates_[b * cells + a]
                        : a >= 0 && a < n_ * kOrientations && !packed_[b][a / kOrientations];
    if (!ok) throw std::logic_error("bpp3d: infeasible action " + std::to_string(a));
  }
  if (!box_chosen_) {
    for (int64_t b = 0; b < B; ++b) {
      chosen_box_[b] = static_cast<int>(chosen[b] / kOrientations);
      chosen_extents_[b] = oriented(instances_[b].boxes[chosen_box_[b]],
                                    static_cast<int>(chosen[b] % kOrientations));
    }
    box_chosen_ = true;
    prepare_positions();
    return;
  }
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < B; ++b) {
    const int x = static_cast<int>(chosen[b] / width_), y = static_cast<int>(chosen[b] % width_);
    const auto e = chosen_extents_[b];
    const int z = maps_[b].place(x, y, e.dx, e.dy, e.dz);
    placements_[b].push_back({chosen_box_[b], x, y, z, e.dx, e.dy, e.dz});
    packed_[b][chosen_box_[b]] = 1;
  }
  box_chosen_ = false;
  ++packed_count_;
}

void Bpp3dEnvironment::prepare_positions() {
  const auto B = static_cast<int64_t>(instances_.size());
  const int L = length_, W = width_;
  const size_t cells = size_t(L) * W;
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < B; ++b) {
    const auto e = chosen_extents_[b];
    int32_t* rh = resting_.data() + b * cells;
    maps_[b].resulting_heights(e.dx, e.dy, rh);
    corner_candidates(rh, L, W, candidates_.data() + b * cells);
    // Prefix sums of the height map: the filled volume under any footprint in O(1).
    std::vector<int64_t> sum(size_t(L + 1) * (W + 1), 0);
    const auto& h = maps_[b].cells();
    for (int x = 0; x < L; ++x) {
      for (int y = 0; y < W; ++y) {
        sum[(x + 1) * (W + 1) + y + 1] = h[x * W + y] + sum[x * (W + 1) + y + 1] +
                                         sum[(x + 1) * (W + 1) + y] - sum[x * (W + 1) + y];
      }
    }
    const float top = static_cast<float>(maps_[b].max_height()), s = scale_[b];
    const float area = static_cast<float>(e.dx) * e.dy;
    float* resting = chosen_resting_.data() + b * cells;
    auto& positions = candidate_positions_[b];
    auto& features = candidate_features_[b];
    positions.clear();
    features.clear();
    const uint8_t* candidate = candidates_.data() + b * cells;
    for (int x = 0; x < L; ++x) {
      for (int y = 0; y < W; ++y) {
        const size_t i = size_t(x) * W + y;
        resting[i] = rh[i] == HeightMap::kInvalid ? 0 : std::max(kFloor, (rh[i] - top) / s);
        if (!candidate[i]) continue;
        const int64_t filled = sum[(x + e.dx) * (W + 1) + y + e.dy] - sum[x * (W + 1) + y + e.dy] -
                               sum[(x + e.dx) * (W + 1) + y] + sum[x * (W + 1) + y];
        positions.push_back(static_cast<int32_t>(i));
        features.push_back(resting[i]);
        features.push_back(std::max(0.f, rh[i] + e.dz - top) / s);
        features.push_back((area * rh[i] - static_cast<float>(filled)) / (area * s));
      }
    }
  }
}

Bpp3dEnvironment::Candidates Bpp3dEnvironment::candidates() const {
  const auto B = static_cast<int64_t>(instances_.size());
  size_t K = 1;
  for (const auto& p : candidate_positions_) K = std::max(K, p.size());
  const auto cells = int64_t{length_} * width_;
  auto position = torch::full({B, static_cast<int64_t>(K)}, cells, torch::kLong);
  auto valid = torch::zeros({B, static_cast<int64_t>(K)}, torch::kBool);
  auto features = torch::zeros({B, static_cast<int64_t>(K), 3}, torch::kFloat);
  auto* p = position.data_ptr<int64_t>();
  auto* v = valid.data_ptr<bool>();
  auto* f = features.data_ptr<float>();
  for (int64_t b = 0; b < B; ++b) {
    const auto& own = candidate_positions_[b];
    std::copy(own.begin(), own.end(), p + b * K);
    std::fill_n(v + b * K, own.size(), true);
    std::copy(candidate_features_[b].begin(), candidate_features_[b].end(), f + b * K * 3);
  }
  return {position, valid, features};
}

torch::Tensor Bpp3dEnvironment::cost() const {
  std::vector<float> out;
  for (size_t b = 0; b < instances_.size(); ++b) {
    out.push_back(static_cast<float>(-load_rate(instances_[b], maps_[b].max_height())));
  }
  return tensor_of(out, {static_cast<int64_t>(out.size())});
}

torch::Tensor Bpp3dEnvironment::box_features() const {
  std::vector<float> out;
  for (size_t b = 0; b < instances_.size(); ++b) {
    for (const auto& box : instances_[b].boxes) {
      for (const int side : {box.l, box.w, box.h}) out.push_back(side / scale_[b]);
    }
  }
  return tensor_of(out, {static_cast<int64_t>(instances_.size()), n_, 3});
}

torch::Tensor Bpp3dEnvironment::orientation_features() const {
  std::vector<float> out;
  for (size_t b = 0; b < instances_.size(); ++b) {
    const float s = scale_[b];
    for (const auto& box : instances_[b].boxes) {
      for (const auto& e : orientations(box)) {
        const float x = e.dx / s, y = e.dy / s, z = e.dz / s;
        out.insert(out.end(), {x, y, z, x * y * z});
      }
    }
  }
  return tensor_of(out, {static_cast<int64_t>(instances_.size()), n_ * kOrientations, 4});
}

torch::Tensor Bpp3dEnvironment::bin_features() const {
  const auto B = static_cast<int64_t>(instances_.size());
  std::vector<float> out(B * 4);
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < B; ++b) {
    const auto& h = maps_[b].cells();
    const int32_t top = maps_[b].max_height();
    int64_t total = 0, at_top = 0;
    int32_t lowest = top;
    for (const int32_t v : h) {
      total += v;
      at_top += v == top;
      lowest = std::min(lowest, v);
    }
    const float cells = static_cast<float>(h.size()), s = scale_[b];
    out[4 * b] = static_cast<float>(packed_count_) / static_cast<float>(n_);
    out[4 * b + 1] = std::max(kFloor, (static_cast<float>(total) / cells - top) / s);
    out[4 * b + 2] = std::max(kFloor, static_cast<float>(lowest - top) / s);
    out[4 * b + 3] = static_cast<float>(at_top) / cells;
  }
  return tensor_of(out, {B, 4});
}

torch::Tensor Bpp3dEnvironment::fit_features() const {
  const auto B = static_cast<int64_t>(instances_.size());
  std::vector<float> out(B * n_ * kOrientations * 2, 0.f);
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < B; ++b) {
    const float s = scale_[b];
    const BlockFit fit(maps_[b], static_cast<int>(s));
    const int32_t top = maps_[b].max_height();
    for (int64_t i = 0; i < n_; ++i) {
      if (packed_[b][i]) continue;
      const auto extents = orientations(instances_[b].boxes[i]);
      for (int o = 0; o < kOrientations; ++o) {
        const size_t action = (b * n_ + i) * kOrientations + o;
        if (!fits_[action]) continue;
        const auto& e = extents[o];
        const int32_t rest = fit.lowest_rest(e.dx, e.dy);
        out[2 * action] = std::max(kFloor, static_cast<float>(rest - top) / s);
        out[2 * action + 1] = static_cast<float>(std::max(0, rest + e.dz - top)) / s;
      }
    }
  }
  return tensor_of(out, {B, n_ * kOrientations, 2});
}

torch::Tensor Bpp3dEnvironment::chosen_box() const {
  std::vector<int64_t> out(chosen_box_.begin(), chosen_box_.end());
  return torch::tensor(out, torch::kLong);
}

torch::Tensor Bpp3dEnvironment::height_maps() const {
  const auto B = static_cast<int64_t>(instances_.size());
  const size_t cells = size_t(length_) * width_;
  std::vector<float> out(2 * B * cells);
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < B; ++b) {
    const auto& h = maps_[b].cells();
    const float top = static_cast<float>(maps_[b].max_height()), s = scale_[b];
    float* heights = out.data() + 2 * b * cells;
    for (size_t i = 0; i < cells; ++i) heights[i] = std::max(kFloor, (h[i] - top) / s);
    std::copy_n(chosen_resting_.data() + b * cells, cells, heights + cells);
  }
  return tensor_of(out, {B, 2, length_, width_});
}

}  // namespace eie::bpp3d
