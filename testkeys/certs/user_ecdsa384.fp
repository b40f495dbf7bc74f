384 SHA256:IAr06Nc4yWWmcK0bIbfN2jot4rWkxr3l4bdek79oUIc user ecdsa384 (ECDSA)
