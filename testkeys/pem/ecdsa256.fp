256 SHA256:K6p0ydUh0uGP3Htu8PxxF3nDzq7z/eZcpVjqacJUyvI no comment (ECDSA)
