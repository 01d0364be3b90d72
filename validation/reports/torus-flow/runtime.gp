$d0 << EOD
64 0.446791802
100 1.328804126
121 1.993178753
144 3.665319596
169 8.206178525
196 9.529738193
225 16.613885978
256 16.058301622
EOD
$d1 << EOD
64 0.001492815
100 0.052182805
121 0.046516657
144 0.150031875
169 0.158421524
196 0.205089596
225 0.667093377
256 0.166308808
EOD
$d2 << EOD
64 0.006850806
100 0.015206365
121 0.038147228
144 0.087453644
169 0.112558533
196 0.147234303
225 0.068907213
256 0.175451005
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
