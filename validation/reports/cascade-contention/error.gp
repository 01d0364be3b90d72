$d0 << EOD
16 -3.17326681860983
32 -67.66693233977955
64 -84.81278745407481
128 -90.25603314880973
EOD
$d1 << EOD
16 -3.17326681860983
32 -1.054338361061761
64 -1.1142426858151546
128 -1.4216240236354563
EOD
$d2 << EOD
16 -3.0091374980150145
32 -67.4766550765505
64 -84.72003831924025
128 -90.1873930179635
EOD
$d3 << EOD
16 -3.0091374980150145
32 -0.47205183313640575
64 -0.5103419758845636
128 -0.7272012357746199
EOD
$d4 << EOD
16 9.516095139776464
32 -29.23572913947472
64 -59.85677791752676
128 -85.32071600018564
EOD
$d5 << EOD
16 9.516095139776464
32 6.144713624173041
64 25.73819206755604
128 32.02065773843688
EOD
$d6 << EOD
16 1.045322449504331
32 -36.95977454757612
64 -65.30867161038393
128 -87.89514505450794
EOD
$d7 << EOD
16 1.045322449504331
32 -5.441169730422237
64 8.661554450475743
128 8.867088595904493
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
