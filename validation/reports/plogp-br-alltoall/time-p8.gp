$d0 << EOD
1 0.187134958
2 0.271496408
4 0.396701843
8 0.740947461
16 1.525357759
32 2.603483354
64 4.89471383
128 9.220254819
256 18.740821908
512 237.532164058
1024 634.751185774
EOD
$d1 << EOD
1 0.322118287
2 0.413072851
4 0.548518523
8 0.831326969
16 1.709570361
32 2.723477737
64 4.999093618
128 10.738457243
256 25.955552799
512 55.619491426
1024 119.275495789
EOD
$d2 << EOD
1 0.201682116
2 0.277528431
4 0.429221064
8 0.71247705
16 1.278989024
32 2.508950773
64 4.640108657
128 8.902424424
256 17.42705596
512 34.47631903
1024 68.574845172
EOD
$d3 << EOD
1 0.26122642
2 0.337072736
4 0.488765368
8 0.772021355
16 1.338533329
32 2.76777505
64 4.940888211
128 9.287114534
256 17.97956718
512 35.364472471
1024 70.134283054
EOD
$d4 << EOD
1 0.170263252
2 0.252045872
4 0.397837073
8 0.677755199
16 201.250922462
32 202.44056414
64 204.567274499
128 208.823185345
256 217.322343258
512 234.399960593
1024 268.297058662
EOD
$d5 << EOD
1 0.229807557
2 0.311590176
4 0.457381378
8 0.737299504
16 1.310466766
32 2.500108445
64 4.626818804
128 8.882729649
256 17.381887562
512 34.459504897
1024 68.356602967
EOD
set title "All-to-all on 8 hosts: packet simulation and models" noenhanced
set xlabel "message size m (KiB)" noenhanced
set ylabel "time (ms)" noenhanced
set key top left
set grid
set logscale x 2
set logscale y
set terminal png size 900,560
set output 'time-p8.png'
plot $d0 using 1:2 with linespoints lw 2 title 'packet A', $d1 using 1:2 with linespoints lw 2 title 'packet B', $d2 using 1:2 with linespoints lw 2 title 'PlogP A', $d3 using 1:2 with linespoints lw 2 title 'PlogP B', $d4 using 1:2 with linespoints lw 2 title 'PlogP-BR A', $d5 using 1:2 with linespoints lw 2 title 'PlogP-BR B'
set terminal svg size 900,560
set output 'time-p8.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'packet A', $d1 using 1:2 with linespoints lw 2 title 'packet B', $d2 using 1:2 with linespoints lw 2 title 'PlogP A', $d3 using 1:2 with linespoints lw 2 title 'PlogP B', $d4 using 1:2 with linespoints lw 2 title 'PlogP-BR A', $d5 using 1:2 with linespoints lw 2 title 'PlogP-BR B'
