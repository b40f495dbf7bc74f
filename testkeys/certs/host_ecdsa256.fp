256 SHA256:syIxTn4LdQRj3kqdOJ12C2IsphCjBmxRfB7+uImdiCo host ecdsa256 (ECDSA)
