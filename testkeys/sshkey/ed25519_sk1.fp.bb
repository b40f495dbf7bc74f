xisep-tamyg-rosit-kotif-kitab-zezol-rydan-suduk-dibip-lugun-koxex
