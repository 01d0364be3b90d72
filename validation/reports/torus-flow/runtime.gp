$d0 << EOD
64 0.125214905
100 0.3880523
121 0.610833332
144 0.968219966
169 1.457741513
196 2.184930921
225 3.140586158
256 4.480085442
EOD
$d1 << EOD
64 0.001705033
100 0.013228533
121 0.019665547
144 0.029542302
169 0.043868491
196 0.065135136
225 0.096957639
256 0.041690232
EOD
$d2 << EOD
64 0.001706306
100 0.006628833
121 0.009979038
144 0.015402523
169 0.0212745
196 0.031303832
225 0.043390475
256 0.041454891
EOD
set title "Run time (paper's order per size)" noenhanced
set xlabel "nodes" noenhanced
set ylabel "wall-clock (s)" noenhanced
set key top left
set grid
set logscale x 2
set logscale y
set terminal png size 900,560
set output 'runtime.png'
plot $d0 using 1:2 with linespoints lw 2 title 'packet', $d1 using 1:2 with linespoints lw 2 title 'flow N', $d2 using 1:2 with linespoints lw 2 title 'flow F'
set terminal svg size 900,560
set output 'runtime.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'packet', $d1 using 1:2 with linespoints lw 2 title 'flow N', $d2 using 1:2 with linespoints lw 2 title 'flow F'
