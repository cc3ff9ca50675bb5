# Part of the matc project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Memory of large results, reused once the arrays that held it are gone.

A fresh large array costs more than the loop that fills it: glibc's malloc
gives every block of 32 MiB or more (and, depending on its history, smaller
ones) a new anonymous mapping, and the kernel zeroes each of its pages on
the first write. Measured on the 2-core Zen 4 VM (1 thread, f64, 2048 x
2048, 32 MiB): `np.empty(...).fill(0)` 3.3 ms, the fused loop of
`a * b + c - d * 0.5` 5.7 ms into an existing array and 8.7 ms into a new
one. NumPy pays it for each of its temporaries; a caching allocator (as
CuPy's memory pool or PyTorch's caching allocator for GPU memory) pays it
once.

The pool hands out C-order arrays over anonymous mappings (`mmap`,
private, page-aligned, advised as huge pages). An array's base is a block,
a ctypes array over the mapping (which it holds a buffer export of, so the
mapping cannot be closed under it); NumPy collapses the base of a view of
the array to the array, and `np.frombuffer` or a memoryview of it
references it, so whatever can reach the memory keeps the block alive.
When the block dies (its `__del__`), its mapping goes back to the pool. At
most `capacity` bytes of free mappings are kept, the least recently
returned dropped first (unmapped when nothing exports them any more); a
request that finds no free mapping of its size class maps a new one.

The free mappings are one list, changed by single operations (a pop, an
append, a deletion), so that an exception raised asynchronously in the
middle (KeyboardInterrupt, an exception from a signal handler) leaves it
consistent: at worst a mapping is dropped instead of kept.

Errors: none of its own. A mapping that cannot be made (an address-space
limit, strict overcommit) falls back to np.empty, which raises NumPy's
MemoryError if it cannot allocate either.
"""

import ctypes
import mmap
import threading

import numpy as np

#: Results smaller than this take np.empty: their page faults are a small
#: part of the call, and malloc's heap usually reuses them.
MIN_BYTES = 4 << 20

#: Free mappings kept by default (less on a machine of less than 4 GiB of
#: memory and swap: a sixteenth of it).
DEFAULT_CAPACITY = 256 << 20

#: Mappings are sized in huge pages (x86-64: 2 MiB): results of nearby
#: sizes share a size class, and a mapping is whole huge pages.
GRANULE = 2 << 20


class ResultPool:
    """Free mappings, (size class in bytes, mmap) oldest first, at most
    `capacity` bytes of them."""

    def __init__(self, capacity):
        self._lock = threading.RLock()
        self._free = []
        self._blocks = {}     # size class -> ctypes array type of the block
        self.capacity = capacity

    def set_capacity(self, capacity):
        """Keeps at most `capacity` bytes of free mappings (0: none, every
        result a new np.empty array)."""
        with self._lock:
            self.capacity = capacity
            self._trim()

    def held(self):
        """Bytes of free mappings the pool keeps now."""
        return sum(size for size, _ in list(self._free))

    def empty(self, rows, cols, dtype):
        """A new uninitialized C-order `rows` x `cols` array of `dtype`,
        over a reused mapping when the pool has one of its size class."""
        nbytes = rows * cols * dtype.itemsize
        if not self.capacity or nbytes < MIN_BYTES:
            return np.empty((rows, cols), dtype)
        size = -(-nbytes // GRANULE) * GRANULE
        mapping = None
        with self._lock:
            for i in range(len(self._free) - 1, -1, -1):
                if self._free[i][0] == size:
                    mapping = self._free.pop(i)[1]
                    break
        if mapping is None:
            try:
                # Private: a shared anonymous mapping is shmem, which takes
                # no transparent huge pages.
                mapping = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE)
            except OSError:
                return np.empty((rows, cols), dtype)
            if hasattr(mmap, "MADV_HUGEPAGE"):
                try:
                    mapping.madvise(mmap.MADV_HUGEPAGE)
                except OSError:
                    pass
        block = self._block_type(size).from_buffer(mapping)
        block._matc_pool = (self, size, mapping)
        return np.ndarray((rows, cols), dtype, block)

    def _block_type(self, size):
        block = self._blocks.get(size)
        if block is None:
            block = type("ResultBlock", (ctypes.c_char * size,),
                         {"__del__": _give_back_block,
                          "__doc__": "The memory of a result of matc "
                                     "(matc._pool); its mapping goes back "
                                     "to the pool when it dies."})
            self._blocks[size] = block
        return block

    def _give_back(self, size, mapping):
        with self._lock:
            if size <= self.capacity:
                self._free.append((size, mapping))
                self._trim()

    def _trim(self):
        """Drops the oldest free mappings until the rest fit."""
        while self._free and self.held() > self.capacity:
            del self._free[0]


def _give_back_block(block):
    """`__del__` of a block: its mapping back to its pool."""
    try:
        pool, size, mapping = block._matc_pool
        pool._give_back(size, mapping)
    except Exception:  # At interpreter exit, modules may be gone.
        pass
