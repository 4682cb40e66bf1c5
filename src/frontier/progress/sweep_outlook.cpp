#include "knightstour/frontier/sweep_outlook.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace knightstour {

SweepOutlook sweep_outlook(const std::vector<std::uint64_t>& sizes, int step, int steps, int width,
                           std::uint64_t left_in_step) {
  SweepOutlook out;
  out.classes_left = static_cast<double>(left_in_step);
  if (sizes.empty() || width <= 0) return out;
  const auto w = static_cast<std::size_t>(width);
  std::vector<double> s(sizes.begin(), sizes.end());  // s[i]: after step step - size + i
  out.peak_classes = static_cast<double>(sizes.back());
  // The bottom edge's part of the log growth into the generation after step k; none in the
  // last column, where the classes fall by a factor a step instead.
  auto bottom = [&](int k) -> std::optional<double> {
    const int left = steps - 1 - k;
    if (left >= 3 * width) return 0.0;
    if (left >= 2 * width) return kOutlookThirdLast;
    if (left >= width) return kOutlookSecondLast;
    return std::nullopt;
  };
  // The top edge's part, measured over the last column (the bottom's taken out).
  double top = 0;
  if (s.size() > w && s[s.size() - 1 - w] > 0 && s.back() > 0) {
    top = std::max(0.0, std::log(s.back() / s[s.size() - 1 - w]) - bottom(step - 1).value_or(0));
  }
  for (int j = step; j < steps - 1; ++j) {  // the generation after step j, expanded at j + 1
    const auto column = static_cast<std::size_t>(j / width);
    top *= column < std::size(kOutlookFade) ? std::pow(kOutlookFade[column], 1.0 / width) : 0.0;
    double c = 0;
    if (const auto b = bottom(j)) {
      c = (s.size() >= w ? s[s.size() - w] : s.back()) * std::exp(top + *b);
    } else {
      c = s.back() * kOutlookLastPerStep;
    }
    s.push_back(c);
    out.classes_left += c;
    out.peak_classes = std::max(out.peak_classes, c);
  }
  out.first_step = step - static_cast<int>(sizes.size());
  out.next_step = step;
  out.profile = std::move(s);
  return out;
}

double profile_classes(const SweepOutlook& outlook, int from, int to) {
  double sum = 0;
  for (int k = std::max(from, outlook.first_step + 1); k < to; ++k) {
    const auto at = static_cast<std::size_t>(k - 1 - outlook.first_step);
    if (at < outlook.profile.size()) sum += outlook.profile[at];
  }
  return sum;
}

}  // namespace knightstour
