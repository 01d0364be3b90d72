$d0 << EOD
1 1.314108413
2 2.069957653
4 203.421775925
8 206.019009932
16 610.865532897
32 23.154493875
64 252.850307848
128 1078.978790193
256 1369.809013949
512 1708.413415063
1024 2453.952075532
EOD
$d1 << EOD
1 3.386941852
2 4.631466878
4 6.645876313
8 10.822137061
16 19.675164194
32 24.460464647
64 73.437795215
128 152.903780101
256 308.036163856
512 611.691021697
1024 1225.748001648
EOD
$d2 << EOD
1 1.778519524
2 2.458574956
4 3.81868582
8 6.341095612
16 11.385915196
32 22.302779099
64 41.414374497
128 79.637565292
256 156.083946883
512 308.976710065
1024 614.762236429
EOD
$d3 << EOD
1 2.374959919
2 3.055015351
4 4.415126215
8 6.937536007
16 11.982355592
32 24.907317045
64 44.591822037
128 83.960832022
256 162.698851991
512 320.174891929
1024 635.126971805
EOD
$d4 << EOD
1 1.467098054
2 202.266450703
4 203.565288997
8 206.080194706
16 211.208155478
32 222.211694884
64 241.185697246
128 279.495526945
256 356.716599148
512 509.552010844
1024 817.467436132
EOD
$d5 << EOD
1 2.063538449
2 2.862891098
4 4.161729393
8 6.676635102
16 11.804595874
32 22.808135279
64 41.782137641
128 80.09196734
256 157.313039543
512 310.148451239
1024 618.063876527
EOD
set title "All-to-all on 64 hosts: packet simulation and models" noenhanced
set xlabel "message size m (KiB)" noenhanced
set ylabel "time (ms)" noenhanced
set key top left
set grid
set logscale x 2
set logscale y
set terminal png size 900,560
set output 'time-p64.png'
plot $d0 using 1:2 with linespoints lw 2 title 'packet A', $d1 using 1:2 with linespoints lw 2 title 'packet B', $d2 using 1:2 with linespoints lw 2 title 'PlogP A', $d3 using 1:2 with linespoints lw 2 title 'PlogP B', $d4 using 1:2 with linespoints lw 2 title 'PlogP-BR A', $d5 using 1:2 with linespoints lw 2 title 'PlogP-BR B'
set terminal svg size 900,560
set output 'time-p64.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'packet A', $d1 using 1:2 with linespoints lw 2 title 'packet B', $d2 using 1:2 with linespoints lw 2 title 'PlogP A', $d3 using 1:2 with linespoints lw 2 title 'PlogP B', $d4 using 1:2 with linespoints lw 2 title 'PlogP-BR A', $d5 using 1:2 with linespoints lw 2 title 'PlogP-BR B'
