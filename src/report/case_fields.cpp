#include "benchreport/report/case_fields.hpp"

namespace benchreport {

Columns case_columns(std::span<const CaseComparison* const> cases) {
  Columns out;
  ColumnFields fields(out);
  for (const CaseComparison* c : cases) {
    out.begin_row();
    fields.field("name", c->case_name);
    visit_case_fields(*c, fields);
  }
  return out;
}

}  // namespace benchreport
