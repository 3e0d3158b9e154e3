#!/usr/bin/env python3
"""Compares the exported GOMP_* and omp_* symbols of Kite with libgomp.

Every symbol libgomp defines (except the OpenACC families acc_*, GOACC_*,
GOMP_PLUGIN_*) must be defined by Kite under the same version node, with the
same default/compat status: `name@@NODE` (default) or `name@NODE` (compat,
shown by objdump in parentheses). Prints every missing or mismatched symbol
and exits 1 if there is any.

usage: compare_symbols.py KITE_LIBRARY LIBGOMP_LIBRARY
"""
import re
import subprocess
import sys

EXCLUDED = re.compile(r"^(acc_|GOACC_|GOMP_PLUGIN_)")
WANTED = re.compile(r"^(GOMP_|omp_)")
# objdump -T line: address, flags, section, size, [(]version[)], name
LINE = re.compile(r"^[0-9a-fA-F]+\s+.*?\s(\S+)\s+[0-9a-fA-F]+\s+(\(?)([A-Za-z0-9_.]+)\)?\s+(\S+)$")


def defined_symbols(path):
    """{(name, version): is_default} for every defined dynamic symbol."""
    out = subprocess.run(["objdump", "-T", path], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"objdump -T {path} failed: {out.stderr.strip()}")
    syms = {}
    for line in out.stdout.splitlines():
        m = LINE.match(line.strip())
        if not m:
            continue
        section, paren, version, name = m.groups()
        if section == "*UND*":
            continue
        syms[(name, version)] = paren != "("
    return syms


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    kite_path, gomp_path = sys.argv[1], sys.argv[2]
    kite = defined_symbols(kite_path)
    gomp = defined_symbols(gomp_path)
    wanted = {k: v for k, v in gomp.items() if WANTED.match(k[0]) and not EXCLUDED.match(k[0])}
    if not wanted:
        sys.exit(f"no GOMP_/omp_ symbols read from {gomp_path}: is it libgomp?")

    kite_versions = {}
    for (name, version), default in kite.items():
        kite_versions.setdefault(name, []).append((version, default))

    def show(version, default):
        return f"{'@@' if default else '@'}{version}"

    missing, mismatched = [], []
    for (name, version), default in sorted(wanted.items()):
        if (name, version) in kite:
            if kite[(name, version)] != default:
                mismatched.append(f"{name}{show(version, default)} (Kite has "
                                  f"{name}{show(version, kite[(name, version)])})")
        elif name in kite_versions:
            have = ", ".join(name + show(v, d) for v, d in sorted(kite_versions[name]))
            mismatched.append(f"{name}{show(version, default)} (Kite has only {have})")
        else:
            missing.append(f"{name}{show(version, default)}")

    extra = sorted(f"{n}{show(v, d)}" for (n, v), d in kite.items()
                   if WANTED.match(n) and (n, v) not in gomp)

    print(f"libgomp: {len(wanted)} GOMP_/omp_ symbol versions to match "
          f"({gomp_path}); Kite: {kite_path}")
    for title, items in (("MISSING in Kite", missing), ("WRONG VERSION in Kite", mismatched)):
        if items:
            print(f"{title} ({len(items)}):")
            for item in items:
                print(f"  {item}")
    if extra:
        # Not an error (Kite may export newer entry points), but worth seeing.
        print(f"note: Kite exports {len(extra)} GOMP_/omp_ symbol versions libgomp does not:")
        for item in extra:
            print(f"  {item}")
    if missing or mismatched:
        print(f"FAIL: {len(missing)} missing, {len(mismatched)} with the wrong version")
        return 1
    print(f"PASS: all {len(wanted)} symbol versions present")
    return 0


if __name__ == "__main__":
    sys.exit(main())
