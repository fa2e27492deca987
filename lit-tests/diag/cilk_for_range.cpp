// Verify that a cilk_for over a range whose iterators are not random-access
// (std::list, std::map, std::set, std::forward_list, a user range with
// forward iterators) is an error at the range that names the iterator
// type, also in a template instantiation and with the attribute spelling;
// that a body leaving the loop, a header that spawns and a misplaced
// grainsize pragma are errors as for the ordinary cilk_for; and that loops
// over random-access ranges, lambdas that C++17 makes constexpr by
// themselves, and a dependent range in a template pattern get no
// diagnostic. An explicitly constexpr lambda runs its loop serially, with
// a warning.
// RUN: %clangxx -fplugin=%plugin -fsyntax-only -Xclang -verify -ferror-limit=0 %s
// RUN: %clangxx -std=c++20 -fplugin=%plugin -fsyntax-only -Xclang -verify -ferror-limit=0 %s
#include <cilk/cilk.h>
#include <forward_list>
#include <list>
#include <map>
#include <set>
#include <vector>

long f(long);

void node_based(std::list<int> &l, std::map<int, int> &m,
                std::forward_list<int> &fl) {
  cilk_for (int x : l) f(x); // expected-error {{a cilk_for over a range needs random-access iterators, and 'std::_List_iterator<int>' is not one: 'end - begin' must give an integer and 'begin + n' must be valid}}
  cilk_for (auto &[k, v] : m) f(k + v); // expected-error {{a cilk_for over a range needs random-access iterators, and 'std::_Rb_tree_iterator<std::pair<const int, int>>' is not one}}
  cilk_for (int x : std::set<int>{1, 2}) f(x); // expected-error {{'std::_Rb_tree_const_iterator<int>' is not one}}
  cilk_for (int x : fl) f(x); // expected-error {{'std::_Fwd_list_iterator<int>' is not one}}
  [[weft::parallel_for]] for (int x : l) f(x); // expected-error {{'std::_List_iterator<int>' is not one}}
#pragma cilk grainsize 4
  cilk_for (int x : l) f(x); // expected-error {{'std::_List_iterator<int>' is not one}}
}

struct Forward { // no '-', no '+'
  int at;
  int operator*() const { return at; }
  Forward &operator++() { ++at; return *this; }
  bool operator!=(const Forward &o) const { return at != o.at; }
};
struct Numbers {
  Forward begin() const { return {0}; }
  Forward end() const { return {10}; }
};

void user_range() {
  cilk_for (int x : Numbers{}) f(x); // expected-error {{a cilk_for over a range needs random-access iterators, and 'Forward' is not one}}
}

template <class Range> void each(Range &r) {
  cilk_for (auto &x : r) f(x); // expected-error {{'std::_List_iterator<long>' is not one}}
}
template void each(std::vector<long> &);
template void each(std::list<long> &);

void body(std::vector<int> &v) {
  cilk_for (int x : v) { if (f(x)) break; } // expected-error {{'break' cannot leave the body of a cilk_for}}
  cilk_for (int x : v) { if (f(x)) return; } // expected-error {{'return' cannot leave the body of a cilk_for}}
  cilk_for (int x : v) { if (f(x)) goto out; } // expected-error {{'goto' cannot leave the body of a cilk_for}}
out:
  cilk_for (int x : v) { if (f(x)) continue; f(x + 1); }
  cilk_for (int x : v) { for (int y : v) if (y == x) break; }
  cilk_for (int x : v) { x += 1; f(x); } // the element variable is the iteration's own
}

std::vector<long> make(long);

void header(std::vector<long> &v) {
  cilk_for (long x : cilk_spawn make(3)) f(x); // expected-error {{the header of a cilk_for cannot spawn}} expected-error {{a spawned call cannot initialise a reference}}
  cilk_for (auto &x : v) f(x);
  cilk_for (const long &x : make(4)) f(x);
  auto plain = [](std::vector<long> &w) { cilk_for (long &x : w) x = f(x); };
  plain(v);
  auto generic = [](auto &w) { cilk_for (auto &x : w) x = f(x); };
  generic(v);
  auto constant = [](long *w) constexpr {
    cilk_for (long i = 0; i < 4; ++i) w[i] = i; // expected-warning {{cilk_for in a constexpr function runs serially}}
  };
  long a[4];
  constant(a);
}

void misplaced(std::vector<long> &v) {
  f(0);
#pragma cilk grainsize 8 // expected-error {{'#pragma cilk grainsize' must be followed by a cilk_for loop}}
  for (long x : v) f(x);
}
