384 SHA256:+Q2mTdljzmVw55wGJTYt38ylaaYST7G/NEd5+lEwOws ecdsa384 ppk fixture (ECDSA)
