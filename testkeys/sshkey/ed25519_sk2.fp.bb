xurol-zyzel-safid-purez-kerip-sycyf-kolem-kegod-zibyc-luhiv-mixox
