# Data mining flow sizes: a large cluster running data mining jobs, Greenberg et al., "VL2: A
# Scalable and Flexible Data Center Network", SIGCOMM 2009, Figure 2, as the points pFabric
# (SIGCOMM 2013) and Opera (NSDI 2020) digitised from it. Mean 5.04 MB (piecewise linear); 80 %
# of flows under 10 KB. Columns: flow size in bytes, cumulative probability.
100 0
180 0.085
250 0.14
560 0.33
900 0.47
1100 0.55
1870 0.65
3160 0.70
10000 0.80
100001 0.874
400000 0.90
1850000 0.95
10000000 0.97
30000000 0.98
100000000 0.99
250000000 0.995
1000000000 1
