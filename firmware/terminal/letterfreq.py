# Letter frequencies per language, parts per 100 000 letters of the tournament
# word lists in ../shared/wordlists (normalised by the packer's profiles; each
# word counted once), as 'TILE COUNT' pairs, most frequent first.  One string
# per language keeps the module small in RAM (dicts would cost kilobytes).
# Used to order the letters on the multi-tap keys when the image carries no
# frequencies of its own; regenerate with
# `python bench/bench_keypresses.py --emit-frequencies`.

FREQUENCY = {
    "de": "E 17594 N 8690 R 8240 S 7782 T 7360 I 6155 A 5065 H 4175 L 4081 G 3601 U 3588 D 2950 C 2932 M 2710 B 2357 O 2182 F 2014 K 1842 P 1372 Z 1328 W 983 V 941 Ä 775 Ü 723 Ö 273 Y 89 J 78 X 76 Q 45",
    "en": "E 10939 I 8904 S 8156 A 8048 N 7140 O 7119 R 7003 T 6622 L 5399 C 4264 U 3636 P 3234 D 3194 M 2971 H 2607 G 2448 Y 1872 B 1818 F 1138 V 943 K 805 W 673 Z 453 X 295 Q 168 J 153",
    "nb": "E 15930 N 9718 S 9334 R 8308 T 7452 I 5951 A 5723 L 5105 K 4571 O 3911 G 3693 D 3049 M 2561 P 2262 U 2085 V 1902 F 1853 B 1671 J 1199 H 1019 Ø 1001 Y 915 Å 479 Æ 175 C 90 Z 19 W 15 X 6 Q 2 Ü 0 Ä 0 Ö 0",
    "pl": "I 9324 A 8922 O 8241 E 8091 N 7232 Y 4941 Z 4670 W 4666 R 4402 C 4147 M 3748 S 3244 K 3090 P 2926 T 2828 U 2582 L 2364 D 2119 J 1868 Ł 1828 B 1778 G 1303 Ą 1178 H 1166 Ś 1045 Ę 558 Ż 521 F 461 Ó 322 Ń 268 Ć 104 Ź 61",
}
