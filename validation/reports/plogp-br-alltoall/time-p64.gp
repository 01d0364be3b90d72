$d0 << EOD
1 1.329396482
2 2.051740922
4 203.327712947
8 206.17441376
16 211.378175379
32 23.155890468
64 250.942043074
128 1087.834189617
256 1345.422337228
512 1581.40335976
1024 3085.939873643
EOD
$d1 << EOD
1 3.378717799
2 4.597357787
4 6.58203722
8 10.997807088
16 19.622801672
32 24.45243431
64 80.538536981
128 157.204017839
256 308.531769237
512 610.905841213
1024 1223.533437319
EOD
$d2 << EOD
1 1.750441392
2 2.409734943
4 3.728322045
8 6.296139213
16 11.431773549
32 22.334455712
64 41.373903197
128 79.452798166
256 155.610588104
512 307.92616798
1024 612.557327733
EOD
$d3 << EOD
1 2.358448879
2 3.017742431
4 4.336329533
8 6.904146701
16 12.039781037
32 24.967972595
64 44.644713561
128 83.998195494
256 162.705159359
512 320.119087089
1024 634.946942551
EOD
$d4 << EOD
1 1.454936992
2 202.242948421
4 203.447756184
8 206.067557909
16 211.214927466
32 222.072121082
64 241.195208581
128 279.346088258
256 356.585214502
512 508.966386924
1024 815.97450379
EOD
$d5 << EOD
1 2.062944479
2 2.850955908
4 4.055763671
8 6.675565397
16 11.822934954
32 22.680128569
64 41.803216068
128 79.954095745
256 157.19322199
512 309.574394412
1024 616.582511277
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
