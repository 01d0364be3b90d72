$d0 << EOD
64 0.175868114
100 0.437480065
121 0.608168252
144 0.996607593
169 1.534138855
196 2.695591955
225 2.972978369
256 3.807031405
EOD
$d1 << EOD
64 0.00153699
100 0.010422586
121 0.015616063
144 0.046549901
169 0.031340046
196 0.04583853
225 0.066113757
256 0.028449937
EOD
$d2 << EOD
64 0.001394259
100 0.00523569
121 0.011136596
144 0.023560962
169 0.018258394
196 0.023825675
225 0.03207713
256 0.029564892
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
