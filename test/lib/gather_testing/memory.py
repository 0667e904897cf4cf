# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What the kernel says of this process's memory (Linux): the flags of the
mapping that holds an address, for the tests of huge-page advice."""
import os


def vm_flags(address):
    """The VmFlags of the mapping that holds `address` in this process (an
    empty list where /proc/self/smaps does not list it)."""
    inside = False
    with open("/proc/self/smaps") as f:
        for line in f:
            head = line.split()[0]
            if "-" in head and ":" not in head:
                low, high = (int(x, 16) for x in head.split("-"))
                inside = low <= address < high
            elif inside and head == "VmFlags:":
                return line.split()[1:]
    return []


def has_transparent_huge_pages():
    """Whether the kernel has transparent huge pages (without them there is
    no advice to give, and none to see)."""
    return os.path.exists("/sys/kernel/mm/transparent_hugepage/enabled")
