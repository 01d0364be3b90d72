$d0 << EOD
54 0.338000305
128 2.588421854
250 8.841241235
432 23.728790483
686 45.196054709
EOD
$d1 << EOD
54 0.125062163
128 0.683288769
250 3.666159868
432 13.374917612
686 38.057573178
EOD
$d2 << EOD
54 0.010630635
128 0.216678458
250 1.827730045
432 8.706809831
686 39.209853015
EOD
$d3 << EOD
54 0.001516881
128 0.009224678
250 0.043372972
432 0.222040064
686 0.543272401
EOD
$d4 << EOD
54 0.000721852
128 0.016795383
250 0.034839299
432 0.375778394
686 0.229509753
EOD
$d5 << EOD
54 0.000828179
128 0.012922175
250 0.040982114
432 0.301338181
686 0.284690783
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
