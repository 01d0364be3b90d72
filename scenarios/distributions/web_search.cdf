# Web search flow sizes: the query and background traffic of a production web search cluster,
# Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010, Figure 4, as the points pFabric
# (SIGCOMM 2013) and HPCC (SIGCOMM 2019) digitised from it and simulated with. Mean 1.71 MB
# (piecewise linear). Columns: flow size in bytes, cumulative probability.
0 0
10000 0.15
20000 0.20
30000 0.30
50000 0.40
80000 0.53
200000 0.60
1000000 0.70
2000000 0.80
5000000 0.90
10000000 0.97
30000000 1
