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

#define _GNU_SOURCE
#include "CTPM.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// The start of every TCTI context (TSS2_TCTI_CONTEXT_COMMON_V1 in tss2_tcti.h): the loader's own
// context forwards these calls to the TCTI it loaded.
struct c_tpm_tcti_common {
    uint64_t magic;
    uint32_t version;
    uint32_t (*transmit)(void *context, size_t size, const uint8_t *command);
    uint32_t (*receive)(void *context, size_t *size, uint8_t *response, int32_t timeout);
};

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static uint32_t (*initialize)(const char *conf, void **context);
static void (*finalize)(void **context);
static const char *load_failure;

static void load_library(void) {
    void *library = dlopen("libtss2-tctildr.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        load_failure = "tpm2-tss is not installed (libtss2-tctildr.so.0)";
        return;
    }
    *(void **)&initialize = dlsym(library, "Tss2_TctiLdr_Initialize");
    *(void **)&finalize = dlsym(library, "Tss2_TctiLdr_Finalize");
    if (!initialize || !finalize) {
        initialize = NULL;
        load_failure = "libtss2-tctildr.so.0 lacks Tss2_TctiLdr_Initialize";
    }
}

void *c_tpm_open(const char *conf, const char **reason) {
    const char *ignored;
    if (!reason) reason = &ignored;
    pthread_once(&loaded, load_library);
    if (!initialize) {
        *reason = load_failure;
        return NULL;
    }
    void *context = NULL;
    if (initialize(conf, &context) != 0 || !context) {
        *reason = "the TPM cannot be reached";
        return NULL;
    }
    return context;
}

uint32_t c_tpm_transmit(void *tcti, const uint8_t *command, size_t size) {
    struct c_tpm_tcti_common *common = tcti;
    return common->transmit(tcti, size, command);
}

uint32_t c_tpm_receive(void *tcti, uint8_t *response, size_t *size, int32_t timeout) {
    struct c_tpm_tcti_common *common = tcti;
    return common->receive(tcti, size, response, timeout);
}

void c_tpm_close(void *tcti) {
    if (tcti && finalize) finalize(&tcti);
}
