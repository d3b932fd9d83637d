#!/usr/bin/env bash
# The pictures of results/pictures/: every kind, at n = 100 and n = 1600 (1,000 boxes
# for packing), drawn from the instances in results/pictures/instances (uniform
# random; the .bpp header says how they were drawn) and the bundled kroA100.
# usage: experiments/pictures.sh [THREADS]
source "$(dirname "${BASH_SOURCE[0]}")/preamble.sh" "${1:-2}"
out=results/pictures
in=$out/instances
run() { echo "+ eie $*"; "$eie" "$@" --threads "$threads"; }
# Solutions of the shipped policies (greedy: without --decode, solve runs the anytime
# solver, whose search would draw over the policy's tour), and of classical methods.
run solve data/instances/kroA100.tsp --decode greedy --optimum 21282 --plot $out/tsp-kroA100-policy.png
run solve data/instances/kroA100.tsp --decode multistart:100+aug8 --optimum 21282 \
  --plot $out/tsp-kroA100-policy-multistart-aug8.png
run solve $in/u1600.tsp --decode greedy --plot $out/tsp-u1600-policy.png
run solve $in/u1600.tsp --method nn --improve 2opt --plot $out/tsp-u1600-nn-2opt.png
run solve $in/u100.vrp --decode greedy --plot $out/cvrp-u100-policy.png
run solve $in/u1600.vrp --method savings --plot $out/cvrp-u1600-savings.png
run solve $in/b100.bpp --decode greedy --plot $out/bpp3d-b100-policy.png
run solve $in/b1000.bpp --method heightmap --plot $out/bpp3d-b1000-heightmap.png
# A solution file of another solver (eie's savings, written first) drawn by eie plot.
run solve $in/u100.vrp --method savings --out "$work/u100.sol"
run plot $in/u100.vrp "$work/u100.sol" --out $out/cvrp-u100-savings-plot.png
