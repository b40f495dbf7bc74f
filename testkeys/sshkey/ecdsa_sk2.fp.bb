xedab-cifen-befug-zozig-zidub-haguf-nohil-zivyp-zigas-tozum-taxax
