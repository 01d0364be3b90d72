$d0 << EOD
54 2653.336
128 6810.746
250 14123.906
432 24799.052
686 40159.618
EOD
$d1 << EOD
54 1060.0
128 2540.0
250 4980.0
432 8620.0
686 13700.0
EOD
$d2 << EOD
54 3163.184
128 7442.98
250 15134.52
432 25921.666
686 41487.614
EOD
$d3 << EOD
54 2765.2083
128 6733.499466
250 14002.019182
432 24296.010017
686 40285.509538
EOD
$d4 << EOD
54 2444.312465
128 6509.154047
250 13232.556516
432 22990.63163
686 37055.836604
EOD
$d5 << EOD
54 1060.0
128 2540.0
250 4980.0
432 8620.0
686 13700.0
EOD
set title "Fat-tree all-to-all (A2ASS): packet vs flow" noenhanced
set xlabel "Nnode" noenhanced
set ylabel "completion (us)" noenhanced
set key top left
set grid
set logscale x 2
set logscale y
set terminal png size 900,560
set output 'completion.png'
plot $d0 using 1:2 with linespoints lw 2 title 'packet regular', $d1 using 1:2 with linespoints lw 2 title 'flow F regular', $d2 using 1:2 with linespoints lw 2 title 'packet random', $d3 using 1:2 with linespoints lw 2 title 'flow F random', $d4 using 1:2 with linespoints lw 2 title 'flow N random', $d5 using 1:2 with linespoints lw 2 title 'ideal (Nnode-1) x 20 us'
set terminal svg size 900,560
set output 'completion.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'packet regular', $d1 using 1:2 with linespoints lw 2 title 'flow F regular', $d2 using 1:2 with linespoints lw 2 title 'packet random', $d3 using 1:2 with linespoints lw 2 title 'flow F random', $d4 using 1:2 with linespoints lw 2 title 'flow N random', $d5 using 1:2 with linespoints lw 2 title 'ideal (Nnode-1) x 20 us'
