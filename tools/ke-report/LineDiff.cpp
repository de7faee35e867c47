//===- LineDiff.cpp - a line diff for showing IR side by side -------------===//

#include "LineDiff.h"

#include "llvm/ADT/SmallVector.h"

using namespace ke::report;

std::optional<std::vector<DiffLine>>
ke::report::diffLines(llvm::StringRef before, llvm::StringRef after,
                      size_t maxEdits) {
  llvm::SmallVector<llvm::StringRef> a, b;
  before.split(a, '\n');
  after.split(b, '\n');
  const long n = a.size(), m = b.size();
  const long maxD = std::min<long>(n + m, static_cast<long>(maxEdits));
  const long offset = maxD + 1;
  // v[k + offset]: the furthest x on diagonal k. The frontier before each
  // step d (diagonals -d..d, so memory grows as D squared) is kept to walk
  // the script back.
  std::vector<long> v(2 * offset + 1, 0);
  std::vector<std::vector<long>> trace;
  long found = -1;
  for (long d = 0; d <= maxD && found < 0; ++d) {
    trace.emplace_back(v.begin() + offset - d, v.begin() + offset + d + 1);
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[k - 1 + offset] < v[k + 1 + offset]))
                   ? v[k + 1 + offset]
                   : v[k - 1 + offset] + 1;
      long y = x - k;
      while (x < n && y < m && a[x] == b[y])
        ++x, ++y;
      v[k + offset] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0)
    return std::nullopt;
  // Walk back from (n, m) through the saved frontiers.
  std::vector<DiffLine> reversed;
  long x = n, y = m;
  for (long d = found; d > 0; --d) {
    // trace[d] holds diagonals -d..d at indices 0..2d.
    const std::vector<long> &previous = trace[d];
    auto at = [&](long diagonal) { return previous[diagonal + d]; };
    long k = x - y;
    long previousK =
        (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
    long previousX = at(previousK);
    long previousY = previousX - previousK;
    while (x > previousX && y > previousY)
      reversed.push_back({DiffLine::Same, a[--x].str()}), --y;
    if (x == previousX)
      reversed.push_back({DiffLine::Added, b[--y].str()});
    else
      reversed.push_back({DiffLine::Removed, a[--x].str()});
  }
  while (x > 0 && y > 0)
    reversed.push_back({DiffLine::Same, a[--x].str()}), --y;
  return std::vector<DiffLine>(reversed.rbegin(), reversed.rend());
}
