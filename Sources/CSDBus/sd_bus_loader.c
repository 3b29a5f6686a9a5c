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
    RESOLVE(add_match, "sd_bus_add_match")
    RESOLVE(slot_unref, "sd_bus_slot_unref")
    RESOLVE(process, "sd_bus_process")
    RESOLVE(message_get_sender, "sd_bus_message_get_sender")
    RESOLVE(message_get_member, "sd_bus_message_get_member")
    RESOLVE(message_get_path, "sd_bus_message_get_path")
    RESOLVE(message_enter_container, "sd_bus_message_enter_container")
    RESOLVE(message_exit_container, "sd_bus_message_exit_container")
    RESOLVE(message_unref, "sd_bus_message_unref")
    RESOLVE(error_free, "sd_bus_error_free")
    RESOLVE(flush_close_unref, "sd_bus_flush_close_unref")
    RESOLVE(open_user, "sd_bus_open_user")
    RESOLVE(request_name, "sd_bus_request_name")
    RESOLVE(add_fallback, "sd_bus_add_fallback")
    RESOLVE(get_fd, "sd_bus_get_fd")
    RESOLVE(get_events, "sd_bus_get_events")
    RESOLVE(get_timeout, "sd_bus_get_timeout")
    RESOLVE(send, "sd_bus_send")
    RESOLVE(call, "sd_bus_call")
    RESOLVE(message_new_method_call, "sd_bus_message_new_method_call")
    RESOLVE(message_new_method_return, "sd_bus_message_new_method_return")
    RESOLVE(message_new_method_error, "sd_bus_message_new_method_error")
    RESOLVE(message_new_signal, "sd_bus_message_new_signal")
    RESOLVE(message_set_destination, "sd_bus_message_set_destination")
    RESOLVE(message_get_type, "sd_bus_message_get_type")
    RESOLVE(message_get_interface, "sd_bus_message_get_interface")
    RESOLVE(message_get_signature, "sd_bus_message_get_signature")
    RESOLVE(message_get_expect_reply, "sd_bus_message_get_expect_reply")
    RESOLVE(message_append_basic, "sd_bus_message_append_basic")
    RESOLVE(message_append_array, "sd_bus_message_append_array")
    RESOLVE(message_open_container, "sd_bus_message_open_container")
    RESOLVE(message_close_container, "sd_bus_message_close_container")
    RESOLVE(message_read_basic, "sd_bus_message_read_basic")
    RESOLVE(message_read_array, "sd_bus_message_read_array")
    RESOLVE(message_peek_type, "sd_bus_message_peek_type")
    RESOLVE(message_ref, "sd_bus_message_ref")
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
