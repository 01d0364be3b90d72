$d0 << EOD
256 0.0
512 0.0
1024 0.0
2048 7.404358079009928
4096 4.92152380674921
EOD
$d1 << EOD
256 0.0
512 0.0
1024 0.0
2048 0.0
4096 0.0
EOD
$d2 << EOD
256 0.0
512 0.0
1024 0.0
2048 0.0
4096 0.0
EOD
$d3 << EOD
256 0.0
512 0.0
1024 0.0
2048 8.516400014102492
4096 6.657960852842784
EOD
$d4 << EOD
256 0.0
512 0.0
1024 0.0
2048 0.0
4096 0.0
EOD
$d5 << EOD
256 0.0
512 0.0
1024 0.0
2048 7.674769570001736
4096 5.042522494863456
EOD
set title "Send wait + rendezvous sync, share of run time" noenhanced
set xlabel "matrix order n" noenhanced
set ylabel "send wait + sync (% of run time)" noenhanced
set key top left
set grid
set logscale x 2
set terminal png size 900,560
set output 'sendwait.png'
plot $d0 using 1:2 with linespoints lw 2 title 'packet, original (S = 16383)', $d1 using 1:2 with linespoints lw 2 title 'packet, fix 1: S = 65536', $d2 using 1:2 with linespoints lw 2 title 'packet, fix 2: fragments <= 16383 B', $d3 using 1:2 with linespoints lw 2 title 'packet, fix 3: isend forwarding', $d4 using 1:2 with linespoints lw 2 title 'loggp, original', $d5 using 1:2 with linespoints lw 2 title 'loggps, original'
set terminal svg size 900,560
set output 'sendwait.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'packet, original (S = 16383)', $d1 using 1:2 with linespoints lw 2 title 'packet, fix 1: S = 65536', $d2 using 1:2 with linespoints lw 2 title 'packet, fix 2: fragments <= 16383 B', $d3 using 1:2 with linespoints lw 2 title 'packet, fix 3: isend forwarding', $d4 using 1:2 with linespoints lw 2 title 'loggp, original', $d5 using 1:2 with linespoints lw 2 title 'loggps, original'
