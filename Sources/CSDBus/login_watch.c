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
#include "login_watch.h"
#include "sd_bus_loader.h"

#include <stdlib.h>
#include <string.h>

enum { QUEUE_LENGTH = 32, PATH_LENGTH = 256 };

struct pending {
    int kind;
    char path[PATH_LENGTH];
};

struct c_login_watch {
    void *library;
    struct c_sd_bus_api api;
    sd_bus *bus;
    struct pending queue[QUEUE_LENGTH];
    int count;
};

static const char login_service[] = "org.freedesktop.login1";

/// Whether a session's `PropertiesChanged` (`s a{sv} as`) sets `LockedHint` to true: what a screen
/// locker reports to logind when it locks (GNOME's, for one, locks without logind's `Lock`).
static int sets_locked_hint(c_login_watch *watch, sd_bus_message *message) {
    const char *interface = NULL;
    if (watch->api.message_read(message, "s", &interface) <= 0 || !interface
        || strcmp(interface, "org.freedesktop.login1.Session") != 0) {
        return 0;
    }
    if (watch->api.message_enter_container(message, 'a', "{sv}") <= 0) return 0;
    int locked = 0;
    while (watch->api.message_enter_container(message, 'e', "sv") > 0) {
        const char *name = NULL;
        if (watch->api.message_read(message, "s", &name) <= 0 || !name) return 0;
        if (strcmp(name, "LockedHint") == 0) {
            int value = 0;
            if (watch->api.message_enter_container(message, 'v', "b") <= 0) return 0;
            if (watch->api.message_read(message, "b", &value) <= 0) return 0;
            if (watch->api.message_exit_container(message) < 0) return 0;
            locked = value != 0;
        } else if (watch->api.message_skip(message, "v") < 0) {
            return 0;
        }
        if (watch->api.message_exit_container(message) < 0) return 0;
    }
    return locked;
}

/// Notes a signal; the owner of a session is looked up after processing, outside the callback.
static int on_signal(sd_bus_message *message, void *userdata, sd_bus_error *ret_error) {
    (void)ret_error;
    c_login_watch *watch = userdata;
    const char *member = watch->api.message_get_member(message);
    if (!member || watch->count >= QUEUE_LENGTH) return 0;
    struct pending *next = &watch->queue[watch->count];
    if (strcmp(member, "Lock") == 0 || (strcmp(member, "PropertiesChanged") == 0 && sets_locked_hint(watch, message))) {
        const char *path = watch->api.message_get_path(message);
        if (!path || strlen(path) >= PATH_LENGTH) return 0;
        next->kind = C_LOGIN_LOCK_SESSION;
        strcpy(next->path, path);
        watch->count += 1;
    } else if (strcmp(member, "PrepareForSleep") == 0) {
        int sleeping = 0;
        if (watch->api.message_read(message, "b", &sleeping) < 0 || !sleeping) return 0;
        next->kind = C_LOGIN_SLEEP;
        next->path[0] = '\0';
        watch->count += 1;
    }
    return 0;
}

c_login_watch *c_login_watch_open(const char **reason) {
    const char *ignored;
    if (!reason) reason = &ignored;
    c_login_watch *watch = calloc(1, sizeof(*watch));
    if (!watch) {
        *reason = "out of memory";
        return NULL;
    }
    watch->library = c_sd_bus_load(&watch->api, reason);
    if (!watch->library) goto fail;
    if (watch->api.open_system(&watch->bus) < 0) {
        watch->bus = NULL;
        *reason = "the system bus is not reachable";
        goto fail;
    }
    static const char lock_rule[] =
        "type='signal',sender='org.freedesktop.login1',interface='org.freedesktop.login1.Session',member='Lock'";
    static const char sleep_rule[] =
        "type='signal',sender='org.freedesktop.login1',interface='org.freedesktop.login1.Manager',"
        "member='PrepareForSleep',path='/org/freedesktop/login1'";
    static const char hint_rule[] =
        "type='signal',sender='org.freedesktop.login1',interface='org.freedesktop.DBus.Properties',"
        "member='PropertiesChanged',arg0='org.freedesktop.login1.Session'";
    if (watch->api.add_match(watch->bus, NULL, lock_rule, on_signal, watch) < 0
        || watch->api.add_match(watch->bus, NULL, hint_rule, on_signal, watch) < 0
        || watch->api.add_match(watch->bus, NULL, sleep_rule, on_signal, watch) < 0) {
        *reason = "the system bus refused the signal matches";
        goto fail;
    }
    return watch;
fail:
    c_login_watch_close(watch);
    return NULL;
}

/// The owner of the session at `path` (its `User` property), or UINT32_MAX.
static uint32_t session_owner(c_login_watch *watch, const char *path) {
    sd_bus_error error = {NULL, NULL, 0};
    sd_bus_message *reply = NULL;
    uint32_t uid = UINT32_MAX;
    if (watch->api.get_property(watch->bus, login_service, path, "org.freedesktop.login1.Session", "User",
                                &error, &reply, "(uo)") >= 0) {
        uint32_t value = 0;
        const char *user_path = NULL;
        if (watch->api.message_read(reply, "(uo)", &value, &user_path) > 0) uid = value;
    }
    if (reply) watch->api.message_unref(reply);
    watch->api.error_free(&error);
    return uid;
}

int c_login_watch_next(c_login_watch *watch, int timeout_ms, uint32_t *uid) {
    if (!watch || !watch->bus) return C_LOGIN_CLOSED;
    if (watch->count == 0) {
        for (;;) {
            int processed = watch->api.process(watch->bus, NULL);
            if (processed < 0) return C_LOGIN_CLOSED;
            if (watch->count > 0) break;
            if (processed > 0) continue;
            int waited = watch->api.wait(watch->bus, timeout_ms < 0 ? UINT64_MAX : (uint64_t)timeout_ms * 1000);
            if (waited < 0) return C_LOGIN_CLOSED;
            if (waited == 0) {
                // Nothing arrived in time; a last pass picks up what the wait saw at its end.
                if (watch->api.process(watch->bus, NULL) < 0) return C_LOGIN_CLOSED;
                if (watch->count == 0) return C_LOGIN_NOTHING;
                break;
            }
        }
    }
    struct pending first = watch->queue[0];
    watch->count -= 1;
    memmove(&watch->queue[0], &watch->queue[1], (size_t)watch->count * sizeof(struct pending));
    if (uid) *uid = first.kind == C_LOGIN_LOCK_SESSION ? session_owner(watch, first.path) : UINT32_MAX;
    return first.kind;
}

void c_login_watch_close(c_login_watch *watch) {
    if (!watch) return;
    if (watch->bus) watch->api.flush_close_unref(watch->bus);
    c_sd_bus_unload(watch->library);
    free(watch);
}
