#!/usr/bin/env bash
# Fuzzes every text reader (TSPLIB .tsp and .tour, CVRPLIB .vrp and .sol, the .bpp
# and placements formats, bench TOML) with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer (Debian's clang and libclang-rt), each for SECONDS,
# from seed corpora of the project's own files (data/, tests/data/, experiments/).
# Not part of CI. Builds into build-fuzz/ (the readers are plain C++: no LibTorch);
# a crash, hang (over 10 s), leak or sanitizer report stops a target with its input
# saved in build-fuzz/findings/. Prints executions and corpus size per target.
# usage: scripts/fuzz.sh [SECONDS]   (from anywhere; default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ missing (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }
out=build-fuzz
mkdir -p "$out/obj" "$out/findings"
# toml++ asserts '[=' in a table header away as impossible (parser.inl, parse_key): with
# clang it would abort here, while the release build (GCC 12: no __builtin_assume, asserts
# off) reports a parse error, one line. TOML_ASSERT as a no-op mirrors the release build.
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined
       -fno-sanitize-recover=undefined "-DTOML_ASSERT(expr)=((void)0)" -Isrc -Iproblems)
readers=(problems/tsp/tsplib.cpp problems/tsp/tour.cpp problems/cvrp/cvrplib.cpp
         problems/cvrp/routes.cpp problems/bpp3d/bpp_file.cpp problems/bpp3d/box.cpp
         problems/bpp3d/packing.cpp problems/bpp3d/height_map.cpp problems/common/point.cpp
         src/util/parse.cpp src/util/atomic_path.cpp src/bench/bench_config.cpp)
objects=()
for source in "${readers[@]}"; do
  object="$out/obj/$(echo "$source" | tr / _).o"
  if [ ! -f "$object" ] || [ "$source" -nt "$object" ]; then
    clang++ "${flags[@]}" -fsanitize=fuzzer-no-link -c "$source" -o "$object"
  fi
  objects+=("$object")
done
rm -f "$out/libreaders.a"
ar rcs "$out/libreaders.a" "${objects[@]}"

seeds() {  # target -> files its corpus starts from
  case $1 in
    tsplib) ls data/instances/*.tsp tests/data/broken/*.tsp ;;
    tour) printf 'TYPE : TOUR\nDIMENSION : 3\nTOUR_SECTION\n1\n3\n2\n-1\nEOF\n' > "$out/seed.tour"; echo "$out/seed.tour" ;;
    cvrplib) ls tests/data/broken/*.vrp ;;
    sol) printf 'Route #1: 1 3\nRoute #2: 2\nCost 42\n' > "$out/seed.sol"; echo "$out/seed.sol" ;;
    bpp) ls tests/data/broken/*.bpp ;;
    placements) printf '120 100 50\n0 0 0 0 50 50 50\n1 50 0 0 10 10 10\n' > "$out/seed.placements"; echo "$out/seed.placements" ;;
    bench_toml) ls experiments/*.toml tests/data/broken/*.toml ;;
  esac
}

printf '| target | executions | corpus (inputs) | result |\n|---|---|---|---|\n'
status=0
for target in tsplib tour cvrplib sol bpp placements bench_toml; do
  clang++ "${flags[@]}" -fsanitize=fuzzer "tests/fuzz/fuzz_$target.cpp" "$out/libreaders.a" \
    -Itests/fuzz -o "$out/fuzz_$target"
  corpus="$out/corpus/$target"
  mkdir -p "$corpus"
  for seed in $(seeds "$target"); do cp "$seed" "$corpus/"; done
  log="$out/fuzz_$target.log"
  result=clean
  if ! "$out/fuzz_$target" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
       -max_len=65536 -artifact_prefix="$out/findings/$target-" -print_final_stats=1 >"$log" 2>&1; then
    result="FINDING (see $log)"
    status=1
  fi
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  printf '| %s | %s | %s | %s |\n' "$target" "${runs:-?}" "$(ls "$corpus" | wc -l)" "$result"
done
exit $status
