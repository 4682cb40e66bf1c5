#include "knightstour/plan/work_list.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace knightstour {

namespace {

// Canonical order is lexicographic order of the square sequences (roots ascending, moves in
// ascending square order), so the id of any prefix is found by binary search. Prefixes of
// up to 16 squares compare as a pair of big-endian 64-bit words; longer ones byte by byte.
class PrefixIndex {
 public:
  using Key = std::pair<std::uint64_t, std::uint64_t>;

  explicit PrefixIndex(const PrefixPlan& plan) : plan_(plan), packed_(plan.length() <= 16) {
    if (!packed_) return;
    std::vector<Key> keys;
    keys.reserve(plan.size());
    for (std::size_t id = 0; id < plan.size(); ++id) keys.push_back(key(plan[id].data()));
    keys_ = std::move(keys);
  }

  std::size_t operator()(const std::uint8_t* prefix) const {
    const auto length = static_cast<std::size_t>(plan_.length());
    std::size_t lo = 0, hi = plan_.size();
    if (packed_) {
      lo = static_cast<std::size_t>(std::lower_bound(keys_.begin(), keys_.end(), key(prefix)) -
                                    keys_.begin());
    } else {
      while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        const auto p = plan_[mid];
        if (std::lexicographical_compare(p.begin(), p.end(), prefix, prefix + length)) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
    }
    if (lo == plan_.size() || !std::equal(prefix, prefix + length, plan_[lo].begin())) {
      throw std::logic_error("prefix plan is not closed under symmetry");
    }
    return lo;
  }

 private:
  Key key(const std::uint8_t* prefix) const {
    std::uint64_t word[2] = {0, 0};
    for (int i = 0; i < 16; ++i) {
      const std::uint64_t byte = i < plan_.length() ? prefix[i] : 0;
      word[i / 8] = (word[i / 8] << 8) | byte;
    }
    return {word[0], word[1]};
  }

  const PrefixPlan& plan_;
  bool packed_;
  std::vector<Key> keys_;
};

}  // namespace

std::vector<WorkItem> build_work_list(const PrefixPlan& plan, const std::vector<Symmetry>& group,
                                      const std::function<bool(std::size_t)>& wanted) {
  std::vector<WorkItem> items;
  if (group.size() <= 1) {
    for (std::size_t id = 0; id < plan.size(); ++id) {
      if (wanted(id)) items.push_back({id, {{id, 0}}});
    }
    return items;
  }
  const auto length = static_cast<std::size_t>(plan.length());
  std::vector<std::uint8_t> image(length);
  const PrefixIndex index(plan);
  auto image_id = [&](std::span<const std::uint8_t> prefix, const Symmetry& g) {
    g.apply(prefix, image.data());
    return index(image.data());
  };
  // Every orbit is searched once, through its lowest id (its representative); the orbit is
  // worked out once, from the first wanted member met.
  std::vector<std::uint8_t> assigned(plan.size(), 0);
  std::vector<std::size_t> images(group.size());
  for (std::size_t id = 0; id < plan.size(); ++id) {
    if (assigned[id] || !wanted(id)) continue;
    std::size_t rep = id;
    for (const auto& g : group) rep = std::min(rep, image_id(plan[id], g));
    for (std::size_t k = 0; k < group.size(); ++k) images[k] = image_id(plan[rep], group[k]);
    WorkItem item{rep, {}};
    for (std::size_t k = 0; k < group.size(); ++k) {
      const std::size_t member = images[k];
      if (assigned[member] || !wanted(member)) continue;
      assigned[member] = 1;
      item.members.push_back({member, static_cast<std::uint8_t>(k)});
    }
    items.push_back(std::move(item));
  }
  std::sort(items.begin(), items.end(),
            [](const WorkItem& a, const WorkItem& b) { return a.searched < b.searched; });
  return items;
}

std::size_t prefixes_in(const std::vector<WorkItem>& items) {
  std::size_t n = 0;
  for (const auto& item : items) n += item.members.size();
  return n;
}

}  // namespace knightstour
