$d0 << EOD
4 0.576544
8 201.025776
16 201.986608
32 602.28232
64 3002.29784
EOD
$d1 << EOD
4 226.715296
8 817.343696
16 1227.976576
32 3011.929936
64 15012.176016
EOD
$d2 << EOD
4 0.576544
8 2.025776
16 2.986608
32 5.211008
64 3002.29784
EOD
$d3 << EOD
4 35.739376
8 71.913904
16 144.826736
32 330.564912
64 7098.215392
EOD
$d4 << EOD
4 0.576544
8 2.025776
16 2.986608
32 5.211008
64 17.477296
EOD
$d5 << EOD
4 35.739376
8 71.913904
16 144.826736
32 330.564912
64 1063.234974848
EOD
$d6 << EOD
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
plot $d0 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 200 ms', $d1 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 200 ms', $d2 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 1 ms', $d3 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 1 ms', $d4 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 1 ms, initial 1 ms', $d5 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 1 ms, initial 1 ms', $d6 using 1:2 with linespoints lw 2 title 'flow model m=1024KiB'
set terminal svg size 900,560
set output 'completion.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 200 ms', $d1 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 200 ms', $d2 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 1 ms', $d3 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 1 ms', $d4 using 1:2 with linespoints lw 2 title 'packet m=16KiB RTO 1 ms, initial 1 ms', $d5 using 1:2 with linespoints lw 2 title 'packet m=1024KiB RTO 1 ms, initial 1 ms', $d6 using 1:2 with linespoints lw 2 title 'flow model m=1024KiB'
