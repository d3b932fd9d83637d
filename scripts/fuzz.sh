#!/usr/bin/env bash
# Fuzzes every text reader (TSPLIB .tsp and .tour, CVRPLIB .vrp and .sol, the .bpp
# and placements formats, bench TOML) and the HDF5 dataset and model loaders with
# libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer (Debian's clang and
# libclang-rt), each for SECONDS, from seed corpora of the project's own files
# (data/, tests/data/, experiments/; datasets and small models of every problem
# written by eie itself). Not part of CI.
# - The text readers are plain C++ (no LibTorch) and build into build-fuzz/; a crash,
#   hang (over 10 s), leak or sanitizer report stops a target with its input saved in
#   build-fuzz/findings/.
# - The bench TOML reader (it knows the registered problems' options) and the HDF5
#   loaders build with the project in build-sanitize/ (scripts/configure_sanitize.sh)
#   and run in fork mode, so that every finding is collected
#   (build-fuzz/findings/<target>-*) rather than the first alone.
# Prints executions, corpus size and findings per target.
# usage: scripts/fuzz.sh [SECONDS [TARGET...]]   (from anywhere; default 60 seconds, every
#        target: tsplib tour cvrplib sol bpp placements bench_toml h5_dataset h5_model)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
[ $# -gt 0 ] && shift
chosen=" ${*:-tsplib tour cvrplib sol bpp placements bench_toml h5_dataset h5_model} "
wanted() { [[ "$chosen" == *" $1 "* ]]; }
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ missing (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }
out=build-fuzz
mkdir -p "$out/obj" "$out/findings"
# toml++ asserts '[=' in a table header away as impossible (parser.inl, parse_key): with
# clang it would abort here, while the release build (GCC 12: no __builtin_assume, asserts
# off) reports a parse error, one line. TOML_ASSERT as a no-op mirrors the release build.
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined
       -fno-sanitize-recover=undefined "-DTOML_ASSERT(expr)=((void)0)" -I.)
readers=(problems/tsp/tsplib.cpp problems/tsp/tour.cpp problems/cvrp/cvrplib.cpp
         problems/cvrp/routes.cpp problems/bpp3d/bpp_file.cpp problems/bpp3d/box.cpp
         problems/bpp3d/packing.cpp problems/bpp3d/height_map.cpp problems/common/point.cpp
         src/util/parse.cpp src/util/atomic_path.cpp)
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
  esac
}

printf '| target | executions | corpus (inputs) | result |\n|---|---|---|---|\n'
status=0
for target in tsplib tour cvrplib sol bpp placements; do
  wanted "$target" || continue
  clang++ "${flags[@]}" -fsanitize=fuzzer "tests/fuzz/fuzz_$target.cpp" "$out/libreaders.a" \
    -o "$out/fuzz_$target"
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

# Targets built with the project; the HDF5 seeds are files of every problem written
# by the sanitized eie, and files with variable-length strings (tests/data/h5/, as
# h5py and older eie write them), whose global heap eie checks before libhdf5 reads it.
scripts/configure_sanitize.sh
cmake --build build-sanitize --target eie fuzz_bench_toml fuzz_h5_dataset fuzz_h5_model \
  -- -j"$(nproc)" >/dev/null
eie=build-sanitize/src/cli/eie
seed_dir="$out/h5-seeds"
mkdir -p "$seed_dir"
for problem in tsp cvrp bpp3d; do
  [ -f "$seed_dir/$problem-data.h5" ] ||
    "$eie" gen --problem "$problem" --n 6 --count 2 --seed 1 --out "$seed_dir/$problem-data.h5" \
      >/dev/null 2>&1
  [ -f "$seed_dir/$problem-model.h5" ] || {
    "$eie" train --problem "$problem" --n 6 --epochs 1 --steps 1 --batch 2 --val-size 2 \
      --baseline-eval-size 2 --embed-dim 8 --heads 2 --layers 1 --ff-hidden 8 --threads 1 \
      --out "$seed_dir/$problem-run" >/dev/null 2>&1
    cp "$seed_dir/$problem-run/model.h5" "$seed_dir/$problem-model.h5"
  }
done
# libhdf5 asks malloc for sizes read from a corrupt file: null, as in the release
# build, gives its one-line error instead of ASan's allocation report.
export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1
export LSAN_OPTIONS="suppressions=$PWD/scripts/sanitize.supp:print_suppressions=0"
for target in bench_toml h5_dataset h5_model; do
  wanted "$target" || continue
  corpus="$out/corpus/$target"
  mkdir -p "$corpus"
  case $target in
    bench_toml) cp experiments/*.toml tests/data/broken/*.toml "$corpus/" ;;
    h5_dataset) cp "$seed_dir"/*-data.h5 tests/data/h5/*-data.h5 tests/data/broken/*.h5 "$corpus/" ;;
    h5_model) cp "$seed_dir"/*-model.h5 tests/data/h5/*-model.h5 tests/data/broken/*.h5 "$corpus/" ;;
  esac
  log="$out/fuzz_$target.log"
  rm -f "$out/findings/$target-"*
  "build-sanitize/tests/fuzz/fuzz_$target" "$corpus" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 \
    -ignore_ooms=1 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
    -artifact_prefix="$out/findings/$target-" -print_final_stats=1 >"$log" 2>&1 || true
  # Fork mode reports "#EXECUTIONS: cov: ..." lines; the last one is the total.
  runs=$( (grep -oE '^#[0-9]+' "$log" || true) | tail -1 | tr -d '#')
  findings=$(ls "$out/findings/" | grep -c "^$target-" || true)
  result=clean
  if [ "$findings" -gt 0 ]; then
    result="$findings FINDINGS (build-fuzz/findings/$target-*, $log)"
    status=1
  fi
  printf '| %s | %s | %s | %s |\n' "$target" "${runs:-?}" "$(ls "$corpus" | wc -l)" "$result"
done
exit $status
