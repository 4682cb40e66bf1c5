#include "frontier/store/successor_files.hpp"

namespace knightstour {

SuccessorFiles::SuccessorFiles(SpillArea& area, std::size_t ranges) : area_(area) {
  for (std::size_t r = 0; r < ranges; ++r) {
    files_.push_back(std::make_unique<File>());
    files_.back()->file = area.scratch();
  }
}

void SuccessorFiles::append(std::size_t r, const void* data, std::uint64_t bytes,
                            std::uint64_t successors) {
  File& f = *files_[r];
  const std::uint64_t at = f.end.fetch_add(bytes, std::memory_order_relaxed);
  f.file.pwrite_all(data, bytes, static_cast<off_t>(at));
  area_.count_written(bytes);
  f.successors.fetch_add(successors, std::memory_order_relaxed);
  const std::scoped_lock hold(f.lock);
  f.records.push_back({at, bytes});
}

void SuccessorFiles::read(std::size_t r, std::uint64_t offset, void* data,
                          std::uint64_t bytes) const {
  files_[r]->file.pread_all(data, bytes, static_cast<off_t>(offset));
}

void SuccessorFiles::drop(std::size_t r) {
  // The file has no name: closing it frees its blocks and its pages in the page cache.
  files_[r]->file.close();
  files_[r]->records = {};
}

}  // namespace knightstour
