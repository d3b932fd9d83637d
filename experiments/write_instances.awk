# Writes one random instance file on stdout: a TSPLIB .tsp (kind=tsp) or a CVRPLIB .vrp
# (kind=cvrp: depot at a random point, demands U{1..9}, capacity 50, as Kool et al.'s
# distribution), EUC_2D on a 1,000,000 grid; layout=uniform, or clustered (n/50 Gaussian
# clusters, sigma 0.05, clipped to the square).
# usage: awk -v kind=tsp -v layout=clustered -v n=500 -v seed=1 -f write_instances.awk
function coordinate(centre,    u, v, p) {  # u, v, p: locals
  if (layout != "clustered") return rand()
  do {  # Box-Muller
    u = rand(); v = rand()
    p = centre + 0.05 * sqrt(-2 * log(u + 1e-12)) * cos(6.283185307 * v)
  } while (p < 0 || p > 1)
  return p
}
BEGIN {
  srand(seed)
  clusters = int(n / 50); if (clusters < 1) clusters = 1
  for (c = 0; c < clusters; ++c) { cx[c] = rand(); cy[c] = rand() }
  nodes = kind == "cvrp" ? n + 1 : n
  print "NAME : " kind "-" layout "-" n "-" seed
  print "TYPE : " (kind == "cvrp" ? "CVRP" : "TSP")
  print "DIMENSION : " nodes
  print "EDGE_WEIGHT_TYPE : EUC_2D"
  if (kind == "cvrp") print "CAPACITY : 50"
  print "NODE_COORD_SECTION"
  for (i = 1; i <= nodes; ++i) {
    c = int(rand() * clusters)
    if (kind == "cvrp" && i == 1) { x = rand(); y = rand() } else { x = coordinate(cx[c]); y = coordinate(cy[c]) }
    printf "%d %d %d\n", i, int(x * 1000000), int(y * 1000000)
  }
  if (kind == "cvrp") {
    print "DEMAND_SECTION"
    for (i = 1; i <= nodes; ++i) printf "%d %d\n", i, (i == 1 ? 0 : 1 + int(rand() * 9))
    print "DEPOT_SECTION"
    print "1"
    print "-1"
  }
  print "EOF"
}
