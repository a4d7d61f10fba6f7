#!/usr/bin/env bash
# Times whole `./batchpipe scan` processes of two checkouts side by side, fairly: each checkout gets several
# start-up caches of its own, each recorded by its own first run as a user's is, and the timed runs rotate
# over every (checkout, cache) pair, with `zstd -dc` in each round for scale.
#
# Why several caches: on JDK 25 the cache holds the recording run's profiles (JEP 515), and which ones it
# caught moves a scan by up to 7% (five caches of one build, rotated on the long-values corpus: 1.018 to
# 1.110 s). With one cache per checkout that is a bias no number of rounds removes.
#
# Usage: bench/compare-scan-speed.sh BASE_DIR NEW_DIR FILE [CACHES [ROUNDS]]
#   BASE_DIR, NEW_DIR  checkouts with their CLI built (./batchpipe builds it when stale), e.g. a worktree of
#                      the commit to compare with: git worktree add /tmp/base <commit>
#   FILE               the log to scan, e.g. a bench corpus in target/bench/scan-*.jsonl.zst
#   CACHES             caches per checkout (default 3); ROUNDS rotations (default 5)
# Scans with --workers 2 --count-by level,status, as the bench does. Prints, per checkout, the mean and
# median wall time, the mean CPU-seconds and each cache's mean; the caches are removed at the end.
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '10,16p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
base=$(cd "$1" && pwd) new=$(cd "$2" && pwd) caches=${4:-3} rounds=${5:-5}
[ -r "$3" ] || { echo "compare-scan-speed: cannot read $3" >&2; exit 2; }
file="$(cd "$(dirname "$3")" && pwd)/$(basename "$3")" # the scans run from each checkout
for n in "$caches" "$rounds"; do
  case "$n" in ''|*[!0-9]*|0) echo "compare-scan-speed: CACHES and ROUNDS must be whole numbers of at least 1, got '$n'" >&2; exit 2 ;; esac
done
for d in "$base" "$new"; do
  [ -x "$d/batchpipe" ] || { echo "compare-scan-speed: $d has no ./batchpipe" >&2; exit 2; }
done
command -v zstd >/dev/null || { echo "compare-scan-speed: zstd not found" >&2; exit 2; }
time_cmd=/usr/bin/time
[ -x "$time_cmd" ] || { echo "compare-scan-speed: needs GNU time at /usr/bin/time" >&2; exit 2; }

# A property no code reads gives each cache a key of its own: ./batchpipe keys its caches by the options
# in BATCHPIPE_JAVA_OPTS. The nonce keeps this run's caches apart from any earlier run's.
nonce="$$-$(date +%s)"
cache_opt() { printf -- '-Dbatchpipe.benchCache=%s-%s' "$nonce" "$1"; }
scan_command=(bash -c 'cd "$1" && BATCHPIPE_JAVA_OPTS="$2" exec ./batchpipe scan "$3" --workers 2 --count-by level,status' scan)
cleanup() {
  for d in "$base" "$new"; do
    for k in $(seq "$caches"); do
      sum=$(printf '%s' "${JAVA_TOOL_OPTIONS:-}|${JDK_JAVA_OPTIONS:-}|$(cache_opt "$k")" | cksum | cut -d' ' -f1)
      rm -f "$d"/local/target/cds/scan-*-opts"$sum".aot "$d"/local/target/cds/scan-*-opts"$sum".jsa
    done
  done
}
trap cleanup EXIT

for d in "$base" "$new"; do
  for k in $(seq "$caches"); do
    echo "compare-scan-speed: recording cache $k of $d" >&2
    BATCHPIPE_CDS_WAIT=1 "${scan_command[@]}" "$d" "$(cache_opt "$k")" "$file" >/dev/null
  done
done
out=$(mktemp)
for r in $(seq "$rounds"); do
  echo "compare-scan-speed: round $r of $rounds" >&2
  for d in "$base" "$new"; do
    for k in $(seq "$caches"); do
      "$time_cmd" -f "$d $k %e %U %S" -o "$out.one" "${scan_command[@]}" "$d" "$(cache_opt "$k")" "$file" >/dev/null
      cat "$out.one" >>"$out"
    done
  done
  "$time_cmd" -f "zstd 0 %e %U %S" -o "$out.one" zstd -dc "$file" >/dev/null
  cat "$out.one" >>"$out"
done
for d in "$base" "$new" zstd; do
  awk -v k="$d" '$1 == k { print $3, $4 + $5 }' "$out" | sort -n | awk -v k="$d" '
    { w[NR] = $1; s += $1; c += $2 }
    END { printf "%s\n  wall mean %.3f s, median %.3f s, CPU %.2f s (%d runs)\n", k, s / NR,
          (NR % 2 ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2), c / NR, NR }'
  if [ "$d" != zstd ]; then
    awk -v k="$d" '$1 == k { s[$2] += $3; n[$2]++ } END { printf "  per cache:"; for (c = 1; c in s; c++) printf " %.3f", s[c] / n[c]; printf "\n" }' "$out"
  fi
done
rm -f "$out" "$out.one"
