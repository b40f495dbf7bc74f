// SHA1_Init/Update/Final and SHA_CTX are deprecated in OpenSSL 3 but still the only API
// that can resume SHA-1 from a stored midstate (HashedNamePack); without this define every
// Swift use of them warns.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/ec.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <openssl/pkcs12.h>
#include <openssl/hmac.h>
#include <openssl/md5.h>
#include <openssl/sha.h>
#include <openssl/rand.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
