#include "src/agent/model_file.h"

#include <cmath>
#include <stdexcept>

#include "src/agent/policy_registry.h"
#include "src/attention/bias_policy.h"
#include "src/io/model_format.h"

namespace eie {

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
  // Absent from files of networks without a trained distance bias.
  if (reader.has_attribute("distance_bias")) {
    const auto kind = reader.string_attribute("distance_bias");
    if (kind != "fixed" && kind != "learned") {
      throw std::invalid_argument(reader.path().string() + ": distance_bias '" + kind +
                                  "', expected fixed or learned");
    }
    options.encoder.trained_bias.enabled = true;
    options.encoder.trained_bias.learn = kind == "learned";
    // Absent from files written before betas could grow with n: fixed.
    if (reader.has_attribute("bias_growth")) {
      options.encoder.trained_bias.growth = checked_bias_growth(
          reader.string_attribute("bias_growth"), reader.path().string() + ": bias_growth");
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

std::string model_problem(const std::filesystem::path& path) {
  const h5::Reader reader(path);
  check_format(reader);
  return reader.string_attribute("problem");
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
  const PolicyDescriptor* family = nullptr;
  try {
    family = &policy_descriptor(policy);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path.string() + ": " + e.what());
  }
  if (!family->serves(*problem)) {
    throw std::invalid_argument(path.string() + ": policy '" + policy + "' has no network for " +
                                problem->name());
  }
  auto agent = family->make(std::move(problem), network_options(reader),
                            int_in(reader, "train_n", 1, 10000000));
  read_module(reader, "model", agent->network());
  agent->network().eval();
  return agent;
}

void save_model(Agent& agent, const std::filesystem::path& path) {
  h5::Writer writer(path);
  write_spec(writer, agent.spec(), "model");
  write_module(writer, "model", agent.network());
  writer.commit();
}

}  // namespace eie
