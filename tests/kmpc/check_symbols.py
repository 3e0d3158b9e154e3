#!/usr/bin/env python3
"""Checks that every __kmpc_* symbol the given clang-built programs import is
exported by Kite under libomp's version node (VERSION), that every omp_*
routine Kite implements and libomp exports under VERSION is also exported
under VERSION by Kite (programs linked against libomp import name@VERSION;
src/abi/kmpc/omp_versions.cpp lists them), that every __kmpc_atomic_* entry
point libomp exports is exported by Kite under VERSION (compilers that lower
`#pragma omp atomic` to them may call any), and lists the other __kmpc_*
entry points LLVM's libomp exports that Kite does not (for information; not
a failure).

usage: check_symbols.py LIBKITE LIBOMP PROGRAM...
"""
import os
import re
import subprocess
import sys

LINE = re.compile(r"\s(\(?)([A-Za-z0-9_.]+)\)?\s+(\S+)$")


def dynamic_symbols(path):
    """{name: set of versions} of the defined dynamic symbols of `path`."""
    out = subprocess.run(["objdump", "-T", path], check=True, capture_output=True,
                         text=True).stdout
    syms = {}
    for line in out.splitlines():
        if "*UND*" in line or " DF " not in line and " DO " not in line:
            continue
        m = LINE.search(line)
        if m:
            syms.setdefault(m.group(3), set()).add(m.group(2))
    return syms


def imported_kmpc(paths):
    """{program: set of __kmpc_* names it imports}. One nm run per batch of
    programs: every clang lane builds hundreds of them."""
    result = {p: set() for p in paths}
    for start in range(0, len(paths), 256):
        batch = paths[start:start + 256]
        out = subprocess.run(["nm", "-D", "--undefined-only", *batch], check=True,
                             capture_output=True, text=True).stdout
        # With several files nm heads each one's symbols with "<path>:".
        current = batch[0]
        for line in out.splitlines():
            if line.endswith(":") and line[:-1] in result:
                current = line[:-1]
                continue
            for word in line.split():
                name = word.split("@")[0]
                if name.startswith("__kmpc_"):
                    result[current].add(name)
    return result


def non_atomic_failures(libomp, kite):
    """Every non-atomic __kmpc_* entry point libomp exports must be exported by
    Kite under VERSION (the atomic ones are checked in main)."""
    failures = []
    names = sorted(n for n in libomp
                   if n.startswith("__kmpc_") and not n.startswith("__kmpc_atomic"))
    for name in names:
        if name not in kite or "VERSION" not in kite[name]:
            failures.append(f"{name} (a non-atomic entry point of libomp) is not exported "
                            f"by Kite under VERSION")
    print(f"libomp exports {len(names)} non-atomic __kmpc_* entry points")
    return failures


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    kite_path, libomp_path, programs = sys.argv[1], sys.argv[2], sys.argv[3:]
    kite = dynamic_symbols(kite_path)
    failures = []
    used = set()
    imports = imported_kmpc(programs)
    for prog in programs:
        for name in sorted(imports[prog]):
            used.add(name)
            if name not in kite:
                failures.append(f"{os.path.basename(prog)}: {name} is not exported by Kite")
            elif "VERSION" not in kite[name]:
                failures.append(f"{os.path.basename(prog)}: {name} is exported, but not "
                                f"under VERSION ({', '.join(sorted(kite[name]))})")
    print(f"{len(used)} distinct __kmpc_* entry points imported by {len(programs)} programs")
    if os.path.exists(libomp_path):
        libomp = dynamic_symbols(libomp_path)
        for name in sorted(libomp):
            if (name.startswith("omp_") and "VERSION" in libomp[name] and name in kite
                    and "VERSION" not in kite[name]):
                failures.append(f"{name} is exported by Kite, but not under VERSION: "
                                f"add it to src/abi/kmpc/omp_versions.cpp")
        atomics = sorted(n for n in libomp if n.startswith("__kmpc_atomic"))
        for name in atomics:
            if name not in kite or "VERSION" not in kite[name]:
                failures.append(f"{name} (an atomic entry point of libomp) is not exported "
                                f"by Kite under VERSION")
        print(f"libomp exports {len(atomics)} __kmpc_atomic* entry points")
        failures += non_atomic_failures(libomp, kite)
        lacking = sorted(n for n in libomp if n.startswith("__kmpc_") and n not in kite)
        have = sum(1 for n in libomp if n.startswith("__kmpc_") and n in kite)
        print(f"libomp ({libomp_path}) exports {have + len(lacking)} __kmpc_* entry points; "
              f"Kite lacks {len(lacking)}:")
        for n in lacking:
            print(f"  {n}")
    else:
        print(f"note: {libomp_path} not found; no comparison with libomp")
    for f in failures:
        print(f"FAIL: {f}")
    if failures:
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
