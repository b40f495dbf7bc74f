256 SHA256:lUYR/sIrSu78OtqjzNrv2BrNo+bsOhiBJ05j4zbFpHs host ecdsa256 (ECDSA)
