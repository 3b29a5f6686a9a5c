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

#ifndef C_SD_BUS_LOADER_H
#define C_SD_BUS_LOADER_H

#include <stddef.h>
#include <stdint.h>

// The sd-bus entry points the keychain uses, as libsystemd exports them (sd-bus.h), resolved at
// run time: a system without libsystemd builds, and simply has no bus to talk to. Nothing but the
// loading is done here: KeychainBus builds and reads messages, and what an answer is worth (who
// may answer as fprintd, which signals count) is decided in Swift.
typedef struct sd_bus sd_bus;
typedef struct sd_bus_message sd_bus_message;
typedef struct sd_bus_slot sd_bus_slot;
typedef struct {
    const char *name;
    const char *message;
    int need_free;
} sd_bus_error;
typedef int (*sd_bus_message_handler_t)(sd_bus_message *m, void *userdata, sd_bus_error *ret_error);

struct c_sd_bus_api {
    int (*open_system)(sd_bus **ret);
    int (*add_match)(sd_bus *bus, sd_bus_slot **slot, const char *match, sd_bus_message_handler_t callback, void *userdata);
    sd_bus_slot *(*slot_unref)(sd_bus_slot *slot);
    int (*process)(sd_bus *bus, sd_bus_message **r);
    const char *(*message_get_sender)(sd_bus_message *m);
    const char *(*message_get_member)(sd_bus_message *m);
    const char *(*message_get_path)(sd_bus_message *m);
    int (*message_enter_container)(sd_bus_message *m, char type, const char *contents);
    int (*message_exit_container)(sd_bus_message *m);
    sd_bus_message *(*message_unref)(sd_bus_message *m);
    void (*error_free)(sd_bus_error *e);
    sd_bus *(*flush_close_unref)(sd_bus *bus);
    int (*open_user)(sd_bus **ret);
    int (*request_name)(sd_bus *bus, const char *name, uint64_t flags);
    int (*add_fallback)(sd_bus *bus, sd_bus_slot **slot, const char *prefix, sd_bus_message_handler_t callback, void *userdata);
    int (*get_fd)(sd_bus *bus);
    int (*get_events)(sd_bus *bus);
    int (*get_timeout)(sd_bus *bus, uint64_t *timeout_usec);
    int (*send)(sd_bus *bus, sd_bus_message *m, uint64_t *cookie);
    int (*call)(sd_bus *bus, sd_bus_message *m, uint64_t usec, sd_bus_error *ret_error, sd_bus_message **reply);
    int (*message_new_method_call)(sd_bus *bus, sd_bus_message **m, const char *destination, const char *path,
                                   const char *interface, const char *member);
    int (*message_new_method_return)(sd_bus_message *call, sd_bus_message **m);
    int (*message_new_method_error)(sd_bus_message *call, sd_bus_message **m, const sd_bus_error *e);
    int (*message_new_signal)(sd_bus *bus, sd_bus_message **m, const char *path, const char *interface, const char *member);
    int (*message_set_destination)(sd_bus_message *m, const char *destination);
    int (*message_get_type)(sd_bus_message *m, uint8_t *type);
    const char *(*message_get_interface)(sd_bus_message *m);
    const char *(*message_get_signature)(sd_bus_message *m, int complete);
    int (*message_get_expect_reply)(sd_bus_message *m);
    int (*message_append_basic)(sd_bus_message *m, char type, const void *p);
    int (*message_append_array)(sd_bus_message *m, char type, const void *ptr, size_t size);
    int (*message_open_container)(sd_bus_message *m, char type, const char *contents);
    int (*message_close_container)(sd_bus_message *m);
    int (*message_read_basic)(sd_bus_message *m, char type, void *p);
    int (*message_read_array)(sd_bus_message *m, char type, const void **ptr, size_t *size);
    int (*message_peek_type)(sd_bus_message *m, char *type, const char **contents);
    sd_bus_message *(*message_ref)(sd_bus_message *m);
};

/// Loads libsystemd and resolves every entry point into `*api`: the library, to give to
/// `c_sd_bus_unload` when done, or NULL with `*reason` (a static string) when it cannot.
void *c_sd_bus_load(struct c_sd_bus_api *api, const char **reason);

/// Unloads what `c_sd_bus_load` loaded (NULL is ignored).
void c_sd_bus_unload(void *library);

#endif
