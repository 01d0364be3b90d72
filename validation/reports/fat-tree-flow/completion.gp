$d0 << EOD
54 2599.952
128 6727.192
250 13312.674
432 23421.552
686 36751.138
EOD
$d1 << EOD
54 1060.0
128 2540.0
250 4980.0
432 8620.0
686 13700.0
EOD
$d2 << EOD
54 3044.754
128 7583.536
250 14866.216
432 25970.342
686 41920.244
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
