//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keychain open source project
//
// Copyright (c) 2026 the swift-keychain project authors
// Licensed under Apache License v2.0
//
// See LICENSE.txt for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// prctl and syscall are variadic, which Swift cannot call: these wrappers are the whole reason for
// this target.

#include "CKeychainSystem.h"

#include <sys/resource.h>
#if defined(__linux__)
#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

int c_keychain_set_non_dumpable(void) {
#if defined(__linux__)
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : -1;
#else
    return -1;
#endif
}

int c_keychain_is_dumpable(void) {
#if defined(__linux__)
    return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
#else
    return -1;
#endif
}

int c_keychain_disable_core_files(void) {
    struct rlimit none = {0, 0};
    return setrlimit(RLIMIT_CORE, &none) == 0 ? 0 : -1;
}



int c_keychain_pidfd_is_alive(int pidfd) {
#if defined(__linux__) && defined(SYS_pidfd_send_signal)
    // Signal 0 checks without signalling.
    if (syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) == 0) return 1;
    return errno == ESRCH ? 0 : -1;
#else
    (void)pidfd;
    return -1;
#endif
}

int c_keychain_pidfd_open(int pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}
