$d0 << EOD
54 0.08062896
128 0.574912786
250 2.430185919
432 8.701583198
686 24.865506214
EOD
$d1 << EOD
54 0.076389161
128 0.495502517
250 2.331576819
432 8.21738478
686 25.471178481
EOD
$d2 << EOD
54 0.01388919
128 0.185957836
250 1.469847824
432 9.074435664
686 42.333361179
EOD
$d3 << EOD
54 0.001809789
128 0.011607277
250 0.051948051
432 0.189283864
686 0.593974362
EOD
$d4 << EOD
54 0.001530466
128 0.009545877
250 0.026058047
432 0.092379365
686 0.268144804
EOD
$d5 << EOD
54 0.001071136
128 0.01027946
250 0.028003781
432 0.100569963
686 0.273587005
EOD
set title "Run time (A2ASS)" noenhanced
set xlabel "Nnode" noenhanced
set ylabel "wall-clock (s)" noenhanced
set key top left
set grid
set logscale x 2
set logscale y
set terminal png size 900,560
set output 'runtime.png'
plot $d0 using 1:2 with linespoints lw 2 title 'packet regular', $d1 using 1:2 with linespoints lw 2 title 'packet random', $d2 using 1:2 with linespoints lw 2 title 'flow N random', $d3 using 1:2 with linespoints lw 2 title 'flow F random', $d4 using 1:2 with linespoints lw 2 title 'flow F regular', $d5 using 1:2 with linespoints lw 2 title 'flow N regular'
set terminal svg size 900,560
set output 'runtime.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'packet regular', $d1 using 1:2 with linespoints lw 2 title 'packet random', $d2 using 1:2 with linespoints lw 2 title 'flow N random', $d3 using 1:2 with linespoints lw 2 title 'flow F random', $d4 using 1:2 with linespoints lw 2 title 'flow F regular', $d5 using 1:2 with linespoints lw 2 title 'flow N regular'
