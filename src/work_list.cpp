#include "knightstour/work_list.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace knightstour {

namespace {

std::string key_of(std::span<const std::uint8_t> prefix) {
  return {reinterpret_cast<const char*>(prefix.data()), prefix.size()};
}

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
  std::unordered_map<std::string, std::size_t> id_of;
  id_of.reserve(plan.size());
  for (std::size_t id = 0; id < plan.size(); ++id) id_of.emplace(key_of(plan[id]), id);

  const auto length = static_cast<std::size_t>(plan.length());
  std::vector<std::uint8_t> image(length);
  auto image_id = [&](std::span<const std::uint8_t> prefix, const Symmetry& g) {
    g.apply(prefix, image.data());
    const auto it = id_of.find(key_of(image));
    if (it == id_of.end()) throw std::logic_error("prefix plan is not closed under symmetry");
    return it->second;
  };

  std::map<std::size_t, WorkItem> by_searched;
  for (std::size_t id = 0; id < plan.size(); ++id) {
    if (!wanted(id)) continue;
    std::size_t rep = id;
    for (const auto& g : group) rep = std::min(rep, image_id(plan[id], g));
    std::uint8_t from_rep = 0;
    for (std::size_t k = 0; k < group.size(); ++k) {
      if (image_id(plan[rep], group[k]) == id) {
        from_rep = static_cast<std::uint8_t>(k);
        break;
      }
    }
    auto& item = by_searched[rep];
    item.searched = rep;
    item.members.push_back({id, from_rep});
  }
  for (auto& [rep, item] : by_searched) items.push_back(std::move(item));
  return items;
}

}  // namespace knightstour
