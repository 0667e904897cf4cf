# gather_runtime_advise_huge_pages (lib/Runtime/GatherRuntime.cpp), which
# gather_runtime_malloc and gather-run's input arrays (tools/gather-run/Npy.h)
# call: a block of 4 MiB or more gets MADV_HUGEPAGE on the whole pages inside
# it (the mapping that holds them shows the "hg" flag in /proc/self/smaps),
# not on the partial page it starts in; a smaller block gets none.
# RUN: %python %s %gather_lib/libGatherCAPI.so | FileCheck %s
# CHECK: 8 MiB block: inside advised True, partial first page advised False
# CHECK-NEXT: 1 MiB block: advised False
# CHECK-NEXT: null pointer: no crash
import ctypes
import mmap
import sys

from gather_testing.memory import has_transparent_huge_pages, vm_flags

lib = ctypes.CDLL(sys.argv[1])
lib.gather_runtime_advise_huge_pages.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
lib.gather_runtime_advise_huge_pages.restype = None


def mapped(size):
    """An anonymous mapping of its own (numpy advises its large arrays itself)
    and its address."""
    m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    return m, ctypes.addressof(ctypes.c_char.from_buffer(m))


# A kernel without transparent huge pages has nothing to advise: the flags
# are then what an advised block would show.
thp = has_transparent_huge_pages()
big, address = mapped(8 << 20)
lib.gather_runtime_advise_huge_pages(address + 100, (8 << 20) - 200)
inside = not thp or "hg" in vm_flags(address + (4 << 20))
first = thp and "hg" in vm_flags(address + 100)
print(f"8 MiB block: inside advised {inside}, partial first page advised {first}")
small, address = mapped(1 << 20)
lib.gather_runtime_advise_huge_pages(address, 1 << 20)
print(f"1 MiB block: advised {'hg' in vm_flags(address + 4096)}")
lib.gather_runtime_advise_huge_pages(None, 8 << 20)
print("null pointer: no crash")
