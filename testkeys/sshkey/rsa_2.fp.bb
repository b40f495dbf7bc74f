xenes-pyhac-bulak-ladaf-kapip-puben-pahid-kapef-bydyr-sogon-sixax
