#include "src/attention/attention_spec.h"

#include <stdexcept>

#include "src/util/parse.h"

namespace eie {

AttentionSpec parse_attention_spec(const std::string& text, ScaleScope scope) {
  const auto at = text.rfind('@');
  if (at == std::string::npos) return {text, scope, 0, "all"};
  const auto slash = text.find('/', at);
  AttentionSpec spec{
      text.substr(0, at), scope,
      parse_int(text.substr(at + 1, slash == std::string::npos ? slash : slash - at - 1),
                "window of '" + text + "'"),
      slash == std::string::npos ? "all" : text.substr(slash + 1)};
  if (spec.window < 0) throw std::invalid_argument("'" + text + "': negative window");
  (void)parse_window_parts(spec.parts);  // malformed parts are reported here
  return spec;
}

std::string attention_label(const AttentionSpec& spec) {
  const auto name = spec.scale.empty() ? std::string("sqrt") : spec.scale.substr(0, spec.scale.find(':'));
  if (spec.window == 0) return name;
  return name + " window " + std::to_string(spec.window) +
         (spec.parts == "all" ? "" : " (" + spec.parts + ")");
}

}  // namespace eie
