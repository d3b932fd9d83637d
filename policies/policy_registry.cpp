#include "policy_registry.h"

#include <cmath>
#include <stdexcept>

#include "attend2pack/agent.h"
#include "attention_model/agent.h"
#include "io/checkpoint.h"

namespace eie {

namespace {

policy::AttentionModelOptions attention_options(const Problem& problem, const NetworkOptions& o) {
  policy::AttentionModelOptions options;
  options.encoder = o.encoder;
  options.tanh_clip = o.tanh_clip;
  if (problem.name() == "tsp") {
    options.node_features = 2, options.depot = false, options.context_nodes = 2,
    options.context_scalars = 0, options.placeholder = true;
    return options;
  }
  if (problem.name() == "cvrp") {  // (x, y, demand / capacity); context [current node, 1 - used]
    options.node_features = 3, options.depot = true, options.context_nodes = 1,
    options.context_scalars = 1, options.placeholder = false;
    return options;
  }
  throw std::invalid_argument("no attention model for problem '" + problem.name() + "'");
}

std::shared_ptr<const RoutingProblem> as_routing(std::shared_ptr<const Problem> problem) {
  auto routing = std::dynamic_pointer_cast<const RoutingProblem>(problem);
  if (!routing)
    throw std::invalid_argument("problem '" + problem->name() + "' is not a routing problem");
  return routing;
}

}  // namespace

std::unique_ptr<Agent> make_agent(std::shared_ptr<const Problem> problem,
                                  const NetworkOptions& options, int64_t train_n) {
  if (auto packing = std::dynamic_pointer_cast<const bpp3d::Bpp3dProblem>(problem)) {
    return std::make_unique<policy::Attend2PackAgent>(
        std::move(packing), policy::Attend2PackOptions{options.encoder, options.tanh_clip},
        train_n);
  }
  const auto model_options = attention_options(*problem, options);
  return std::make_unique<policy::AttentionAgent>(as_routing(std::move(problem)), model_options,
                                                  train_n);
}

namespace {
// An integer attribute within [low, high]: a model's sizes are checked before
// anything is allocated for them.
int64_t int_in(const h5::Reader& reader, const std::string& name, int64_t low, int64_t high) {
  const auto value = reader.int_attribute(name);
  if (value < low || value > high) {
    throw std::invalid_argument(reader.path().string() + ": attribute " + name + " = " +
                                std::to_string(value) + ", expected " + std::to_string(low) +
                                ".." + std::to_string(high));
  }
  return value;
}

NetworkOptions network_options(const h5::Reader& reader) {
  NetworkOptions options;
  options.encoder.embed_dim = int_in(reader, "embed_dim", 1, 4096);
  options.encoder.heads = int_in(reader, "heads", 1, options.encoder.embed_dim);
  if (options.encoder.embed_dim % options.encoder.heads != 0) {
    throw std::invalid_argument(reader.path().string() + ": embed_dim " +
                                std::to_string(options.encoder.embed_dim) +
                                " is not a multiple of heads " +
                                std::to_string(options.encoder.heads));
  }
  options.encoder.layers = int_in(reader, "encoder_layers", 1, 64);
  options.encoder.ff_hidden = int_in(reader, "ff_hidden", 1, 65536);
  options.encoder.normalization = nn::parse_normalization(reader.string_attribute("normalization"));
  options.tanh_clip = reader.double_attribute("tanh_clip");
  if (!(options.tanh_clip > 0) || !std::isfinite(options.tanh_clip)) {
    throw std::invalid_argument(reader.path().string() + ": tanh_clip must be > 0 and finite");
  }
  // Absent from files written before cosine attention existed: dot products.
  if (reader.has_attribute("cosine_scale")) {
    options.encoder.cosine_scale = reader.double_attribute("cosine_scale");
    if (!(options.encoder.cosine_scale >= 0) || !std::isfinite(options.encoder.cosine_scale)) {
      throw std::invalid_argument(reader.path().string() +
                                  ": cosine_scale must be >= 0 and finite");
    }
  }
  return options;
}
}  // namespace

NetworkOptions network_options_of(const std::filesystem::path& path) {
  const h5::Reader reader(path);
  check_format(reader);
  return network_options(reader);
}

std::unique_ptr<Agent> load_agent(const std::filesystem::path& path,
                                  std::shared_ptr<const Problem> problem) {
  const h5::Reader reader(path);
  check_format(reader);
  const auto made_for = reader.string_attribute("problem");
  if (made_for != problem->name()) {
    throw std::invalid_argument(path.string() + ": model was trained for " + made_for + ", not " +
                                problem->name());
  }
  const auto policy = reader.string_attribute("policy");
  if (policy != "attention_model" && policy != "attend2pack") {
    throw std::invalid_argument(path.string() + ": unknown policy '" + policy + "'");
  }
  auto agent = make_agent(std::move(problem), network_options(reader),
                          int_in(reader, "train_n", 1, 10000000));
  read_module(reader, "model", agent->network());
  agent->network().eval();
  return agent;
}

}  // namespace eie
