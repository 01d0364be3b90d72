$d0 << EOD
16 4808.207275001
32 4385.969195001
64 4591.743210001
128 8514.858385001
EOD
$d1 << EOD
16 5131.085335001
32 3503.290960001
64 2801.064995001
128 2836.457535001
EOD
$d2 << EOD
16 4808.207275001
32 3019.282615001
64 1566.808340001
128 1074.010350001
EOD
$d3 << EOD
16 5131.085335001
32 3009.114680001
64 1524.034405001
128 1040.152345001
EOD
$d4 << EOD
16 5266.403691383
32 3200.233326256
64 1949.674552903
128 1398.336343226
EOD
$d5 << EOD
16 4859.061660899
32 2850.922194693
64 1684.887177932
128 1153.098380001
EOD
set title "NPB-like LU class B: run time" noenhanced
set xlabel "ranks P" noenhanced
set ylabel "run time (ms)" noenhanced
set key top left
set grid
set logscale x 2
set logscale y
set terminal png size 900,560
set output 'time-lu.png'
plot $d0 using 1:2 with linespoints lw 2 title 'packet, cascade (1 uplink), tcp', $d1 using 1:2 with linespoints lw 2 title 'packet, cascade (1 uplink), lossless', $d2 using 1:2 with linespoints lw 2 title 'packet, flat (one switch), tcp', $d3 using 1:2 with linespoints lw 2 title 'packet, flat (one switch), lossless', $d4 using 1:2 with linespoints lw 2 title 'mpiete (cascade fit)', $d5 using 1:2 with linespoints lw 2 title 'loggps (cascade fit)'
set terminal svg size 900,560
set output 'time-lu.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'packet, cascade (1 uplink), tcp', $d1 using 1:2 with linespoints lw 2 title 'packet, cascade (1 uplink), lossless', $d2 using 1:2 with linespoints lw 2 title 'packet, flat (one switch), tcp', $d3 using 1:2 with linespoints lw 2 title 'packet, flat (one switch), lossless', $d4 using 1:2 with linespoints lw 2 title 'mpiete (cascade fit)', $d5 using 1:2 with linespoints lw 2 title 'loggps (cascade fit)'
