256 SHA256:JJtsRigmmQ1AuZDZxBdRe0HOoiEXp6FQgxr0V7wtgw8 no comment (ECDSA)
