#!/usr/bin/env bash
# Compares what two builds of the CLI count on the same inputs: every figure of `scan`'s JSON (events,
# malformed, the first malformed line numbers, oversized lines, bytes, countBy, matches) under several
# option sets, for each input. Exit 0 when all are identical, 1 with the differences otherwise.
#
# Usage: bench/compare-scan-counts.sh BASE_JAR NEW_JAR INPUT...
#   BASE_JAR  local/target/batchpipe.jar built from the commit to compare with, e.g.
#             git archive <commit> | tar -x -C /tmp/base && (cd /tmp/base && ./mvnw -q -DskipTests -pl local -am package)
#   NEW_JAR   this checkout's local/target/batchpipe.jar
#   INPUT     log files (zstd, gzip or plain), e.g. the bench's corpora in target/bench/scan-*.jsonl.zst
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=../bin/find-java.sh
. "$root/bin/find-java.sh"
batchpipe_find_java || exit 1
if [ $# -lt 3 ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
base=$1 new=$2
shift 2
java_opts=(-XX:+UseParallelGC -Djdk.util.jar.enableMultiRelease=false)
if [ "$BATCHPIPE_JAVA_MAJOR" -ge 22 ]; then java_opts+=(--enable-native-access=ALL-UNNAMED); fi
option_sets=(
  "--count-by level,status"
  "--count-by level,status,service,msg,http.status,http.method,request.method,retry,parent,tags,samples,t,k,ts"
  "--field level --equals ERROR"
  "--field status --equals 500"
  "--field http.status --equals 404"
  "--contains caf"
)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
differences=0
for input in "$@"; do
  for options in "${option_sets[@]}"; do
    # shellcheck disable=SC2086
    "$JAVA" "${java_opts[@]}" -jar "$base" scan "$input" --workers 2 $options > "$tmp/base.json"
    # shellcheck disable=SC2086
    "$JAVA" "${java_opts[@]}" -jar "$new" scan "$input" --workers 2 $options > "$tmp/new.json"
    if cmp -s "$tmp/base.json" "$tmp/new.json"; then
      summary=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("events %s, malformed %s, matches %s, bytes %s, countBy %d paths" % (r["events"], r["malformed"], r.get("matches", "-"), r["bytes"], len(r.get("countBy", {}))))' "$tmp/new.json")
      echo "same: $(basename "$input") $options: $summary"
    else
      echo "DIFFERENT: $(basename "$input") $options"
      diff <(python3 -m json.tool "$tmp/base.json") <(python3 -m json.tool "$tmp/new.json") || true
      differences=$((differences + 1))
    fi
  done
done
if [ "$differences" -gt 0 ]; then
  echo "$differences comparisons differ" >&2
  exit 1
fi
echo "all identical"
