#include <sodium.h>
#include <sys/prctl.h>

/* prctl(2) is variadic, which Swift cannot call: SecureMemory's process protection
   (ProcessProtection.swift) goes through these two. */
static inline int hostbook_prctl_set_undumpable(void) { return prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L); }
static inline int hostbook_prctl_get_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0L, 0L, 0L, 0L); }
