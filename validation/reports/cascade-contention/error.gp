$d0 << EOD
16 -3.1762897275089843
32 -70.34738873001177
64 -83.38486300672453
128 -85.20101729769732
EOD
$d1 << EOD
16 -3.1762897275089843
32 -1.0603660658744511
64 -1.1204903370666568
128 -1.3747729582264212
EOD
$d2 << EOD
16 -3.012165530994756
32 -70.1728857172033
64 -83.28339345945744
128 -85.09676775286711
EOD
$d3 << EOD
16 -3.012165530994756
32 -0.47811501046247956
64 -0.5166277818828025
128 -0.680020134014982
EOD
$d4 << EOD
16 9.529464729282177
32 -27.034751409026477
64 -57.539556030560874
128 -83.57769113706951
EOD
$d5 << EOD
16 9.529464729282177
32 5.993169051348977
64 24.436059160991935
128 30.197659941051594
EOD
$d6 << EOD
16 1.0576579375519835
32 -34.999037431854326
64 -63.30615409280187
128 -86.45780906900116
EOD
$d7 << EOD
16 1.0576579375519835
32 -5.576172944908115
64 7.536265599079249
128 7.363805199821991
EOD
set title "Model error against the packet run (TCP)" noenhanced
set xlabel "ranks P" noenhanced
set ylabel "error (%)" noenhanced
set key bottom left
set grid
set logscale x 2
set terminal png size 900,560
set output 'error.png'
plot $d0 using 1:2 with linespoints lw 2 title 'CG mpiete, cascade (1 uplink)', $d1 using 1:2 with linespoints lw 2 title 'CG mpiete, flat (one switch)', $d2 using 1:2 with linespoints lw 2 title 'CG loggps, cascade (1 uplink)', $d3 using 1:2 with linespoints lw 2 title 'CG loggps, flat (one switch)', $d4 using 1:2 with linespoints lw 2 title 'LU mpiete, cascade (1 uplink)', $d5 using 1:2 with linespoints lw 2 title 'LU mpiete, flat (one switch)', $d6 using 1:2 with linespoints lw 2 title 'LU loggps, cascade (1 uplink)', $d7 using 1:2 with linespoints lw 2 title 'LU loggps, flat (one switch)'
set terminal svg size 900,560
set output 'error.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'CG mpiete, cascade (1 uplink)', $d1 using 1:2 with linespoints lw 2 title 'CG mpiete, flat (one switch)', $d2 using 1:2 with linespoints lw 2 title 'CG loggps, cascade (1 uplink)', $d3 using 1:2 with linespoints lw 2 title 'CG loggps, flat (one switch)', $d4 using 1:2 with linespoints lw 2 title 'LU mpiete, cascade (1 uplink)', $d5 using 1:2 with linespoints lw 2 title 'LU mpiete, flat (one switch)', $d6 using 1:2 with linespoints lw 2 title 'LU loggps, cascade (1 uplink)', $d7 using 1:2 with linespoints lw 2 title 'LU loggps, flat (one switch)'
