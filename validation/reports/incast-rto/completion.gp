$d0 << EOD
4 0.599664
8 201.048896
16 202.009728
32 601.460496
64 3002.479008
EOD
$d1 << EOD
4 409.542608
8 411.010144
16 659.804512
32 1633.611152
64 3246.166992
EOD
$d2 << EOD
4 0.599664
8 2.048896
16 3.009728
32 5.56448
64 18.203936
EOD
$d3 << EOD
4 36.735616
8 72.995168
16 171.051808
32 374.201798016
64 1061.683581568
EOD
$d4 << EOD
4 0.599664
8 2.048896
16 3.009728
32 5.56448
64 18.203936
EOD
$d5 << EOD
4 36.735616
8 72.995168
16 171.051808
32 374.201798016
64 1061.683581568
EOD
$d6 << EOD
4 0.576544
8 2.025776
16 2.986608
32 5.380752
64 3002.310144
EOD
$d7 << EOD
4 36.712496
8 73.341168
16 151.618544
32 333.78432
64 7092.967536
EOD
$d8 << EOD
4 33.554432
8 67.108864
16 134.217728
32 268.435456
64 536.870912
EOD
set title "Incast completion time" noenhanced
set xlabel "senders N" noenhanced
set ylabel "completion (ms)" noenhanced
set key top left
set grid
set logscale x 2
set logscale y
set terminal png size 900,560
set output 'completion.png'
plot $d0 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 200 ms', $d1 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 200 ms', $d2 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 1 ms', $d3 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 1 ms', $d4 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 1 ms, initial 1 ms', $d5 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 1 ms, initial 1 ms', $d6 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 1 ms, no handshake', $d7 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 1 ms, no handshake', $d8 using 1:2 with linespoints lw 2 title 'flow model m=1024KiB'
set terminal svg size 900,560
set output 'completion.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 200 ms', $d1 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 200 ms', $d2 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 1 ms', $d3 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 1 ms', $d4 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 1 ms, initial 1 ms', $d5 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 1 ms, initial 1 ms', $d6 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 1 ms, no handshake', $d7 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 1 ms, no handshake', $d8 using 1:2 with linespoints lw 2 title 'flow model m=1024KiB'
