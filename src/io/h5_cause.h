#pragma once

// Why libhdf5 failed, in its own words from deep in the file (e.g. "bad object header
// version number"), rather than the name of the API call that gave up.

#include <string>

namespace eie::h5 {

// Replaces libhdf5's printing of error stacks with keeping the innermost description
// of the latest failure. Idempotent.
void keep_failure_causes();

// The innermost description of the latest failure since forget_cause(), one line of
// printable text; empty when there was none.
[[nodiscard]] std::string last_cause();
void forget_cause();

}  // namespace eie::h5
