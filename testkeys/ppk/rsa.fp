2048 SHA256:cfoCwszTxLjNuI0agfDFA5nFlGwpjy4U/JABat48jlU rsa ppk fixture (RSA)
