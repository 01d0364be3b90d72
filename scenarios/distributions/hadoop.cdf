# Hadoop flow sizes: Facebook's Hadoop cluster, Roy et al., "Inside the Social Network's
# (Datacenter) Network", SIGCOMM 2015, Figure 6, as the points HPCC (SIGCOMM 2019) digitised
# from it. Mean 120 KB (piecewise linear). Columns: flow size in bytes, cumulative probability.
0 0
100 0.01
200 0.02
300 0.05
350 0.15
400 0.20
500 0.30
600 0.40
700 0.50
1000 0.60
2000 0.67
7000 0.70
30000 0.72
50000 0.82
80000 0.87
120000 0.90
300000 0.95
1000000 0.975
2000000 0.99
10000000 1
