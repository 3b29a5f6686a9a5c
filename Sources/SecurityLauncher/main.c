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

/// The program `name` of the installation (`libexec/swift-keychain` beside `bin`, `*installed`
/// set) or of the build (this program's folder), written to `path`; 0 when there is none, or it
/// would be this program itself.
static int locate(const char *folder, const char *self, const char *name, char *path, size_t size, int *installed) {
    if (snprintf(path, size, "%s/../libexec/swift-keychain/%s", folder, name) < (int)size && is_executable(path)) {
        *installed = 1;
        return 1;
    }
    *installed = 0;
    return snprintf(path, size, "%s/%s", folder, name) < (int)size && is_executable(path) && !is_same_file(path, self);
}

int main(int argc, char *argv[]) {
    if (argc < 1 || argv[0] == NULL) return fail("started with no arguments at all");
    char self[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self);
    if (length <= 0 || (size_t)length >= sizeof self) return fail("cannot find where this program is installed (/proc/self/exe)");
    self[length] = '\0';
    char folder[PATH_MAX];
    memcpy(folder, self, (size_t)length + 1);
    char *slash = strrchr(folder, '/');
    if (slash == NULL) return fail("cannot find where this program is installed (/proc/self/exe)");
    *slash = '\0';

    // The full tool, which security-lookup also falls back to: without it (or when it would be this
    // program, installed as `security` with no libexec folder), nothing can run.
    char tool[PATH_MAX];
    int installed = 0;
    if (!locate(folder, self, "security", tool, sizeof tool, &installed)) {
        return fail("cannot find the security tool in libexec/swift-keychain; reinstall it with Scripts/install.sh");
    }
    char lookup[PATH_MAX];
    int lookup_installed = 0;
    const char *program = tool;
    if (argc > 1 && (strcmp(argv[1], "find-generic-password") == 0 || strcmp(argv[1], "find-internet-password") == 0) &&
        locate(folder, self, "security-lookup", lookup, sizeof lookup, &lookup_installed) && lookup_installed == installed) {
        program = lookup;
    }
    const char *named = getenv("KEYCHAIN_SECURITYD");
    if (installed && (named == NULL || named[0] == '\0')) {
        char daemon[PATH_MAX];
        if (snprintf(daemon, sizeof daemon, "%s/securityd", folder) < (int)sizeof daemon && is_executable(daemon)) {
            setenv("KEYCHAIN_SECURITYD", daemon, 1);
        }
    }
    argv[0] = (char *)program;
    execv(program, argv);
    fprintf(stderr, "security: cannot run %s: %s\n", program, strerror(errno));
    return 1;
}
