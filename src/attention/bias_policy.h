#pragma once

// How a distance bias follows the instance size at inference (--bias, the bench
// files' `bias`): "NAME[:BETA][@PARTS]", or "entropy[:FILE][@PARTS]", PARTS where it
// applies: all (default) or a comma list of encoder, glimpse, pointer.
//   (empty)  as trained: the network's trained betas, or no bias without them
//   none     no bias
//   fixed    beta at every n
//   logn     beta * ln n / ln N (ICAM's growth)
//   sqrtn    beta * sqrt(n / N) (nearest-neighbour distances shrink like 1 / sqrt n)
//   entropy  per layer, the beta at which the attention entropy measured at n equals
//            the one at N (calibration), cached in FILE
// Without BETA, fixed, logn and sqrtn grow the trained betas.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace eie {

// Where a bias applies (elsewhere: none).
struct BiasParts {
  bool encoder = true;
  bool glimpse = true;
  bool pointer = true;
};

struct BiasSpec {
  std::string name;            // "" (as trained), none, fixed, logn, sqrtn, entropy
  std::optional<double> beta;  // BETA as given
  std::string file;            // entropy's cache ("" for none)
  BiasParts parts{};           // where it applies
  [[nodiscard]] bool as_trained() const { return name.empty(); }
  [[nodiscard]] bool calibrated() const { return name == "entropy"; }
};

// Throws std::invalid_argument naming the text and the known names.
[[nodiscard]] BiasSpec parse_bias_spec(const std::string& text);
[[nodiscard]] std::vector<std::string> bias_policy_names();

// The factor of beta at size n for a network trained at size N (fixed, logn, sqrtn).
[[nodiscard]] double bias_growth(const std::string& name, int64_t n, int64_t train_n);
// `name` when it is one of those three; std::invalid_argument naming `what` otherwise.
[[nodiscard]] std::string checked_bias_growth(const std::string& name, const std::string& what);

// A table row's name for it: "bias as trained", "bias logn 40", "bias entropy".
[[nodiscard]] std::string bias_label(const BiasSpec& spec);

}  // namespace eie
