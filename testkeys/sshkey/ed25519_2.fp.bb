xemom-dirup-benak-vefog-benes-gydid-nilom-tylek-ducov-henuf-huxax
