256 SHA256:Xh2bBIvjT8WtlBJdMWvtmCtq/0XiqS2tfode11gdjUk host ecdsa256 (ECDSA-CERT)
