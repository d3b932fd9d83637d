# The least-squares line y = fit_a + fit_b * x through the points (x[i], y[i]),
# i = 0 .. n - 1: the one fit of log_slopes.sh and model_curves.sh.
function fit_line(x, y, n,    i, mx, my, sxy, sxx) {
  for (i = 0; i < n; ++i) { mx += x[i] / n; my += y[i] / n }
  for (i = 0; i < n; ++i) { sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) ^ 2 }
  fit_b = sxy / sxx
  fit_a = my - fit_b * mx
}
