#!/usr/bin/env bash
# xperf annotate --stdio's instruction text against perf annotate --stdio's (objdump's) on the
# same files: the share of instructions whose text is perf's, and "(bad)" lines, over every
# function with >= 1% of the samples of glibc's string functions (AVX-512 code on a CPU with
# it, AVX2 forced too), the shares and cxx_inline workloads, libc's qsort and a Python run
# (libpython, _json, libc). Not a time: a figure of agreement (higher is better).
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
XA=$BUILD/xperf-annotate
[ -x "$XA" ] || { echo "   $XA is not built"; exit 1; }
command -v perf >/dev/null || { echo "   perf is absent: skipped"; exit 0; }
T=$BENCH_TMP/text
mkdir -p "$T"

# texts FILE: "address<TAB>instruction text" of every instruction line, blanks squeezed
texts() { awk '/^ +[0-9]+\.[0-9]+ : +[0-9a-f]+:/ { sub(/^ +[0-9.]+ : +/, ""); a = $1
	sub(/:$/, "", a); sub(/^[0-9a-f]+: +/, ""); gsub(/[ \t]+/, " "); sub(/ $/, "")
	print a "\t" $0 }' "$1" | sort; }

# agree NAME DATA: per function, then the file's total line
agree() {
	local n=0 e=0 b=0 s pn pe
	while IFS= read -r s; do
		perf annotate --stdio -s "$s" -i "$2" 2>/dev/null | texts /dev/stdin >"$T/p"
		"$XA" --stdio -s "$s" -i "$2" 2>/dev/null | texts /dev/stdin >"$T/x"
		pn=$(wc -l <"$T/p")
		pe=$(join -t "$(printf '\t')" "$T/p" "$T/x" | awk -F'\t' '$2 == $3' | wc -l)
		n=$((n + pn)) e=$((e + pe)) b=$((b + $(grep -c "(bad)" "$T/x")))
	done < <(perf report --stdio --no-children -q -i "$2" --sort sym 2>/dev/null |
		 awk '/\[\.\]/ && $1 + 0 >= 1 { sub(/^ *[0-9.]+% +\[\.\] /, ""); print }')
	awk -v m="$1" -v n=$n -v e=$e -v b=$b 'BEGIN { printf "   annotate text %s: %d of %d instructions as perf'"'"'s (%.1f%%), %d (bad)\n", m, e, n, n ? 100 * e / n : 0, b }'
}

rec() { perf record -q -N --no-bpf-event -e cpu-clock -o "$T/$1.data" -- "${@:2}" >/dev/null 2>&1; }
rec evex "$BUILD/workloads/libc_strings" 1 && agree "glibc string functions" "$T/evex.data"
GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW rec avx2 \
	"$BUILD/workloads/libc_strings" 1 && agree "glibc string functions, AVX2" "$T/avx2.data"
rec shares "$BUILD/workloads/shares" 0.5 && agree "shares" "$T/shares.data"
rec cxx "$BUILD/workloads/cxx_inline" 0.5 && agree "cxx_inline (C++)" "$T/cxx.data"
rec sort "$BUILD/workloads/libc_sort" 1 && agree "libc_sort (qsort, memmove)" "$T/sort.data"
if command -v python3 >/dev/null; then
	rec py python3 -c 'import json, re
d = [{"a": i, "b": str(i) * 5} for i in range(20000)]
for _ in range(10): s = json.dumps(d); json.loads(s); re.findall(r"\d+", s)' &&
		agree "python3 (json, re)" "$T/py.data"
fi
