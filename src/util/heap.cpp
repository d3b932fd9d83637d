#include "src/util/heap.h"

#include <malloc.h>

#include <limits>

namespace eie {

void keep_freed_memory() {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  mallopt(M_TOP_PAD, 1 << 30);
}

}  // namespace eie
