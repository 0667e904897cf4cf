#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the C source and linker version script of a stub shared library:
every symbol named on stdin (as `nm -D --undefined-only` prints them, with
@VERSION where the importer binds to a symbol version) becomes a function
that prints its name and aborts. scripts/gpu-bundle.sh carries such stubs
in place of libraries that no gather path calls.

    nm -D --undefined-only LIB | awk '{print $2}' | grep REGEX |
        stub_library.py SONAME OUT.c OUT.map
"""

import collections
import sys


def main():
    soname, c_path, map_path = sys.argv[1:4]
    versions = collections.OrderedDict()
    with open(c_path, "w") as c:
        c.write("#include <stdio.h>\n#include <stdlib.h>\n")
        for line in sys.stdin:
            name, _, version = line.strip().partition("@")
            if not name:
                continue
            c.write(f'void {name}(void) {{ fputs("stub of {soname}: {name} called\\n", stderr); '
                    f"abort(); }}\n")
            versions.setdefault(version, []).append(name)
    with open(map_path, "w") as m:
        if versions and "" not in versions:
            for version, names in versions.items():
                m.write(f"{version} {{ global: {'; '.join(names)}; }};\n")
        else:
            m.write("{ global: *; };\n")


if __name__ == "__main__":
    main()
