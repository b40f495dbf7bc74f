2048 SHA256:iHRm4QCeQfzAoKDOoLp5y3l+bvb0Sh6Yoa+xP1wfRRQ no comment (RSA)
