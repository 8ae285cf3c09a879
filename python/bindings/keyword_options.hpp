#pragma once
// Shared by the binding files whose functions take an options struct as keyword
// arguments: every keyword is a named, typed parameter (std::optional<T>, default
// None), and None keeps the field's C++ default, so Python restates no default.
#include <optional>

namespace benchreport::python {

template <class T>
using Maybe = std::optional<T>;

// The field takes the keyword's value when one was given.
template <class Field, class Value>
void set_given(Field& field, const std::optional<Value>& value) {
  if (value) field = static_cast<Field>(*value);
}

}  // namespace benchreport::python
