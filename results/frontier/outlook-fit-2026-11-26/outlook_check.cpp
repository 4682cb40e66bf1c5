// The library's projection (sweep_outlook) from every step of a profile from column 2 on:
// "cut classes_left peak_classes" a line. fit_outlook.py --check compares its own model
// with it. Built from the repository root:
//   g++ -std=c++20 -O2 -Iinclude results/frontier/outlook-fit-2026-11-26/outlook_check.cpp \
//     build/release/libknightstour_core.a -o /tmp/outlook_check
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "knightstour/frontier/sweep_outlook.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: outlook_check PROFILE\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string header;
  std::getline(in, header);
  int w = 0, steps = 0;
  const auto at = header.find("width");
  if (at == std::string::npos ||
      std::sscanf(header.c_str() + at, "width %d steps %d", &w, &steps) != 2)
    return 1;
  std::vector<std::uint64_t> s;
  for (unsigned long long x = 0; in >> x;) s.push_back(x);
  if (static_cast<int>(s.size()) != steps) return 1;
  for (int cut = 2 * w; cut < steps - w; ++cut) {
    if (s[cut - 1] == 0) continue;
    const std::vector<std::uint64_t> seen(s.begin(), s.begin() + cut);
    const auto o = knightstour::sweep_outlook(seen, cut, steps, w, seen.back());
    std::printf("%d %.9e %.9e\n", cut, o.classes_left, o.peak_classes);
  }
}
