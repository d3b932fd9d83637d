#pragma once

// Named scalar values that describe an object (a model's sizes, its problem, the
// scale it was trained with): what a file stores as attributes, kept free of any
// file format here.

#include <cstdint>
#include <map>
#include <string>
#include <variant>

namespace eie {

using Attribute = std::variant<int64_t, double, std::string>;
using Attributes = std::map<std::string, Attribute>;

}  // namespace eie
