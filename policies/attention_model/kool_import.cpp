#include "policies/attention_model/kool_import.h"

#include <regex>
#include <set>
#include <stdexcept>

#include "src/agent/policy_registry.h"
#include "src/io/h5_file.h"

namespace eie::policy {

namespace {

// Reference key -> our parameter name.
std::string our_name(const std::string& key) {
  static const std::vector<std::pair<std::regex, std::string>> rules = {
      {std::regex(R"(^embedder\.layers\.(\d+)\.0\.module\.(W_\w+)$)"),
       "encoder.layers.$1.attention.$2"},
      {std::regex(R"(^embedder\.layers\.(\d+)\.1\.normalizer\.(\w+)$)"),
       "encoder.layers.$1.norm1.bn.$2"},
      {std::regex(R"(^embedder\.layers\.(\d+)\.2\.module\.0\.(\w+)$)"), "encoder.layers.$1.ff1.$2"},
      {std::regex(R"(^embedder\.layers\.(\d+)\.2\.module\.2\.(\w+)$)"), "encoder.layers.$1.ff2.$2"},
      {std::regex(R"(^embedder\.layers\.(\d+)\.3\.normalizer\.(\w+)$)"),
       "encoder.layers.$1.norm2.bn.$2"},
  };
  for (const auto& [pattern, replacement] : rules) {
    if (std::regex_match(key, pattern)) return std::regex_replace(key, pattern, replacement);
  }
  return key;  // init_embed*, project_*, W_placeholder keep their names
}

}  // namespace

std::unique_ptr<Agent> import_kool(const std::filesystem::path& path,
                                   std::shared_ptr<const Problem> problem) {
  const h5::Reader reader(path);
  if (!reader.has_attribute("args_json") || !reader.has_attribute("problem")) {
    throw std::invalid_argument(path.string() +
                                ": not a Kool et al. reference export (no args_json)");
  }
  const auto made_for = reader.string_attribute("problem");
  if (made_for != problem->name()) {
    throw std::invalid_argument(path.string() + ": reference model is for " + made_for);
  }
  NetworkOptions options;
  options.encoder.embed_dim = reader.int_attribute("embedding_dim");
  options.encoder.layers = reader.int_attribute("n_encode_layers");
  options.encoder.normalization = nn::parse_normalization(reader.string_attribute("normalization"));
  options.tanh_clip = reader.double_attribute("tanh_clipping");
  auto agent = make_agent(std::move(problem), options, reader.int_attribute("graph_size"));

  auto params = agent->network().named_parameters();
  auto buffers = agent->network().named_buffers();
  std::set<std::string> filled;
  torch::NoGradGuard no_grad;
  for (const auto& key : reader.datasets()) {
    const auto name = our_name(key);
    torch::Tensor* target = params.find(name);
    if (target == nullptr) target = buffers.find(name);
    if (target == nullptr)
      throw std::invalid_argument(path.string() + ": unexpected tensor '" + key + "'");
    const auto value = reader.read(key);
    if (value.sizes() != target->sizes()) {
      throw std::invalid_argument(path.string() + ": '" + key + "' has shape " +
                                  c10::str(value.sizes()) + ", expected " +
                                  c10::str(target->sizes()));
    }
    target->copy_(value);
    filled.insert(name);
  }
  for (const auto& p : params) {
    if (!filled.count(p.key()))
      throw std::invalid_argument(path.string() + ": no tensor for " + p.key());
  }
  agent->network().eval();
  return agent;
}

}  // namespace eie::policy
