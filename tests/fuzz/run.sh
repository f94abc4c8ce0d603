#!/usr/bin/env bash
# Runs fuzz targets for a bounded time each and prints, per target, how long
# it ran, how many inputs it executed and whether it crashed:
#
#   tests/fuzz/run.sh SECONDS [TARGET...]     (default: every target)
#
# The corpus (tests/fuzz/corpus/<target>, seeded from tests/vectors by
# seed.mjs) grows from run to run; a crash is written to
# tests/fuzz/artifacts/<target>/ and makes the script fail after the other
# targets have run. A crash becomes a regression test by copying the input
# to tests/fuzz/regressions/<target>/ (tests/fuzz_regressions.rs runs them).
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:?usage: tests/fuzz/run.sh SECONDS [TARGET...]}
shift
all=(plan safe_url auth_url auth_callback envelope notification json)
targets=("$@")
[ "$#" -eq 0 ] && targets=("${all[@]}")

if ! rustc +nightly --version >/dev/null 2>&1; then
  echo "fuzzing needs the nightly toolchain (rustup toolchain install nightly); it is missing" >&2
  exit 1
fi

fuzz=(cargo +nightly fuzz)
dir=tests/fuzz
node "$dir/seed.mjs" >/dev/null
# Debug assertions on: an arithmetic overflow is a finding too.
build_log=$(mktemp)
if ! "${fuzz[@]}" build --fuzz-dir "$dir" --debug-assertions >"$build_log" 2>&1; then
  cat "$build_log" >&2
  exit 1
fi
rm -f "$build_log"

failed=()
summary=()
for t in "${targets[@]}"; do
  log=$(mktemp)
  start=$(date +%s)
  status=ok
  if ! "${fuzz[@]}" run --fuzz-dir "$dir" --debug-assertions "$t" -- \
      -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    status=CRASH
    failed+=("$t")
    grep -E "panicked at|^(thread|assertion)|SUMMARY|Test unit written" "$log" | head -8 >&2 || tail -20 "$log" >&2
  fi
  took=$(( $(date +%s) - start ))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  corpus=$(find "$dir/corpus/$t" -type f | wc -l)
  summary+=("$(printf '%-14s %5ss %12s runs %7s corpus files  %s' "$t" "$took" "${runs:-?}" "$corpus" "$status")")
  rm -f "$log"
done

printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzzing found crashes in: ${failed[*]} (inputs in $dir/artifacts/)" >&2
  exit 1
fi
