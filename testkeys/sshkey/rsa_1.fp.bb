xehiz-zacar-dazud-fulib-kical-gevyg-zalov-livid-kemuf-gepyv-rixax
