$d0 << EOD
1 0.131002767
2 0.199644941
4 0.324514111
8 0.583847754
16 1.178545762
32 2.441272961
64 5.67037287
128 11.820011833
256 211.634537423
512 250.201065408
1024 647.736131046
EOD
$d1 << EOD
1 0.261998307
2 0.351711595
4 0.488361613
8 0.771043876
16 1.443055388
32 2.655672719
64 7.44910398
128 15.721230684
256 30.628581656
512 65.204945352
1024 128.657865308
EOD
$d2 << EOD
1 0.188632437
2 0.267577422
4 0.425467392
8 0.702685844
16 1.257122748
32 2.508070748
64 4.630152997
128 8.874317494
256 17.362646488
512 34.339304476
1024 68.292620453
EOD
$d3 << EOD
1 0.25201168
2 0.330956664
4 0.488846635
8 0.766065086
16 1.32050199
32 2.760549866
64 4.935271978
128 9.284716201
256 17.983604647
512 35.381381539
1024 70.176935323
EOD
$d4 << EOD
1 0.154386226
2 0.249022525
4 0.393011458
8 0.675597061
16 201.224342801
32 202.423077863
64 204.569436211
128 208.776571854
256 217.363631373
512 234.379689252
1024 268.432081094
EOD
$d5 << EOD
1 0.217765468
2 0.312401767
4 0.4563907
8 0.738976304
16 1.287722043
32 2.486457106
64 4.632815453
128 8.839951097
256 17.427010615
512 34.443068494
1024 68.495460336
EOD
set title "All-to-all on 8 hosts: packet simulation and models" noenhanced
set xlabel "message size m (KiB)" noenhanced
set ylabel "time (ms)" noenhanced
set key top left
set grid
set logscale x 2
set logscale y
set terminal png size 900,560
set output 'time-p8.png'
plot $d0 using 1:2 with linespoints lw 2 title 'packet A', $d1 using 1:2 with linespoints lw 2 title 'packet B', $d2 using 1:2 with linespoints lw 2 title 'PlogP A', $d3 using 1:2 with linespoints lw 2 title 'PlogP B', $d4 using 1:2 with linespoints lw 2 title 'PlogP-BR A', $d5 using 1:2 with linespoints lw 2 title 'PlogP-BR B'
set terminal svg size 900,560
set output 'time-p8.svg'
plot $d0 using 1:2 with linespoints lw 2 title 'packet A', $d1 using 1:2 with linespoints lw 2 title 'packet B', $d2 using 1:2 with linespoints lw 2 title 'PlogP A', $d3 using 1:2 with linespoints lw 2 title 'PlogP B', $d4 using 1:2 with linespoints lw 2 title 'PlogP-BR A', $d5 using 1:2 with linespoints lw 2 title 'PlogP-BR B'
