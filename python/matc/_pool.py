# Part of matc, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
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
page-aligned, advised as huge pages). A `weakref.finalize` on the array
returns its mapping to the pool when the array and every view of it are
gone (NumPy collapses a view's base to the array that holds a non-array
base, so no view outlives it). At most `capacity` bytes of free mappings
are kept, the least recently returned closed first; a request that finds
no free mapping of its size class maps a new one.

Errors: MemoryError (from mmap) when a mapping cannot be made.
"""

import mmap
import threading
import weakref

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
    """Free mappings by size class (bytes), at most `capacity` bytes."""

    def __init__(self, capacity):
        self._lock = threading.RLock()
        self._free = {}       # size class -> list of mmap, oldest first
        self._order = []      # (size class, mmap) in the order returned
        self._held = 0        # bytes in self._free
        self.capacity = capacity

    def set_capacity(self, capacity):
        """Keeps at most `capacity` bytes of free mappings (0: none, every
        result a new np.empty array)."""
        with self._lock:
            self.capacity = capacity
            self._trim(0)

    def held(self):
        """Bytes of free mappings the pool keeps now."""
        return self._held

    def empty(self, rows, cols, dtype):
        """A new uninitialized C-order `rows` x `cols` array of `dtype`,
        over a reused mapping when the pool has one of its size class."""
        nbytes = rows * cols * dtype.itemsize
        if not self.capacity or nbytes < MIN_BYTES:
            return np.empty((rows, cols), dtype)
        size = -(-nbytes // GRANULE) * GRANULE
        buffer = None
        with self._lock:
            free = self._free.get(size)
            if free:
                buffer = free.pop()
                self._order.remove((size, buffer))
                self._held -= size
        if buffer is None:
            # Private: a shared anonymous mapping is shmem, which takes no
            # transparent huge pages.
            buffer = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE)
            if hasattr(mmap, "MADV_HUGEPAGE"):
                try:
                    buffer.madvise(mmap.MADV_HUGEPAGE)
                except OSError:
                    pass
        array = np.ndarray((rows, cols), dtype, buffer)
        finalizer = weakref.finalize(array, self._give_back, size, buffer)
        finalizer.atexit = False
        return array

    def _give_back(self, size, buffer):
        with self._lock:
            if size > self.capacity:
                buffer.close()
                return
            self._free.setdefault(size, []).append(buffer)
            self._order.append((size, buffer))
            self._held += size
            self._trim(0)

    def _trim(self, room):
        """Closes the oldest free mappings until `room` more bytes fit."""
        while self._order and self._held + room > self.capacity:
            size, buffer = self._order.pop(0)
            self._free[size].remove(buffer)
            self._held -= size
            buffer.close()
