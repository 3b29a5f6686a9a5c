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

// posix_openpt and friends need _XOPEN_SOURCE, which Swift's Glibc module does not define.
#define _XOPEN_SOURCE 600
#include "CAttackSupport.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int c_attack_open_pty(char *name, size_t length) {
    int leader = posix_openpt(O_RDWR | O_NOCTTY);
    if (leader < 0) return -1;
    const char *follower = NULL;
    if (grantpt(leader) != 0 || unlockpt(leader) != 0 || (follower = ptsname(leader)) == NULL || strlen(follower) >= length) {
        close(leader);
        return -1;
    }
    strcpy(name, follower);
    return leader;
}

int c_attack_spawn_on_terminal(const char *path, char *const arguments[], char *const environment[], int terminal) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, terminal, 0);
    posix_spawn_file_actions_adddup2(&actions, terminal, 1);
    posix_spawn_file_actions_adddup2(&actions, terminal, 2);
    posix_spawnattr_init(&attributes);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    int result = posix_spawn(&pid, path, &actions, &attributes, arguments, environment);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return result == 0 ? pid : -1;
}
