#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "knightstour/board/symmetry.hpp"
#include "knightstour/plan/prefix_plan.hpp"

namespace knightstour {

// One search and the prefixes it answers: the tours of prefix `searched`, mapped through
// symmetry `member.symmetry`, are exactly the tours of prefix `member.id`.
struct WorkItem {
  struct Member {
    std::size_t id;
    std::uint8_t symmetry;  // index into the group given to build_work_list
  };
  std::size_t searched;
  std::vector<Member> members;

  // The member the search's nodes and time are booked to: the searched prefix, or the first
  // member when that one is not in the item (finished in an earlier session).
  std::size_t charged() const {
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (members[i].id == searched) return i;
    }
    return 0;
  }
};

// Groups the wanted prefixes by symmetry orbit under `group` (identity first; the group
// must map the plan's roots onto themselves) and picks the lowest id of each orbit as the
// one to search, so every orbit is searched once. Items come in ascending order of
// `searched`. With a group of one element every wanted prefix is its own item.
std::vector<WorkItem> build_work_list(const PrefixPlan& plan, const std::vector<Symmetry>& group,
                                      const std::function<bool(std::size_t)>& wanted);

// The number of prefixes the items answer (searched or derived).
std::size_t prefixes_in(const std::vector<WorkItem>& items);

}  // namespace knightstour
