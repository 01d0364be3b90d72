$d0 << EOD
16 3563.158198001
32 7711.782824501
64 13262.396189251
128 9567.121738751
EOD
$d1 << EOD
16 3458.665848001
32 5763.281815001
64 7667.732739001
128 4677.711356001
EOD
$d2 << EOD
16 3563.158198001
32 2311.252722501
64 2228.535824001
128 1435.572554501
EOD
$d3 << EOD
16 3458.665848001
32 2299.285815001
64 2216.106127501
128 1430.991690751
EOD
$d4 << EOD
16 3449.981970183
32 2286.744982935
64 2203.565295435
128 1415.836691226
EOD
$d5 << EOD
16 3455.829974946
32 2300.202276305
64 2217.022588805
128 1425.810372092
EOD
set title "NPB-like CG class B: run time" noenhanced
set xlabel "ranks P" noenhanced
set ylabel "run time (ms)" noenhanced
set key top left
set grid
set logscale x 2
set logscale y
set terminal png size 900,560
set output 'time-cg.png'
plot $d0 using 1:2 with linespoints lw 2 title 'packet, cascade (1 uplink), tcp', $d1 using 1:2 with linespoints lw 2 title 'packet, cascade (1 uplink), lossless', $d2 using 1:2 with linespoints lw 2 title 'packet, flat (one switch), tcp', $d3 using 1:2 with linespoints lw 2 title 'packet, flat (one switch), lossless', $d4 using 1:2 with linespoints lw 2 title 'mpiete (cascade fit)', $d5 using 1:2 with linespoints lw 2 title 'loggps (cascade fit)'
set terminal svg size 900,560
set output 'time-cg.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'packet, cascade (1 uplink), tcp', $d1 using 1:2 with linespoints lw 2 title 'packet, cascade (1 uplink), lossless', $d2 using 1:2 with linespoints lw 2 title 'packet, flat (one switch), tcp', $d3 using 1:2 with linespoints lw 2 title 'packet, flat (one switch), lossless', $d4 using 1:2 with linespoints lw 2 title 'mpiete (cascade fit)', $d5 using 1:2 with linespoints lw 2 title 'loggps (cascade fit)'
