xudik-gicem-pehep-facug-repyc-sucas-fimif-pypor-nison-nynol-guxux
