# cuzk-bench ec runs and prints well-formed lines for every operation and
# ratio (values are not judged: no test asserts a wall-clock time).
# Usage: bash tests/ec/test_bench_ec.sh path/to/cuzk-bench
set -u
bench=$1
out=$("$bench" ec --iters 2000 --reps 3) || { echo "cuzk-bench ec failed"; echo "0 passed, 1 failed"; exit 1; }
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }
for op in fp_mul fp_sqr fp_add fp_sub fp_dbl fp_inv fp_inv_fermat fp_mul_portable \
          fr_mul fr_sqr fr_add fr_inv fr_mul_portable fp2_mul fp2_sqr \
          g1_add g1_dbl g1_madd g1_xyzz_madd g2_add g2_dbl g2_madd \
          g1_decompress g1_decompress_nocheck g2_decompress g2_decompress_nocheck \
          g1_mul g2_mul miller_loop final_exp pairing; do
  check "$op line" "echo \"\$out\" | grep -Eq '^$op [0-9]+(\\.[0-9]+)? ns/op\$'"
done
for op in fr_mul_tput fp_mul_tput; do
  check "$op line" "echo \"\$out\" | grep -Eq '^$op [0-9]+(\\.[0-9]+)? ns/op\$'"
done
# The 8-lane lines exist exactly when the IFMA path is on.
if echo "$out" | grep -q '^# ifma 1$'; then
  check "frv_mul line" "echo \"\$out\" | grep -Eq '^frv_mul [0-9]+(\\.[0-9]+)? ns/op\$'"
  check "fpv_mul ratio line" "echo \"\$out\" | grep -Eq '^fpv_mul_over_fp_mul_tput [0-9]+\\.[0-9]+ ratio\$'"
else
  check "no frv_mul line without IFMA" "! echo \"\$out\" | grep -q '^frv_mul '"
fi
check "ratio line" "echo \"\$out\" | grep -Eq '^fp_mul_adx_over_portable [0-9]+\\.[0-9]+ ratio\$'"
check "only name value unit or # lines" \
  "! echo \"\$out\" | grep -Ev '^(# .*|[a-z0-9_]+ [0-9]+(\\.[0-9]+)? [a-z/]+)\$' | grep -q ."
f=$("$bench" ec --iters 2000 --reps 1 --filter fr_mul | grep -v '^#')
check "--filter keeps only matches" "! echo \"\$f\" | grep -v '^fr_mul' | grep -q ."
# CUZK_CPU narrows the field paths for the whole process (src/ec/cpu.c).
p=$(CUZK_CPU=portable "$bench" ec --iters 200 --reps 1 --filter fp_mul)
check "CUZK_CPU=portable: no ADX" "echo \"\$p\" | grep -qx '# adx 0'"
check "CUZK_CPU=portable: no IFMA" "echo \"\$p\" | grep -qx '# ifma 0'"
p=$(CUZK_CPU=no-avx512 "$bench" ec --iters 200 --reps 1 --filter fp_mul)
check "CUZK_CPU=no-avx512: no IFMA" "echo \"\$p\" | grep -qx '# ifma 0'"
check "CUZK_CPU=no-avx512: ADX as detected" \
  "[ \"\$(echo \"\$p\" | grep '^# adx')\" = \"\$(echo \"\$out\" | grep '^# adx')\" ]"
check "bad option is refused" "! \"\$bench\" ec --bogus >/dev/null 2>&1"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
