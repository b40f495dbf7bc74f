256 SHA256:nPr9muk6sC4KBKMCR3bwOUuXsF5rlbxLPxmt/e8Mevk ed25519 ppk fixture (ED25519)
