/* The part of the PKCS#11 (Cryptoki) v2.40 interface hostbook calls: the types, the
   function list (every slot in the standard's order; only those called are typed, the rest
   are plain pointers of the same size), and the constants used. Declared here from the
   standard's published layout for Unix (no structure packing, CK_ULONG = unsigned long);
   nothing links against a module: Tokens loads it with dlopen and calls through the list
   C_GetFunctionList gives. */
#ifndef HOSTBOOK_PKCS11_SHIM_H
#define HOSTBOOK_PKCS11_SHIM_H

typedef unsigned char hb_CK_BYTE;
typedef unsigned long hb_CK_ULONG;
typedef hb_CK_ULONG hb_CK_RV;
typedef hb_CK_ULONG hb_CK_SLOT_ID;
typedef hb_CK_ULONG hb_CK_SESSION_HANDLE;
typedef hb_CK_ULONG hb_CK_OBJECT_HANDLE;

typedef struct { hb_CK_BYTE major; hb_CK_BYTE minor; } hb_CK_VERSION;

typedef struct {
    hb_CK_BYTE label[32];
    hb_CK_BYTE manufacturerID[32];
    hb_CK_BYTE model[16];
    hb_CK_BYTE serialNumber[16];
    hb_CK_ULONG flags;
    hb_CK_ULONG ulMaxSessionCount, ulSessionCount, ulMaxRwSessionCount, ulRwSessionCount;
    hb_CK_ULONG ulMaxPinLen, ulMinPinLen;
    hb_CK_ULONG ulTotalPublicMemory, ulFreePublicMemory, ulTotalPrivateMemory, ulFreePrivateMemory;
    hb_CK_VERSION hardwareVersion, firmwareVersion;
    hb_CK_BYTE utcTime[16];
} hb_CK_TOKEN_INFO;

typedef struct {
    hb_CK_ULONG type;
    void *pValue;
    hb_CK_ULONG ulValueLen;
} hb_CK_ATTRIBUTE;

typedef struct {
    hb_CK_ULONG mechanism;
    void *pParameter;
    hb_CK_ULONG ulParameterLen;
} hb_CK_MECHANISM;

typedef struct {
    void *CreateMutex, *DestroyMutex, *LockMutex, *UnlockMutex;
    hb_CK_ULONG flags;
    void *pReserved;
} hb_CK_C_INITIALIZE_ARGS;

typedef struct {
    hb_CK_VERSION version;
    hb_CK_RV (*C_Initialize)(void *args);
    hb_CK_RV (*C_Finalize)(void *reserved);
    void *C_GetInfo;
    void *C_GetFunctionList;
    hb_CK_RV (*C_GetSlotList)(hb_CK_BYTE tokenPresent, hb_CK_SLOT_ID *list, hb_CK_ULONG *count);
    void *C_GetSlotInfo;
    hb_CK_RV (*C_GetTokenInfo)(hb_CK_SLOT_ID slot, hb_CK_TOKEN_INFO *info);
    void *C_GetMechanismList;
    void *C_GetMechanismInfo;
    void *C_InitToken;
    void *C_InitPIN;
    void *C_SetPIN;
    hb_CK_RV (*C_OpenSession)(hb_CK_SLOT_ID slot, hb_CK_ULONG flags, void *application, void *notify, hb_CK_SESSION_HANDLE *session);
    hb_CK_RV (*C_CloseSession)(hb_CK_SESSION_HANDLE session);
    void *C_CloseAllSessions;
    void *C_GetSessionInfo;
    void *C_GetOperationState;
    void *C_SetOperationState;
    hb_CK_RV (*C_Login)(hb_CK_SESSION_HANDLE session, hb_CK_ULONG userType, const hb_CK_BYTE *pin, hb_CK_ULONG pinLength);
    hb_CK_RV (*C_Logout)(hb_CK_SESSION_HANDLE session);
    void *C_CreateObject;
    void *C_CopyObject;
    void *C_DestroyObject;
    void *C_GetObjectSize;
    hb_CK_RV (*C_GetAttributeValue)(hb_CK_SESSION_HANDLE session, hb_CK_OBJECT_HANDLE object, hb_CK_ATTRIBUTE *templ, hb_CK_ULONG count);
    void *C_SetAttributeValue;
    hb_CK_RV (*C_FindObjectsInit)(hb_CK_SESSION_HANDLE session, hb_CK_ATTRIBUTE *templ, hb_CK_ULONG count);
    hb_CK_RV (*C_FindObjects)(hb_CK_SESSION_HANDLE session, hb_CK_OBJECT_HANDLE *objects, hb_CK_ULONG maxCount, hb_CK_ULONG *count);
    hb_CK_RV (*C_FindObjectsFinal)(hb_CK_SESSION_HANDLE session);
    void *C_EncryptInit, *C_Encrypt, *C_EncryptUpdate, *C_EncryptFinal;
    void *C_DecryptInit, *C_Decrypt, *C_DecryptUpdate, *C_DecryptFinal;
    void *C_DigestInit, *C_Digest, *C_DigestUpdate, *C_DigestKey, *C_DigestFinal;
    hb_CK_RV (*C_SignInit)(hb_CK_SESSION_HANDLE session, hb_CK_MECHANISM *mechanism, hb_CK_OBJECT_HANDLE key);
    hb_CK_RV (*C_Sign)(hb_CK_SESSION_HANDLE session, const hb_CK_BYTE *data, hb_CK_ULONG dataLength, hb_CK_BYTE *signature, hb_CK_ULONG *signatureLength);
    void *C_SignUpdate, *C_SignFinal, *C_SignRecoverInit, *C_SignRecover;
    void *C_VerifyInit, *C_Verify, *C_VerifyUpdate, *C_VerifyFinal, *C_VerifyRecoverInit, *C_VerifyRecover;
    void *C_DigestEncryptUpdate, *C_DecryptDigestUpdate, *C_SignEncryptUpdate, *C_DecryptVerifyUpdate;
    void *C_GenerateKey, *C_GenerateKeyPair, *C_WrapKey, *C_UnwrapKey, *C_DeriveKey;
    void *C_SeedRandom, *C_GenerateRandom, *C_GetFunctionStatus, *C_CancelFunction, *C_WaitForSlotEvent;
} hb_CK_FUNCTION_LIST;

/* Calls the module's C_GetFunctionList found with dlsym. */
static inline hb_CK_RV hostbook_p11_get_function_list(void *address, hb_CK_FUNCTION_LIST **list) {
    return ((hb_CK_RV (*)(hb_CK_FUNCTION_LIST **))address)(list);
}

/* Return values. */
#define HB_CKR_OK                              0x000UL
#define HB_CKR_ATTRIBUTE_TYPE_INVALID          0x012UL
#define HB_CKR_PIN_INCORRECT                   0x0A0UL
#define HB_CKR_PIN_INVALID                     0x0A1UL
#define HB_CKR_PIN_LEN_RANGE                   0x0A2UL
#define HB_CKR_PIN_LOCKED                      0x0A4UL
#define HB_CKR_USER_ALREADY_LOGGED_IN          0x100UL
#define HB_CKR_CRYPTOKI_ALREADY_INITIALIZED    0x191UL

/* Flags. */
#define HB_CKF_OS_LOCKING_OK       0x002UL
#define HB_CKF_RW_SESSION          0x002UL
#define HB_CKF_SERIAL_SESSION      0x004UL
#define HB_CKF_LOGIN_REQUIRED      0x004UL
#define HB_CKF_TOKEN_INITIALIZED   0x400UL
#define HB_CKU_USER                1UL

/* Attributes, classes, key types, mechanisms. */
#define HB_CKA_CLASS            0x000UL
#define HB_CKA_LABEL            0x003UL
#define HB_CKA_KEY_TYPE         0x100UL
#define HB_CKA_ID               0x102UL
#define HB_CKA_MODULUS          0x120UL
#define HB_CKA_PUBLIC_EXPONENT  0x122UL
#define HB_CKA_EC_PARAMS        0x180UL
#define HB_CKA_EC_POINT         0x181UL
#define HB_CKO_PUBLIC_KEY       2UL
#define HB_CKO_PRIVATE_KEY      3UL
#define HB_CKK_RSA              0x000UL
#define HB_CKK_EC               0x003UL
#define HB_CKK_EC_EDWARDS       0x040UL
#define HB_CKM_RSA_PKCS         0x001UL
#define HB_CKM_ECDSA            0x1041UL
#define HB_CKM_EDDSA            0x1057UL
#define HB_CK_UNAVAILABLE_INFORMATION (~0UL)

#endif
