$d0 << EOD
256 0.032119283401
512 0.139959593161
1024 0.737972545371
2048 4.977041866081
4096 34.014675022041
EOD
$d1 << EOD
256 0.032119283401
512 0.139959593161
1024 0.737972545371
2048 4.613048588051
4096 32.474656811451
EOD
$d2 << EOD
256 0.032119283401
512 0.139959593161
1024 0.737972545371
2048 4.490668318381
4096 31.343674101421
EOD
$d3 << EOD
256 0.033828703401
512 0.143391893161
1024 0.744850605371
2048 8.278208929001
4096 63.039354024961
EOD
$d4 << EOD
256 0.026874491168
512 0.11427605506
1024 0.643794918045
2048 4.296494356853
4096 31.371784495752
EOD
$d5 << EOD
256 0.032510913782
512 0.140347460967
1024 0.738362769448
2048 4.977590152072
4096 34.014868125172
EOD
$d6 << EOD
256 0.027513846603
512 0.116638290495
1024 0.64960291348
2048 4.309193872288
4096 31.398267051187
EOD
$d7 << EOD
256 0.031995196384
512 0.133669124392
1024 0.703567637348
2048 4.799231337291
4096 33.307722928207
EOD
set title "Gaussian elimination, 16 ranks: run time" noenhanced
set xlabel "matrix order n" noenhanced
set ylabel "run time (s)" noenhanced
set key top left
set grid
set logscale x 2
set logscale y
set terminal png size 900,560
set output 'runtime.png'
plot $d0 using 1:2 with linespoints lw 2 title 'packet, original (S = 16383)', $d1 using 1:2 with linespoints lw 2 title 'packet, fix 1: S = 65536', $d2 using 1:2 with linespoints lw 2 title 'packet, fix 2: fragments <= 16383 B', $d3 using 1:2 with linespoints lw 2 title 'packet, fix 3: isend forwarding', $d4 using 1:2 with linespoints lw 2 title 'loggp, original (S = 16383)', $d5 using 1:2 with linespoints lw 2 title 'loggps, original (S = 16383)', $d6 using 1:2 with linespoints lw 2 title 'loggp, fix 3: isend forwarding', $d7 using 1:2 with linespoints lw 2 title 'loggps, fix 3: isend forwarding'
set terminal svg size 900,560
set output 'runtime.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'packet, original (S = 16383)', $d1 using 1:2 with linespoints lw 2 title 'packet, fix 1: S = 65536', $d2 using 1:2 with linespoints lw 2 title 'packet, fix 2: fragments <= 16383 B', $d3 using 1:2 with linespoints lw 2 title 'packet, fix 3: isend forwarding', $d4 using 1:2 with linespoints lw 2 title 'loggp, original (S = 16383)', $d5 using 1:2 with linespoints lw 2 title 'loggps, original (S = 16383)', $d6 using 1:2 with linespoints lw 2 title 'loggp, fix 3: isend forwarding', $d7 using 1:2 with linespoints lw 2 title 'loggps, fix 3: isend forwarding'
