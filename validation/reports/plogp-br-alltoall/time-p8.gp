$d0 << EOD
1 0.187574997
2 0.274607366
4 0.43127921
8 0.747093122
16 1.400592831
32 2.605039861
64 4.747050411
128 9.378173347
256 18.636040919
512 626.68629249
1024 276.315143373
EOD
$d1 << EOD
1 0.323349376
2 0.412165209
4 0.607206013
8 0.831206569
16 2.157812995
32 2.716082252
64 5.001060866
128 9.578206254
256 30.568778485
512 64.590992992
1024 128.297657061
EOD
$d2 << EOD
1 0.201663546
2 0.276968144
4 0.427577339
8 0.709339027
16 1.272862402
32 2.514697115
64 4.63470923
128 8.874733461
256 17.354781921
512 34.314878842
1024 68.235072683
EOD
$d3 << EOD
1 0.261507893
2 0.336812491
4 0.487421686
8 0.769183374
16 1.33270675
32 2.769806855
64 4.955338199
128 9.326400887
256 18.068526263
512 35.552777016
1024 70.521278521
EOD
$d4 << EOD
1 0.16999884
2 0.258706379
4 0.394973457
8 0.672571701
16 201.239476342
32 202.470289313
64 204.545217067
128 208.848214701
256 217.340929271
512 234.379278225
1024 268.339059339
EOD
$d5 << EOD
1 0.229843187
2 0.318550727
4 0.454817804
8 0.732416048
16 1.29932069
32 2.530133661
64 4.605061415
128 8.908059049
256 17.400773618
512 34.439122573
1024 68.398903687
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
