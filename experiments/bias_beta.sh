#!/usr/bin/env bash
# Chooses beta for the training-free bias policies (fixed, logn, sqrtn) of a model:
# greedy decoding of 128 validation instances at n = 200 (seed 2002: never the
# tables' instances, which come from seed 1), first without a bias, then for every
# beta of a doubling grid and each place the bias applies; prints "policy beta@parts
# cost" rows, then the best beta per policy and parts.
# usage: experiments/bias_beta.sh MODEL [THREADS [PROBLEM_FLAGS...]]
#   e.g. experiments/bias_beta.sh build/kool-tsp100.h5 1
#        experiments/bias_beta.sh build/kool-cvrp100.h5 1 --problem cvrp --protocol kool
source "$(dirname "${BASH_SOURCE[0]}")/preamble.sh" "${2:-2}"
model=$1
shift $(( $# >= 2 ? 2 : 1 ))
"$eie" gen "$@" --n 200 --count 128 --seed 2002 --out "$work/val.h5" >/dev/null
solve() { "$eie" solve --dataset "$work/val.h5" --model "$model" --threads "$threads" "$@" |
            awk '/instances:/ { print $4 }'; }
echo "none - $(solve --bias none)"
for parts in pointer glimpse,pointer all; do
  for policy in fixed logn sqrtn; do
    for beta in 0.5 1 2 4 8 16 32 64; do
      echo "$policy $beta@$parts $(solve --bias "$policy:$beta@$parts")"
    done
  done
done | tee "$work/rows.txt"
echo "best beta per policy and parts:"
awk '{ split($2, b, "@"); key = $1 "@" b[2]
       if (!(key in best) || $3 < best[key]) { best[key] = $3; beta[key] = b[1] } }
     END { for (k in best) print k, beta[k], best[k] }' "$work/rows.txt" | sort
