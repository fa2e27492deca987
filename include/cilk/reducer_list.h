/*===- cilk/reducer_list.h - List reducers (Cilk Plus) --------------------===*\
 *
 *   cilk::reducer<cilk::op_list_append<int>> out;   // or reducer_list_append
 *   cilk_for (int i = 0; i < n; ++i) if (keep(i)) out->push_back(i);
 *   const std::list<int> &kept = out.get_value();   // in serial order
 *
 * op_list_prepend pushes to the front; its list is the serial program's
 * too. Views are merged by splicing, in constant time.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_REDUCER_LIST_H
#define WEFT_CILK_REDUCER_LIST_H

#include <cilk/reducer.h>

#include <list>
#include <memory>
#include <utility>

namespace cilk {

template <class Type, class Allocator, bool Append> class op_list_view {
public:
  typedef std::list<Type, Allocator> value_type;

  op_list_view() {}
  explicit op_list_view(const value_type &list) : m_list(list) {}
  explicit op_list_view(value_type &&list) : m_list(std::move(list)) {}

  /// A left view takes the right one's elements after (append) or before
  /// (prepend) its own: the order the serial program built.
  void reduce(op_list_view *right) {
    m_list.splice(Append ? m_list.end() : m_list.begin(), right->m_list);
  }

  const value_type &view_get_value() const { return m_list; }
  void view_set_value(const value_type &list) { m_list = list; }
  void view_move_in(value_type &list) { m_list.swap(list); }
  void view_move_out(value_type &list) { list.swap(m_list); }
  value_type &get_reference() { return m_list; }

protected:
  value_type m_list;
};

template <class Type, class Allocator = std::allocator<Type>>
class op_list_append_view : public op_list_view<Type, Allocator, true> {
public:
  using op_list_view<Type, Allocator, true>::op_list_view;
  void push_back(const Type &x) { this->m_list.push_back(x); }
  void push_back(Type &&x) { this->m_list.push_back(std::move(x)); }
  template <class... Args> void emplace_back(Args &&...args) {
    this->m_list.emplace_back(std::forward<Args>(args)...);
  }
  void insert_back(const Type &x) { push_back(x); }
};

template <class Type, class Allocator = std::allocator<Type>>
class op_list_prepend_view : public op_list_view<Type, Allocator, false> {
public:
  using op_list_view<Type, Allocator, false>::op_list_view;
  void push_front(const Type &x) { this->m_list.push_front(x); }
  void push_front(Type &&x) { this->m_list.push_front(std::move(x)); }
  template <class... Args> void emplace_front(Args &&...args) {
    this->m_list.emplace_front(std::forward<Args>(args)...);
  }
  void insert_front(const Type &x) { push_front(x); }
};

template <class Type, class Allocator = std::allocator<Type>, bool Align = false>
class op_list_append
    : public monoid_with_view<op_list_append_view<Type, Allocator>, Align> {};

template <class Type, class Allocator = std::allocator<Type>, bool Align = false>
class op_list_prepend
    : public monoid_with_view<op_list_prepend_view<Type, Allocator>, Align> {};

/// The Cilk Plus 1.0 spellings.
template <class Type, class Allocator = std::allocator<Type>>
class reducer_list_append {
public:
  typedef std::list<Type, Allocator> list_type;
  typedef list_type value_type;

  reducer_list_append() {}
  explicit reducer_list_append(const list_type &initial) : imp_(initial) {}

  void push_back(const Type &x) { imp_->push_back(x); }
  const list_type &get_value() const { return imp_.get_value(); }
  list_type &get_reference() { return imp_->get_reference(); }
  void set_value(const list_type &list) { imp_.set_value(list); }
  void move_out(list_type &list) { imp_.move_out(list); }

private:
  reducer<op_list_append<Type, Allocator>> imp_;
};

template <class Type, class Allocator = std::allocator<Type>>
class reducer_list_prepend {
public:
  typedef std::list<Type, Allocator> list_type;
  typedef list_type value_type;

  reducer_list_prepend() {}
  explicit reducer_list_prepend(const list_type &initial) : imp_(initial) {}

  void push_front(const Type &x) { imp_->push_front(x); }
  const list_type &get_value() const { return imp_.get_value(); }
  list_type &get_reference() { return imp_->get_reference(); }
  void set_value(const list_type &list) { imp_.set_value(list); }
  void move_out(list_type &list) { imp_.move_out(list); }

private:
  reducer<op_list_prepend<Type, Allocator>> imp_;
};

} // namespace cilk

#endif /* WEFT_CILK_REDUCER_LIST_H */
