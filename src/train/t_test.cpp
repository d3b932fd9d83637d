#include "src/train/t_test.h"

#include <cmath>
#include <stdexcept>

namespace eie {

namespace {

// Continued fraction of the regularised incomplete beta (Lentz's method).
double beta_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300, eps = 1e-15;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  d = 1 / (std::abs(d) < tiny ? tiny : d);
  double h = d;
  for (int m = 1; m <= 500; ++m) {
    for (int odd = 0; odd < 2; ++odd) {
      const double num = odd == 0 ? m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
                                  : -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
      d = 1 + num * d;
      d = 1 / (std::abs(d) < tiny ? tiny : d);
      c = 1 + num / c;
      if (std::abs(c) < tiny) c = tiny;
      h *= d * c;
      if (odd == 1 && std::abs(d * c - 1) < eps) return h;
    }
  }
  return h;
}

// I_x(a, b).
double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * beta_fraction(a, b, x) / a;
  return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

}  // namespace

double student_t_cdf(double t, double dof) {
  const double tail = 0.5 * incomplete_beta(dof / 2, 0.5, dof / (dof + t * t));
  return t > 0 ? 1 - tail : tail;
}

double paired_t_test_less(const std::vector<double>& candidate,
                          const std::vector<double>& reference) {
  if (candidate.size() != reference.size() || candidate.size() < 2) {
    throw std::invalid_argument("paired t-test needs two samples of the same size >= 2");
  }
  const double n = static_cast<double>(candidate.size());
  double mean = 0;
  for (size_t i = 0; i < candidate.size(); ++i) mean += candidate[i] - reference[i];
  mean /= n;
  double var = 0;
  for (size_t i = 0; i < candidate.size(); ++i) {
    const double diff = candidate[i] - reference[i] - mean;
    var += diff * diff;
  }
  var /= n - 1;
  if (var == 0) return mean < 0 ? 0.0 : 1.0;
  return student_t_cdf(mean / std::sqrt(var / n), n - 1);
}

}  // namespace eie
