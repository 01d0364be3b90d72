$d0 << EOD
8 4973.05
10 9487.212
11 11554.986
12 14634.134
13 17817.368
14 22488.52
15 27294.85
16 32849.066
EOD
$d1 << EOD
8 4577.380319
10 9855.306171
11 11611.539244
12 19406.927898
13 19269.994254
14 27476.385036
15 32914.080098
16 38537.380451
EOD
$d2 << EOD
8 4325.342
10 8528.376
11 11298.32
12 14885.914
13 18886.152
14 23867.98
15 29340.384
16 35957.238
EOD
$d3 << EOD
8 3440.0
10 6700.0
11 8800.0
12 11560.0
13 14560.0
14 18340.0
15 22400.0
16 27360.0
EOD
$d4 << EOD
8 1280.0
10 2500.0
11 3327.5
12 4320.0
13 5492.5
14 6860.0
15 8437.5
16 10240.0
EOD
set title "n x n torus, A2ASS and A2ASS2D: packet vs flow (Mode F)" noenhanced
set xlabel "n" noenhanced
set ylabel "completion (us)" noenhanced
set key top left
set grid
set logscale y
set terminal png size 900,560
set output 'completion.png'
plot $d0 using 1:2 with linespoints lw 2 title 'packet A2ASS', $d1 using 1:2 with linespoints lw 2 title 'flow F A2ASS', $d2 using 1:2 with linespoints lw 2 title 'packet A2ASS2D', $d3 using 1:2 with linespoints lw 2 title 'flow F A2ASS2D', $d4 using 1:2 with linespoints lw 2 title 'bound n^3/8'
set terminal svg size 900,560
set output 'completion.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'packet A2ASS', $d1 using 1:2 with linespoints lw 2 title 'flow F A2ASS', $d2 using 1:2 with linespoints lw 2 title 'packet A2ASS2D', $d3 using 1:2 with linespoints lw 2 title 'flow F A2ASS2D', $d4 using 1:2 with linespoints lw 2 title 'bound n^3/8'
