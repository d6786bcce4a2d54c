#!/usr/bin/env bash
# `cmake --install` into a DESTDIR with prefix /usr: the expected files, a
# program built against the installed headers and archives with
# `pkg-config --cflags --libs cuzk`, the systemd unit under
# systemd-analyze verify, and `cpack -G DEB` (dpkg-deb -c / -I).
# Usage: test_install.sh path/to/cuzk-bench (the build folder is its own).
set -u
bench=$1
build=$(cd "$(dirname "$bench")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "test_install: FAIL: $*"; fail=1; }

stage=$tmp/stage
if ! DESTDIR=$stage cmake --install "$build" --prefix /usr >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log"; echo "test_install: FAIL: cmake --install"; exit 1
fi
root=$stage/usr
want=(bin/cuzk-bench bin/cuzk-prove include/cuzk/msm.h include/cuzk/fr.h include/cuzk/zkey.h
      include/cuzk/circom.h lib/pkgconfig/cuzk.pc
      lib/libcuzk_util.a lib/libcuzk_server.a lib/systemd/system/cuzk.service
      lib/sysusers.d/cuzk.conf share/cuzk/cuzk.example.toml share/cuzk/cuzk.json
      share/cuzk/cuzk-alerts.yml share/doc/cuzk/LICENSE share/doc/cuzk/operating.md)
daemon=0
if [ -x "$build/cuzk-daemon" ]; then daemon=1; want+=(bin/cuzk-daemon); fi
for f in "${want[@]}"; do [ -e "$root/$f" ] || bad "missing /usr/$f"; done
[ -f "$stage/etc/cuzk/cuzk.toml" ] || bad "missing /etc/cuzk/cuzk.toml"
[ $daemon = 1 ] || echo "test_install: cuzk-daemon not built here (no libgrpc-dev): not checked"
unit=$root/lib/systemd/system/cuzk.service
grep -q '^ExecStart=/usr/bin/cuzk-daemon -c /etc/cuzk/cuzk.toml$' "$unit" ||
  bad "unit ExecStart: $(grep ExecStart= "$unit")"

# A program against the installed library only (no source tree on -I).
cat >"$tmp/inv2.c" <<'C'
#include <stdio.h>
#include "cuzk/fr.h"
int main(void) {
  /* 1/2 mod r = (r+1)/2, from r's digits (python: (r+1)//2). */
  static const uint64_t want[4] = {0x7fffffff80000001u, 0xa9ded2017fff2dffu,
                                   0x199cec0404d0ec02u, 0x39f6d3a994cebea4u};
  cz_fr two, half;
  uint64_t got[4];
  cz_fr_from_u64(&two, 2);
  if (!cz_fr_inv(&half, &two)) return 2;
  cz_fr_to_canonical(got, &half);
  for (int i = 0; i < 4; i++)
    if (got[i] != want[i]) { printf("limb %d: %016llx\n", i, (unsigned long long)got[i]); return 1; }
  puts("inv2 ok");
  return 0;
}
C
export PKG_CONFIG_PATH=$root/lib/pkgconfig
# A sanitizer build's archives need the sanitizer runtimes at link time.
san=
grep -q '^CUZK_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null && san="-fsanitize=address,undefined"
if ! flags=$(pkg-config --cflags --libs cuzk 2>&1); then
  bad "pkg-config --cflags --libs cuzk: $flags"
else
  echo "test_install: pkg-config: $flags"
  # shellcheck disable=SC2086 # the flags are words
  if ! cc -std=c11 $san -o "$tmp/inv2" "$tmp/inv2.c" $flags 2>"$tmp/cc.log"; then
    cat "$tmp/cc.log"; bad "compile and link against the installed cuzk"
  elif ! out=$("$tmp/inv2"); then
    bad "installed-library program: $out"
  else
    echo "test_install: $out"
  fi
fi

# The unit, with ExecStart pointing into the DESTDIR copy (verify wants the
# binary to exist).
if ! command -v systemd-analyze >/dev/null; then
  echo "test_install: systemd-analyze absent (Debian package systemd): unit not verified"
elif [ $daemon = 1 ]; then
  sed "s|^ExecStart=/usr/bin/|ExecStart=$root/bin/|" "$unit" >"$tmp/cuzk.service"
  if ! systemd-analyze verify "$tmp/cuzk.service" >"$tmp/verify.log" 2>&1; then
    cat "$tmp/verify.log"; bad "systemd-analyze verify cuzk.service"
  elif grep -E 'cuzk\.service:[0-9]+:' "$tmp/verify.log"; then
    # verify exits 0 on a line it ignores (unknown key, bad value).
    bad "systemd-analyze verify: the unit has lines systemd ignores"
  elif [ -s "$tmp/verify.log" ]; then
    # Other notes (about this host rather than the unit) are shown, not failed.
    sed 's/^/test_install: systemd-analyze: /' "$tmp/verify.log"
  fi
  [ $fail = 0 ] && echo "test_install: systemd-analyze verify cuzk.service: ok"
fi

# The .deb.
if ! command -v cpack >/dev/null || ! command -v dpkg-deb >/dev/null; then
  echo "test_install: cpack or dpkg-deb absent: .deb not checked"
else
  if ! (cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/deb") \
       >"$tmp/cpack.log" 2>&1; then
    cat "$tmp/cpack.log"; bad "cpack -G DEB"
  else
    deb=$(ls "$tmp"/deb/cuzk_*.deb 2>/dev/null | head -n 1)
    if [ -z "$deb" ]; then
      bad "cpack made no cuzk_*.deb"
    else
      dpkg-deb -c "$deb" >"$tmp/contents"
      for f in ./usr/bin/cuzk-bench ./usr/include/cuzk/fr.h ./usr/lib/pkgconfig/cuzk.pc \
               ./usr/lib/systemd/system/cuzk.service ./etc/cuzk/cuzk.toml \
               ./usr/share/doc/cuzk/LICENSE ./usr/share/cuzk/cuzk.json \
               ./usr/share/cuzk/cuzk-alerts.yml; do
        grep -q " $f\$" "$tmp/contents" || bad ".deb lacks $f"
      done
      [ $daemon = 1 ] && { grep -q " ./usr/bin/cuzk-daemon\$" "$tmp/contents" || bad ".deb lacks cuzk-daemon"; }
      info=$(dpkg-deb -I "$deb")
      depends=$(sed -n 's/^ Depends: //p' <<<"$info")
      echo "test_install: $(basename "$deb") Depends: $depends"
      for p in libc6 libssl3 libjansson4; do
        grep -q "\\b$p\\b" <<<"$depends" || bad ".deb Depends lacks $p"
      done
      if [ $daemon = 1 ]; then
        for p in libgrpc29 libprotobuf-c1; do
          grep -q "\\b$p\\b" <<<"$depends" || bad ".deb Depends lacks $p"
        done
      fi
      dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles | grep -qx /etc/cuzk/cuzk.toml ||
        bad ".deb conffiles lacks /etc/cuzk/cuzk.toml"
    fi
  fi
fi

[ $fail = 0 ] && echo "test_install: ok"
exit $fail
