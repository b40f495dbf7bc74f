/* The security-key middleware interface a FIDO provider (.so) implements for OpenSSH
   (ssh-sk-helper loads one; OpenSSH's sk-api.h), API version 10 as OpenSSH 9.2 speaks it.
   Declared here from the interface's documented layout; nothing links against a provider:
   SecurityKeys loads it with dlopen and calls these through function pointers. */
#ifndef HOSTBOOK_SECURITY_KEY_SHIM_H
#define HOSTBOOK_SECURITY_KEY_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Flags of a key and of a request. */
#define HOSTBOOK_SK_USER_PRESENCE_REQD      0x01
#define HOSTBOOK_SK_USER_VERIFICATION_REQD  0x04
#define HOSTBOOK_SK_FORCE_OPERATION         0x10
#define HOSTBOOK_SK_RESIDENT_KEY            0x20

/* Algorithms. */
#define HOSTBOOK_SK_ECDSA    0x00
#define HOSTBOOK_SK_ED25519  0x01

/* The provider's error codes. */
#define HOSTBOOK_SK_ERR_GENERAL            -1
#define HOSTBOOK_SK_ERR_UNSUPPORTED        -2
#define HOSTBOOK_SK_ERR_PIN_REQUIRED       -3
#define HOSTBOOK_SK_ERR_DEVICE_NOT_FOUND   -4
#define HOSTBOOK_SK_ERR_CREDENTIAL_EXISTS  -5

/* The major version this layout belongs to, and the part of sk_api_version() that must match. */
#define HOSTBOOK_SK_VERSION_MAJOR       0x000a0000
#define HOSTBOOK_SK_VERSION_MAJOR_MASK  0xffff0000

struct hostbook_sk_enroll_response {
    uint8_t flags;
    uint8_t *public_key;
    size_t public_key_len;
    uint8_t *key_handle;
    size_t key_handle_len;
    uint8_t *signature;
    size_t signature_len;
    uint8_t *attestation_cert;
    size_t attestation_cert_len;
    uint8_t *authdata;
    size_t authdata_len;
};

struct hostbook_sk_sign_response {
    uint8_t flags;
    uint32_t counter;
    uint8_t *sig_r;
    size_t sig_r_len;
    uint8_t *sig_s;
    size_t sig_s_len;
};

struct hostbook_sk_resident_key {
    uint32_t alg;
    size_t slot;
    char *application;
    struct hostbook_sk_enroll_response key;
    uint8_t flags;
    uint8_t *user_id;
    size_t user_id_len;
};

struct hostbook_sk_option {
    char *name;
    char *value;
    uint8_t required;
};

/* The four entry points, as function pointer types for dlsym's addresses. */
typedef uint32_t (*hostbook_sk_api_version_fn)(void);
typedef int (*hostbook_sk_enroll_fn)(uint32_t alg, const uint8_t *challenge, size_t challenge_len,
    const char *application, uint8_t flags, const char *pin,
    struct hostbook_sk_option **options, struct hostbook_sk_enroll_response **enroll_response);
typedef int (*hostbook_sk_sign_fn)(uint32_t alg, const uint8_t *data, size_t data_len,
    const char *application, const uint8_t *key_handle, size_t key_handle_len,
    uint8_t flags, const char *pin, struct hostbook_sk_option **options,
    struct hostbook_sk_sign_response **sign_response);
typedef int (*hostbook_sk_load_resident_keys_fn)(const char *pin, struct hostbook_sk_option **options,
    struct hostbook_sk_resident_key ***rks, size_t *nrks);

/* Swift cannot call a C function pointer taken from a raw address without a cast the
   compiler checks here. */
static inline uint32_t hostbook_sk_call_api_version(void *fn) {
    return ((hostbook_sk_api_version_fn)fn)();
}
static inline int hostbook_sk_call_enroll(void *fn, uint32_t alg, const uint8_t *challenge, size_t challenge_len,
    const char *application, uint8_t flags, const char *pin, struct hostbook_sk_enroll_response **out) {
    return ((hostbook_sk_enroll_fn)fn)(alg, challenge, challenge_len, application, flags, pin, NULL, out);
}
static inline int hostbook_sk_call_sign(void *fn, uint32_t alg, const uint8_t *data, size_t data_len,
    const char *application, const uint8_t *key_handle, size_t key_handle_len, uint8_t flags, const char *pin,
    struct hostbook_sk_sign_response **out) {
    return ((hostbook_sk_sign_fn)fn)(alg, data, data_len, application, key_handle, key_handle_len, flags, pin, NULL, out);
}
static inline int hostbook_sk_call_load_resident_keys(void *fn, const char *pin,
    struct hostbook_sk_resident_key ***rks, size_t *nrks) {
    return ((hostbook_sk_load_resident_keys_fn)fn)(pin, NULL, rks, nrks);
}

/* What the provider allocated is released with the C library's free (the provider and
   hostbook share one malloc), its buffers wiped first. */
static inline void hostbook_sk_wipe_free(void *p, size_t len) {
    if (p == NULL) return;
    volatile uint8_t *b = (volatile uint8_t *)p;
    for (size_t i = 0; i < len; i++) b[i] = 0;
    free(p);
}
static inline void hostbook_sk_free_enroll(struct hostbook_sk_enroll_response *r) {
    if (r == NULL) return;
    hostbook_sk_wipe_free(r->public_key, r->public_key_len);
    hostbook_sk_wipe_free(r->key_handle, r->key_handle_len);
    hostbook_sk_wipe_free(r->signature, r->signature_len);
    hostbook_sk_wipe_free(r->attestation_cert, r->attestation_cert_len);
    hostbook_sk_wipe_free(r->authdata, r->authdata_len);
    free(r);
}
static inline void hostbook_sk_free_sign(struct hostbook_sk_sign_response *r) {
    if (r == NULL) return;
    hostbook_sk_wipe_free(r->sig_r, r->sig_r_len);
    hostbook_sk_wipe_free(r->sig_s, r->sig_s_len);
    free(r);
}
static inline void hostbook_sk_free_resident(struct hostbook_sk_resident_key *r) {
    if (r == NULL) return;
    free(r->application);
    hostbook_sk_wipe_free(r->key.public_key, r->key.public_key_len);
    hostbook_sk_wipe_free(r->key.key_handle, r->key.key_handle_len);
    hostbook_sk_wipe_free(r->key.signature, r->key.signature_len);
    hostbook_sk_wipe_free(r->key.attestation_cert, r->key.attestation_cert_len);
    hostbook_sk_wipe_free(r->key.authdata, r->key.authdata_len);
    hostbook_sk_wipe_free(r->user_id, r->user_id_len);
    free(r);
}
static inline void hostbook_sk_free_list(struct hostbook_sk_resident_key **rks) { free(rks); }

#endif
