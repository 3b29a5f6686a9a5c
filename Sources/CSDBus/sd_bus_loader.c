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
#include "sd_bus_loader.h"

#include <dlfcn.h>
#include <stddef.h>

void *c_sd_bus_load(struct c_sd_bus_api *api, const char **reason) {
    const char *ignored;
    if (!reason) reason = &ignored;
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *reason = "libsystemd.so.0 is not installed";
        return NULL;
    }
#define RESOLVE(field, symbol) \
    if (!(*(void **)&api->field = dlsym(library, symbol))) goto missing;
    RESOLVE(open_system, "sd_bus_open_system")
    RESOLVE(call_method, "sd_bus_call_method")
    RESOLVE(get_property, "sd_bus_get_property")
    RESOLVE(add_match, "sd_bus_add_match")
    RESOLVE(slot_unref, "sd_bus_slot_unref")
    RESOLVE(process, "sd_bus_process")
    RESOLVE(wait, "sd_bus_wait")
    RESOLVE(message_get_sender, "sd_bus_message_get_sender")
    RESOLVE(message_get_member, "sd_bus_message_get_member")
    RESOLVE(message_get_path, "sd_bus_message_get_path")
    RESOLVE(message_read, "sd_bus_message_read")
    RESOLVE(message_enter_container, "sd_bus_message_enter_container")
    RESOLVE(message_exit_container, "sd_bus_message_exit_container")
    RESOLVE(message_skip, "sd_bus_message_skip")
    RESOLVE(message_unref, "sd_bus_message_unref")
    RESOLVE(error_has_name, "sd_bus_error_has_name")
    RESOLVE(error_free, "sd_bus_error_free")
    RESOLVE(flush_close_unref, "sd_bus_flush_close_unref")
#undef RESOLVE
    return library;
missing:
    dlclose(library);
    *reason = "libsystemd.so.0 lacks sd-bus";
    return NULL;
}

void c_sd_bus_unload(void *library) {
    if (library) dlclose(library);
}
