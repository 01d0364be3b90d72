$d0 << EOD
1 1.032768489
2 1.617627908
4 2.717463451
8 5.023915784
16 10.270780993
32 225.823236301
64 1037.729631379
128 1281.312382535
256 1350.16202434
512 1987.127628057
1024 3479.20207132
EOD
$d1 << EOD
1 2.347484708
2 3.15655048
4 4.38951541
8 6.926993961
16 12.983405776
32 42.212814433
64 82.25803296
128 159.598155341
256 310.789745985
512 617.051698305
1024 1223.976412302
EOD
$d2 << EOD
1 1.613186278
2 2.323691143
4 3.744700873
8 6.239666941
16 11.229599077
32 22.235997908
64 41.264551661
128 79.321659167
256 155.435874179
512 307.664304202
1024 612.121164249
EOD
$d3 << EOD
1 2.268105115
2 2.97860998
4 4.399619711
8 6.894585779
16 11.884517914
32 24.844948798
64 44.417447802
128 83.562445809
256 161.852441823
512 318.432433851
1024 631.592417907
EOD
$d4 << EOD
1 1.315523656
2 202.162135026
4 203.461322451
8 206.021463078
16 211.016991349
32 221.783304914
64 241.13417772
128 279.23286003
256 356.454151961
512 509.330706019
1024 815.993267623
EOD
$d5 << EOD
1 1.970442494
2 2.817053864
4 4.116241288
8 6.676381915
16 11.671910187
32 22.438223752
64 41.789096558
128 79.887778868
256 157.109070799
512 309.985624856
1024 616.648186461
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
