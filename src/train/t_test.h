#pragma once

#include <vector>

namespace eie {

// One-sided paired t-test of H1: mean(candidate) < mean(reference). Returns the
// p-value (1 when the candidate is not better on average).
[[nodiscard]] double paired_t_test_less(const std::vector<double>& candidate,
                                        const std::vector<double>& reference);

// P(T <= t) for Student's t with `dof` degrees of freedom.
[[nodiscard]] double student_t_cdf(double t, double dof);

}  // namespace eie
