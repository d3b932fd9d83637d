#include "src/io/h5_cause.h"

#include <H5Epublic.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace eie::h5 {

namespace {

thread_local std::string cause;  // of the latest failure on this thread

// Walked from the innermost error outwards: the first description is where the file
// turned out to be wrong; the outer ones only name the calls it passed through.
herr_t keep_innermost(unsigned n, const H5E_error2_t* error, void*) {
  if (n != 0 || error->desc == nullptr) return 0;
  std::string text(error->desc);
  std::replace_if(
      text.begin(), text.end(), [](unsigned char c) { return std::isprint(c) == 0; }, ' ');
  constexpr size_t kLongest = 160;
  cause = text.substr(0, kLongest);
  return 0;
}

// Called by libhdf5 when an API call fails, before the C++ wrapper throws and its
// destructors' calls clear the error stack.
herr_t on_failure(hid_t stack, void*) {
  H5Ewalk2(stack, H5E_WALK_UPWARD, keep_innermost, nullptr);
  return 0;
}

}  // namespace

void keep_failure_causes() {
  static const bool done = [] {
    const bool set = H5Eset_auto2(H5E_DEFAULT, on_failure, nullptr) >= 0;
    // At exit libhdf5 closes what is still open (a damaged file that would not close);
    // with a handler of ours in place it reports an "infinite loop closing library"
    // instead. Ours is removed first: this atexit handler runs before libhdf5's
    // shutdown, which was set up when the library started.
    std::atexit([] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
    return set;
  }();
  (void)done;
}

std::string last_cause() { return cause; }

void forget_cause() { cause.clear(); }

}  // namespace eie::h5
