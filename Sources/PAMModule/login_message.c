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

// The login message in the engine's compact wire form, written and read here in C because the
// module runs inside login, gdm, sshd and su, where no Swift runtime may go.
//
// A request is a frame: a 4-byte big-endian length, then the message — the wire version, the
// kind (request), the login tag, the event, the user's uid as LEB128, then the event's fields:
// strings as a LEB128 length and their bytes, a flag as one byte
// (Sources/KeychainContract/Engine/Wire/CompactForm+Login.swift). A reply is the version, the
// kind (response), then either the login tag and the outcome byte, or the error tag, the error's
// code name and its message (strings as above) and fields the module does not read.

#include "pam_swift_keychain.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void swkc_buffer_free(struct swkc_buffer *buffer) {
    if (buffer->bytes != NULL) {
        explicit_bzero(buffer->bytes, buffer->capacity);
        free(buffer->bytes);
    }
    buffer->bytes = NULL;
    buffer->length = buffer->capacity = 0;
}

// Grows by allocating anew and zeroing the old bytes (realloc would leave a copy behind).
static void append(struct swkc_buffer *buffer, const void *bytes, size_t count) {
    if (buffer->failed) return;
    if (buffer->length + count > buffer->capacity) {
        size_t capacity = buffer->capacity == 0 ? 256 : buffer->capacity;
        while (capacity < buffer->length + count) capacity *= 2;
        unsigned char *grown = malloc(capacity);
        if (grown == NULL) {
            buffer->failed = 1;
            return;
        }
        if (buffer->length > 0) memcpy(grown, buffer->bytes, buffer->length);
        size_t length = buffer->length;
        swkc_buffer_free(buffer);
        buffer->bytes = grown;
        buffer->length = length;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, count);
    buffer->length += count;
}

static void append_byte(struct swkc_buffer *buffer, unsigned char byte) {
    append(buffer, &byte, 1);
}

static void append_unsigned(struct swkc_buffer *buffer, uint64_t value) {
    while (value >= 0x80) {
        append_byte(buffer, (unsigned char)(value | 0x80));
        value >>= 7;
    }
    append_byte(buffer, (unsigned char)value);
}

static void append_string(struct swkc_buffer *buffer, const char *text) {
    size_t length = strlen(text);
    append_unsigned(buffer, length);
    append(buffer, text, length);
}

int swkc_encode_login(struct swkc_buffer *frame, enum swkc_event event, uid_t user, const char *first,
                      const char *second, int flag) {
    const unsigned char prefix[4] = {0, 0, 0, 0};
    append(frame, prefix, sizeof prefix);
    append_byte(frame, SWKC_WIRE_VERSION);
    append_byte(frame, SWKC_KIND_REQUEST);
    append_byte(frame, SWKC_REQUEST_LOGIN);
    append_byte(frame, (unsigned char)event);
    append_unsigned(frame, (uint64_t)user);
    switch (event) {
    case SWKC_SESSION_OPENED:
        append_string(frame, first);
        append_byte(frame, flag ? 1 : 0);
        break;
    case SWKC_PASSWORD_CHANGED:
        append_string(frame, first);
        append_string(frame, second);
        break;
    }
    if (frame->failed || frame->length < 4) return -1;
    uint32_t length = (uint32_t)(frame->length - 4);
    frame->bytes[0] = (unsigned char)(length >> 24);
    frame->bytes[1] = (unsigned char)(length >> 16);
    frame->bytes[2] = (unsigned char)(length >> 8);
    frame->bytes[3] = (unsigned char)length;
    return 0;
}

// A string of the reply, copied (cut to fit) into `out`; -1 when the bytes end first.
static int read_string(const unsigned char *bytes, size_t length, size_t *offset, char *out, size_t size) {
    uint64_t count = 0;
    for (int shift = 0;; shift += 7) {
        if (*offset >= length || shift > 63) return -1;
        unsigned char byte = bytes[(*offset)++];
        count |= (uint64_t)(byte & 0x7f) << shift;
        if ((byte & 0x80) == 0) break;
    }
    if (count > length - *offset) return -1;
    size_t copied = count < size - 1 ? (size_t)count : size - 1;
    memcpy(out, bytes + *offset, copied);
    out[copied] = '\0';
    // Only printable ASCII goes to the log.
    for (size_t index = 0; index < copied; index++) {
        if (out[index] < 0x20 || out[index] > 0x7e) out[index] = '?';
    }
    *offset += (size_t)count;
    return 0;
}

int swkc_decode_reply(const unsigned char *bytes, size_t length, struct swkc_reply *reply) {
    memset(reply, 0, sizeof *reply);
    reply->outcome = -1;
    if (length < 3 || bytes[0] != SWKC_WIRE_VERSION || bytes[1] != SWKC_KIND_RESPONSE) return -1;
    size_t offset = 3;
    switch (bytes[2]) {
    case SWKC_RESPONSE_LOGIN:
        if (length != 4) return -1;
        reply->outcome = bytes[3];
        return 0;
    case SWKC_RESPONSE_ERROR:
        if (read_string(bytes, length, &offset, reply->code, sizeof reply->code) != 0 ||
            read_string(bytes, length, &offset, reply->message, sizeof reply->message) != 0) {
            return -1;
        }
        return 0;
    default:
        return -1;
    }
}

const char *swkc_outcome_summary(int outcome) {
    // LoginOutcome's raw values and summaries.
    switch (outcome) {
    case 0: return "the login password unlocked the keychain";
    case 1: return "the keychain was unlocked already";
    case 2: return "the keychain has no passcode";
    case 3: return "the login password is not the keychain's passcode; it stays locked";
    case 4: return "the keychain took the login password as its passcode";
    case 5: return "the keychain's passcode follows the new login password";
    case 6: return "the old login password was not the keychain's passcode; the passcode stays";
    default: return "the keychain daemon answered with an outcome this module does not know";
    }
}
