xofem-vekok-babed-tesyb-marak-vylin-pyhot-fyrop-kabec-rapyp-dixyx
