#!/bin/sh
# Installs the Debian packages Kite needs (only those missing), unpacks the
# omp.h of the newer clangs the tests are also built with and LLVM's OMPD
# gdb plugin, then configures and builds Kite in $KITE_BUILD_DIR (default:
# build).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${KITE_BUILD_DIR:-$here/build}

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
updated=no
apt_update() {
  [ "$updated" = yes ] && return 0
  updated=yes
  $sudo apt-get update -qq
}

missing_of() {
  out=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || out="$out $p"
  done
  echo "$out"
}

packages="cmake ninja-build g++ gcc gfortran clang-14 pkg-config libhwloc-dev python3 libomp-14-dev binutils libotf2-trace-dev otf2-tools libdw-dev libunwind-dev chromium protobuf-compiler openmpi-bin libopenmpi-dev mpich libmpich-dev"
missing=$(missing_of $packages)
if [ -n "$missing" ]; then
  echo "setup: installing Debian packages:$missing"
  apt_update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi

# Newer clangs for the extra LLVM ABI test lanes (tests/CMakeLists.txt,
# KITE_EXTRA_CLANGS). Optional: without them those lanes are skipped.
extra_versions="19 22"
missing=$(missing_of $(for v in $extra_versions; do echo clang-$v; done))
if [ -n "$missing" ]; then
  echo "setup: installing Debian packages:$missing"
  if ! { apt_update && DEBIAN_FRONTEND=noninteractive \
         $sudo apt-get install -y -qq --no-install-recommends $missing; }; then
    echo "setup: warning: could not install$missing; their test lanes are skipped" >&2
  fi
fi

# Downloads Debian package $1 (from the cached lists, then after an update)
# and unpacks it, without installing it, into $2/root ($2 made afresh).
unpack_deb() {
  rm -rf "$2"
  mkdir -p "$2"
  for attempt in cached updated; do
    if [ "$attempt" = updated ]; then
      apt_update || return 1
    fi
    if (cd "$2" && apt-get download -qq "$1" 2>/dev/null); then
      dpkg -x "$2"/"$1"_*.deb "$2/root"
      return
    fi
  done
  return 1
}

# Each clang's own omp.h comes from its libomp-N-dev, which conflicts with
# the installed libomp-14-dev: the package is unpacked, not installed, and
# only its header directory is kept (.deps/llvm-N/include), so nothing from
# it can be linked instead of Kite.
for v in $extra_versions; do
  dest="$here/.deps/llvm-$v"
  [ -f "$dest/include/omp.h" ] && continue
  command -v "clang-$v" >/dev/null 2>&1 || continue
  stage="$here/.deps/stage-$v"
  header=""
  if unpack_deb "libomp-$v-dev" "$stage"; then
    header=$(find "$stage/root" -name omp.h -path "*/llvm-$v/*" | head -n 1)
  fi
  if [ -n "$header" ]; then
    rm -rf "$dest"
    mkdir -p "$dest"
    cp -R "$(dirname "$header")" "$dest/include"
    echo "setup: omp.h of clang-$v in $dest/include"
  else
    echo "setup: warning: could not get libomp-$v-dev's omp.h; the clang$v test lane is skipped" >&2
  fi
  rm -rf "$stage"
done

# gdb and LLVM's OMPD gdb plugin, for debugging on Kite (docs/ompd.md) and
# the ompd tests. The plugin ships in libomp-22-dev, which conflicts with
# the installed libomp-14-dev: the package is unpacked, not installed, and
# only the plugin is kept (.deps/llvm-22/share/gdb/python/ompd). Optional:
# without them the ompd tests are skipped.
missing=$(missing_of gdb)
if [ -n "$missing" ]; then
  echo "setup: installing Debian packages:$missing"
  { apt_update && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing; } ||
    echo "setup: warning: could not install gdb; the ompd tests are skipped" >&2
fi
plugin="$here/.deps/llvm-22/share/gdb/python/ompd"
if [ ! -f "$plugin/__init__.py" ]; then
  stage="$here/.deps/stage-ompd"
  found=""
  if unpack_deb libomp-22-dev "$stage"; then
    found=$(find "$stage/root" -name __init__.py -path "*/gdb/python/ompd/*" | head -n 1)
  fi
  if [ -n "$found" ]; then
    rm -rf "$plugin"
    mkdir -p "$(dirname "$plugin")"
    cp -R "$(dirname "$found")" "$plugin"
    echo "setup: LLVM's OMPD gdb plugin in $plugin"
  else
    echo "setup: warning: could not get libomp-22-dev's OMPD gdb plugin; the ompd tests are skipped" >&2
  fi
  rm -rf "$stage"
fi

cmake -S "$here" -B "$build" -G Ninja ${KITE_CMAKE_ARGS:-}
ninja -C "$build"
