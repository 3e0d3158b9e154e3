#!/bin/sh
# Installs the Debian packages Kite needs (only those missing), then
# configures and builds Kite in $KITE_BUILD_DIR (default: build).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${KITE_BUILD_DIR:-$here/build}

packages="cmake ninja-build g++ gcc gfortran clang-14 pkg-config libhwloc-dev python3 libomp-14-dev binutils"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing Debian packages:$missing"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi

cmake -S "$here" -B "$build" -G Ninja ${KITE_CMAKE_ARGS:-}
ninja -C "$build"
