#pragma once
// The input files of the two sides of a comparison as one Dataset (the CLI's
// --base/--head, br.load(base=, head=)): every set of a file gets the side
// label and `pair` = the file's position on its side, so that base file i
// pairs with head file i. A file holding several processes stays several
// processes: its process k gets pair "<position>.<k>" and pairs with the
// other side's process k of the same position.
#include <span>
#include <string_view>

#include "benchreport/data/dataset.hpp"
#include "benchreport/data/label_roles.hpp"

namespace benchreport {

struct SideNames {
  std::string_view column = kSideLabel;
  std::string_view base = "base";
  std::string_view head = "head";
};

// Base files then head files, each in the given order (a file with several
// processes grouped by process, first appearance first). InputError when a
// side has no file.
Dataset label_sides(std::span<const Dataset* const> base, std::span<const Dataset* const> head,
                    const SideNames& names = {});

}  // namespace benchreport
