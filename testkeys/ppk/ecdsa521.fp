521 SHA256:YqimR3cTp/q1NKfNToIYSArRgm90iqAZPNoLYhielyM no comment (ECDSA)
