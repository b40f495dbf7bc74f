256 SHA256:OtEEpetV5VGaTZ/1be4sxvCtCxDA89QmjoTjxL4h5lY ecdsa256 ppk fixture (ECDSA)
