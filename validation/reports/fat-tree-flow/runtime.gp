$d0 << EOD
54 0.262293872
128 1.429684464
250 6.088446291
432 29.350187092
686 94.735367729
EOD
$d1 << EOD
54 0.150091283
128 0.876994107
250 4.549853211
432 14.028407867
686 74.332749636
EOD
$d2 << EOD
54 0.023015112
128 0.436150296
250 2.570493926
432 14.587227309
686 74.262084343
EOD
$d3 << EOD
54 0.001461188
128 0.016963973
250 0.151061588
432 0.204309769
686 1.511680584
EOD
$d4 << EOD
54 0.000734921
128 0.016988549
250 0.056797744
432 0.238150876
686 0.216018053
EOD
$d5 << EOD
54 0.000785205
128 0.008708803
250 0.051353374
432 0.273214197
686 0.483790295
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
