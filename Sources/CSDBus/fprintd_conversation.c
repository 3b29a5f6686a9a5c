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
#include "fprintd_conversation.h"
#include "sd_bus_loader.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { NAME_LENGTH = 256, STATUS_LENGTH = 64, ERROR_LENGTH = 256 };

struct c_fprint {
    void *library;
    struct c_sd_bus_api api;
    sd_bus *bus;
    atomic_int cancelled;
    char owner[NAME_LENGTH];
    char error[ERROR_LENGTH];
    // The signal being waited for, and what arrived.
    const char *awaited_member;
    char device[NAME_LENGTH];
    char status[STATUS_LENGTH];
    int done;
};

static const char service[] = "net.reactivated.Fprint";
static const char manager_path[] = "/net/reactivated/Fprint/Manager";
static const char manager_interface[] = "net.reactivated.Fprint.Manager";
static const char device_interface[] = "net.reactivated.Fprint.Device";

static int fail(c_fprint *fprint, int status, const char *message, const sd_bus_error *error) {
    if (error && error->name) {
        snprintf(fprint->error, sizeof(fprint->error), "%s: %s", message, error->message ? error->message : error->name);
    } else {
        snprintf(fprint->error, sizeof(fprint->error), "%s", message);
    }
    return status;
}

/// The outcome a failed call's error stands for.
static int outcome_of(c_fprint *fprint, const sd_bus_error *error) {
    static const struct { const char *name; int outcome; } known[] = {
        {"net.reactivated.Fprint.Error.NoSuchDevice", C_FPRINT_NO_DEVICE},
        {"net.reactivated.Fprint.Error.AlreadyInUse", C_FPRINT_BUSY},
        {"net.reactivated.Fprint.Error.NoEnrolledPrints", C_FPRINT_NOT_ENROLLED},
        {"org.freedesktop.DBus.Error.ServiceUnknown", C_FPRINT_NO_SERVICE},
        {"org.freedesktop.DBus.Error.NameHasNoOwner", C_FPRINT_NO_SERVICE},
        {"org.freedesktop.DBus.Error.NoReply", C_FPRINT_TIMEOUT},
    };
    for (size_t index = 0; index < sizeof(known) / sizeof(known[0]); index++) {
        if (fprint->api.error_has_name(error, known[index].name) > 0) return known[index].outcome;
    }
    return C_FPRINT_FAILED;
}

c_fprint *c_fprint_open(int *status) {
    int ignored;
    if (!status) status = &ignored;
    c_fprint *fprint = calloc(1, sizeof(*fprint));
    if (!fprint) {
        *status = C_FPRINT_FAILED;
        return NULL;
    }
    atomic_init(&fprint->cancelled, 0);
    fprint->library = c_sd_bus_load(&fprint->api, NULL);
    if (!fprint->library || fprint->api.open_system(&fprint->bus) < 0) {
        fprint->bus = NULL;
        c_fprint_close(fprint);
        *status = C_FPRINT_NO_BUS;
        return NULL;
    }
    *status = C_FPRINT_OK;
    return fprint;
}

void c_fprint_close(c_fprint *fprint) {
    if (!fprint) return;
    if (fprint->bus) fprint->api.flush_close_unref(fprint->bus);
    c_sd_bus_unload(fprint->library);
    free(fprint);
}

void c_fprint_cancel(c_fprint *fprint) {
    if (fprint) atomic_store(&fprint->cancelled, 1);
}

const char *c_fprint_error(c_fprint *fprint) {
    return fprint ? fprint->error : "no conversation";
}

int c_fprint_find_owner(c_fprint *fprint, char *owner, size_t size, uint32_t *uid) {
    if (!fprint || !fprint->bus) return C_FPRINT_NO_BUS;
    if (uid) *uid = UINT32_MAX;
    sd_bus_error error = {NULL, NULL, 0};
    sd_bus_message *reply = NULL;
    // Starting the service if it is activatable; a name nobody owns and nobody can start fails here.
    int result = fprint->api.call_method(fprint->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                         "org.freedesktop.DBus", "StartServiceByName", &error, &reply, "su", service, 0u);
    if (reply) fprint->api.message_unref(reply);
    reply = NULL;
    fprint->api.error_free(&error);
    result = fprint->api.call_method(fprint->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                     "GetNameOwner", &error, &reply, "s", service);
    if (result < 0) {
        int outcome = fail(fprint, C_FPRINT_NO_SERVICE, "fprintd is not running", &error);
        fprint->api.error_free(&error);
        return outcome;
    }
    const char *name = NULL;
    if (fprint->api.message_read(reply, "s", &name) <= 0 || !name || strlen(name) >= NAME_LENGTH || strlen(name) >= size) {
        fprint->api.message_unref(reply);
        return fail(fprint, C_FPRINT_FAILED, "the bus named no owner for fprintd", NULL);
    }
    strcpy(owner, name);
    fprint->api.message_unref(reply);
    reply = NULL;
    result = fprint->api.call_method(fprint->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                     "GetConnectionUnixUser", &error, &reply, "s", owner);
    uint32_t value = UINT32_MAX;
    if (result >= 0 && fprint->api.message_read(reply, "u", &value) > 0 && uid) *uid = value;
    if (reply) fprint->api.message_unref(reply);
    fprint->api.error_free(&error);
    return C_FPRINT_OK;
}

int c_fprint_use_owner(c_fprint *fprint, const char *owner) {
    if (!fprint || !fprint->bus) return C_FPRINT_NO_BUS;
    if (!owner || owner[0] != ':' || strlen(owner) >= NAME_LENGTH) {
        return fail(fprint, C_FPRINT_FAILED, "not a unique bus name", NULL);
    }
    strcpy(fprint->owner, owner);
    return C_FPRINT_OK;
}

/// Whether an owner was chosen: nothing is asked of fprintd's well-known name, only of the unique
/// name Swift accepted.
static int trust_owner(c_fprint *fprint) {
    if (fprint->owner[0] != '\0') return C_FPRINT_OK;
    return fail(fprint, C_FPRINT_UNTRUSTED, "no trusted owner of fprintd's name was chosen", NULL);
}

/// A method call to the trusted owner, with no arguments or one string; the reply, if asked for.
static int call(c_fprint *fprint, const char *path, const char *interface, const char *member,
                const char *argument, sd_bus_message **reply, const char *what) {
    sd_bus_error error = {NULL, NULL, 0};
    sd_bus_message *answer = NULL;
    int result = argument
        ? fprint->api.call_method(fprint->bus, fprint->owner, path, interface, member, &error, &answer, "s", argument)
        : fprint->api.call_method(fprint->bus, fprint->owner, path, interface, member, &error, &answer, NULL);
    if (result < 0) {
        int outcome = fail(fprint, outcome_of(fprint, &error), what, &error);
        fprint->api.error_free(&error);
        if (answer) fprint->api.message_unref(answer);
        return outcome;
    }
    fprint->api.error_free(&error);
    if (reply) {
        *reply = answer;
    } else if (answer) {
        fprint->api.message_unref(answer);
    }
    return C_FPRINT_OK;
}

int c_fprint_device(c_fprint *fprint, char *path, size_t path_size, char *name, size_t name_size) {
    if (!fprint || !fprint->bus) return C_FPRINT_NO_BUS;
    int result = trust_owner(fprint);
    if (result != C_FPRINT_OK) return result;
    sd_bus_message *reply = NULL;
    result = call(fprint, manager_path, manager_interface, "GetDefaultDevice", NULL, &reply, "fprintd has no reader");
    if (result != C_FPRINT_OK) return result;
    const char *device = NULL;
    if (fprint->api.message_read(reply, "o", &device) <= 0 || !device || strlen(device) >= path_size) {
        fprint->api.message_unref(reply);
        return fail(fprint, C_FPRINT_FAILED, "fprintd named no reader", NULL);
    }
    strcpy(path, device);
    fprint->api.message_unref(reply);
    if (name && name_size > 0) {
        name[0] = '\0';
        sd_bus_error error = {NULL, NULL, 0};
        sd_bus_message *property = NULL;
        if (fprint->api.get_property(fprint->bus, fprint->owner, path, device_interface, "name", &error, &property, "s") >= 0) {
            const char *value = NULL;
            if (fprint->api.message_read(property, "s", &value) > 0 && value) snprintf(name, name_size, "%s", value);
        }
        if (property) fprint->api.message_unref(property);
        fprint->api.error_free(&error);
    }
    return C_FPRINT_OK;
}

int c_fprint_enrolled(c_fprint *fprint, const char *device, char *fingers, size_t size) {
    if (!fprint || !fprint->bus) return C_FPRINT_NO_BUS;
    if (size == 0) return C_FPRINT_FAILED;
    fingers[0] = '\0';
    int result = trust_owner(fprint);
    if (result != C_FPRINT_OK) return result;
    sd_bus_message *reply = NULL;
    result = call(fprint, device, device_interface, "ListEnrolledFingers", "", &reply, "fprintd cannot list the fingers");
    if (result == C_FPRINT_NOT_ENROLLED) return 0;
    if (result != C_FPRINT_OK) return result;
    int count = 0;
    size_t used = 0;
    if (fprint->api.message_enter_container(reply, 'a', "s") > 0) {
        const char *finger = NULL;
        while (fprint->api.message_read(reply, "s", &finger) > 0 && finger) {
            size_t length = strlen(finger);
            if (used + length + 2 > size) break;
            memcpy(fingers + used, finger, length);
            used += length;
            fingers[used++] = '\n';
            fingers[used] = '\0';
            count += 1;
        }
        fprint->api.message_exit_container(reply);
    }
    fprint->api.message_unref(reply);
    return count;
}

/// Notes a status signal of the device from the trusted owner.
static int on_status(sd_bus_message *message, void *userdata, sd_bus_error *ret_error) {
    (void)ret_error;
    c_fprint *fprint = userdata;
    const char *sender = fprint->api.message_get_sender(message);
    const char *member = fprint->api.message_get_member(message);
    const char *path = fprint->api.message_get_path(message);
    if (!sender || strcmp(sender, fprint->owner) != 0 || !member || !fprint->awaited_member
        || strcmp(member, fprint->awaited_member) != 0 || !path || strcmp(path, fprint->device) != 0) {
        return 0;
    }
    const char *status = NULL;
    int done = 0;
    if (fprint->api.message_read(message, "sb", &status, &done) <= 0 || !status) return 0;
    snprintf(fprint->status, sizeof(fprint->status), "%s", status);
    fprint->done = done != 0;
    return 0;
}

static uint64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
}

/// Waits for a status signal with `done` set, at most `timeout_ms` after the last one.
static int await_done(c_fprint *fprint, int timeout_ms) {
    uint64_t deadline = now_ms() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0);
    char last[STATUS_LENGTH] = "";
    for (;;) {
        int processed = fprint->api.process(fprint->bus, NULL);
        if (processed < 0) return fail(fprint, C_FPRINT_FAILED, "the system bus connection failed", NULL);
        if (fprint->done) return C_FPRINT_OK;
        if (strcmp(last, fprint->status) != 0) {
            // A status that does not end it (a retry) restarts the time-out.
            snprintf(last, sizeof(last), "%s", fprint->status);
            deadline = now_ms() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0);
        }
        if (processed > 0) continue;
        if (atomic_load(&fprint->cancelled)) return fail(fprint, C_FPRINT_CANCELLED, "cancelled", NULL);
        uint64_t now = now_ms();
        if (now >= deadline) return fail(fprint, C_FPRINT_TIMEOUT, "no finger on the reader in time", NULL);
        uint64_t slice = deadline - now < 100 ? deadline - now : 100;
        if (fprint->api.wait(fprint->bus, slice * 1000u) < 0) {
            return fail(fprint, C_FPRINT_FAILED, "the system bus connection failed", NULL);
        }
    }
}

/// Claims the reader, runs `start` (with `argument`) and waits for the final `member` status, then
/// stops it and releases the reader.
static int run_action(c_fprint *fprint, const char *device, const char *member, const char *start, const char *stop,
                      const char *argument, int timeout_ms, char *result, size_t size) {
    if (!fprint || !fprint->bus) return C_FPRINT_NO_BUS;
    if (!device || strlen(device) >= NAME_LENGTH) return fail(fprint, C_FPRINT_FAILED, "no reader named", NULL);
    int outcome = trust_owner(fprint);
    if (outcome != C_FPRINT_OK) return outcome;
    strcpy(fprint->device, device);
    fprint->awaited_member = member;
    fprint->status[0] = '\0';
    fprint->done = 0;
    char rule[3 * NAME_LENGTH];
    snprintf(rule, sizeof(rule), "type='signal',sender='%s',interface='%s',member='%s',path='%s'", fprint->owner,
             device_interface, member, device);
    sd_bus_slot *slot = NULL;
    if (fprint->api.add_match(fprint->bus, &slot, rule, on_status, fprint) < 0) {
        return fail(fprint, C_FPRINT_FAILED, "the system bus refused the signal match", NULL);
    }
    outcome = call(fprint, device, device_interface, "Claim", "", NULL, "fprintd did not give the reader");
    if (outcome == C_FPRINT_OK) {
        outcome = call(fprint, device, device_interface, start, argument, NULL, "fprintd did not start");
        if (outcome == C_FPRINT_OK) {
            outcome = await_done(fprint, timeout_ms);
            char saved[ERROR_LENGTH];
            snprintf(saved, sizeof(saved), "%s", fprint->error);
            call(fprint, device, device_interface, stop, NULL, NULL, "fprintd did not stop");
            snprintf(fprint->error, sizeof(fprint->error), "%s", saved);
        }
        char saved[ERROR_LENGTH];
        snprintf(saved, sizeof(saved), "%s", fprint->error);
        call(fprint, device, device_interface, "Release", NULL, NULL, "fprintd did not release the reader");
        snprintf(fprint->error, sizeof(fprint->error), "%s", saved);
    }
    fprint->api.slot_unref(slot);
    fprint->awaited_member = NULL;
    if (outcome == C_FPRINT_OK && result && size > 0) snprintf(result, size, "%s", fprint->status);
    return outcome;
}

int c_fprint_verify(c_fprint *fprint, const char *device, int timeout_ms, char *result, size_t size) {
    return run_action(fprint, device, "VerifyStatus", "VerifyStart", "VerifyStop", "any", timeout_ms, result, size);
}

int c_fprint_enroll(c_fprint *fprint, const char *device, const char *finger, int timeout_ms, char *result, size_t size) {
    return run_action(fprint, device, "EnrollStatus", "EnrollStart", "EnrollStop", finger, timeout_ms, result, size);
}
