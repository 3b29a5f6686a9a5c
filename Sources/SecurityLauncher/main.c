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

// The installed `security` (Scripts/install.sh puts it in bin): a C program, so that it starts
// in a fraction of a millisecond, that runs the program for the command line with `exec` and the
// same arguments:
//
// - `find-generic-password` and `find-internet-password`: `security-lookup`, which answers a
//   password look-up (`-w`) through securityd itself and runs the full tool for anything else;
// - every other command line: the full tool, `security`.
//
// Both live in `libexec/swift-keychain` beside this program's `bin` when installed, or in this
// program's own folder in a build (where this program is `security-launcher`). An installed
// launcher also names the `securityd` installed beside it (KEYCHAIN_SECURITYD, unless already set),
// which the programs in libexec would not find on their own.

#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_executable(const char *path) {
    return access(path, X_OK) == 0;
}

static int is_same_file(const char *first, const char *second) {
    struct stat a, b;
    return stat(first, &a) == 0 && stat(second, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int fail(const char *message) {
    fprintf(stderr, "security: %s\n", message);
    return 1;
}

int main(int argc, char *argv[]) {
    char self[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) return fail("cannot find where this program is installed (/proc/self/exe)");
    self[length] = '\0';
    char folder[PATH_MAX];
    memcpy(folder, self, (size_t)length + 1);
    char *slash = strrchr(folder, '/');
    if (slash == NULL) return fail("cannot find where this program is installed (/proc/self/exe)");
    *slash = '\0';

    const char *name = "security";
    if (argc > 1 && (strcmp(argv[1], "find-generic-password") == 0 || strcmp(argv[1], "find-internet-password") == 0)) {
        name = "security-lookup";
    }

    char program[PATH_MAX];
    int installed = 1;
    if (snprintf(program, sizeof program, "%s/../libexec/swift-keychain/%s", folder, name) >= (int)sizeof program) {
        return fail("the installation's path is too long");
    }
    if (!is_executable(program)) {
        installed = 0;
        if (snprintf(program, sizeof program, "%s/%s", folder, name) >= (int)sizeof program) {
            return fail("the installation's path is too long");
        }
        // Never this program itself: installed as `security` without its libexec folder.
        if (!is_executable(program) || is_same_file(program, self)) {
            return fail("cannot find the security tool in libexec/swift-keychain; reinstall it with Scripts/install.sh");
        }
    }
    if (installed && getenv("KEYCHAIN_SECURITYD") == NULL) {
        char daemon[PATH_MAX];
        if (snprintf(daemon, sizeof daemon, "%s/securityd", folder) < (int)sizeof daemon && is_executable(daemon)) {
            setenv("KEYCHAIN_SECURITYD", daemon, 1);
        }
    }
    argv[0] = program;
    execv(program, argv);
    fprintf(stderr, "security: cannot run %s: %s\n", program, strerror(errno));
    return 1;
}
