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

import CSDBus
import Foundation
import KeychainCore
import Synchronization

/// The system's fingerprint reader, as fprintd (`net.reactivated.Fprint`, on the system bus) drives it.
///
/// Each call is one short conversation on its own connection (see `fprintd_conversation.h`): the owner
/// of fprintd's name is looked up once, believed only when ``mayAnswer(asFprintdRunningAs:)`` accepts the user
/// it runs as, and only its answers count; the reader is looked up in the same conversation as what is
/// asked of it.
final class FprintdDevice: Sendable {
    /// What fprintd reports about its reader.
    struct Reader: Sendable, Hashable {
        /// Its D-Bus object path.
        let path: String
        /// Its driver's name (`Virtual device for debugging`, `Synaptics Sensors`, …).
        let name: String
    }

    /// Why fprintd could not be asked.
    struct Failure: Error, Sendable {
        let outcome: Int32
        let message: String
    }

    /// How long a scan may take (fprintd has no time-out of its own): `KEYCHAIN_FPRINTD_TIMEOUT` seconds, else 30.
    let timeout: Duration

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let seconds =
            environment["KEYCHAIN_FPRINTD_TIMEOUT"].flatMap(Double.init).flatMap { $0 > 0 && $0 <= 3600 ? $0 : nil }
            ?? 30
        timeout = .milliseconds(Int64(seconds * 1000))
    }

    // MARK: Whom to believe

    /// Whether the program that owns fprintd's name, running as `userID`, is fprintd: only root's.
    ///
    /// The system bus lets only root own `net.reactivated.Fprint`, but a test bus, a session bus or
    /// a bus whose policy was loosened may let anyone take it, and a user's program that answered
    /// "verify-match" would release every biometry item. `UInt32.max` (the bus did not say) is nobody.
    static func mayAnswer(asFprintdRunningAs userID: UInt32) -> Bool {
        userID == 0
    }

    // MARK: Asking

    /// The default reader, or `nil` when fprintd is not there, is not trusted, or has none.
    func reader() -> Reader? {
        try? converse { fprint throws(Failure) -> Reader in try Self.reader(fprint) }
    }

    /// The default reader and the fingers enrolled for this user on it (none when they cannot be listed),
    /// or `nil` when there is no trusted reader.
    func enrolment() -> (reader: Reader, fingers: [String])? {
        try? converse { fprint throws(Failure) -> (reader: Reader, fingers: [String]) in
            let reader = try Self.reader(fprint)
            var fingers = [CChar](repeating: 0, count: 4096)
            guard c_fprint_enrolled(fprint, reader.path, &fingers, fingers.count) >= 0 else { return (reader, []) }
            return (reader, Self.string(fingers).split(separator: "\n").map(String.init).sorted())
        }
    }

    /// One verification of any enrolled finger on the default reader: fprintd's final status
    /// (`verify-match`, …); cancelling `cancellation` ends this verification, and no other.
    func verify(cancellation: MatchCancellation) throws(Failure) -> String {
        try converse(cancellation: cancellation) { fprint throws(Failure) -> String in
            let reader = try Self.reader(fprint)
            var status = [CChar](repeating: 0, count: 64)
            try Self.check(fprint, c_fprint_verify(fprint, reader.path, milliseconds, &status, status.count))
            return Self.string(status)
        }
    }

    /// Enrols `finger` on the default reader: fprintd's final status (`enroll-completed`, …).
    func enroll(_ finger: String) throws(Failure) -> String {
        try converse { fprint throws(Failure) -> String in
            let reader = try Self.reader(fprint)
            var status = [CChar](repeating: 0, count: 64)
            try Self.check(fprint, c_fprint_enroll(fprint, reader.path, finger, milliseconds, &status, status.count))
            return Self.string(status)
        }
    }

    // MARK: Private

    /// The C handle, for the cancellation handler, which runs only while its conversation lasts
    /// (``MatchCancellation`` removes it under its lock before the handle is closed).
    private struct UnsafeConversation: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private var milliseconds: Int32 {
        let (seconds, attoseconds) = timeout.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    private func converse<T>(
        cancellation: MatchCancellation? = nil,
        _ body: (OpaquePointer) throws(Failure) -> T
    ) throws(Failure) -> T {
        var status: Int32 = 0
        guard let fprint = c_fprint_open(&status) else {
            throw Failure(outcome: status, message: "the system bus cannot be reached")
        }
        defer { c_fprint_close(fprint) }
        try Self.acceptOwner(fprint)
        guard let cancellation else { return try body(fprint) }
        let conversation = UnsafeConversation(pointer: fprint)
        let cancel: @Sendable () -> Void = { c_fprint_cancel(conversation.pointer) }
        return try cancellation.whileWaiting(onCancel: cancel) {
            () throws(Failure) -> T in
            try body(fprint)
        }
    }

    /// Finds who answers as fprintd and makes the conversation talk to it, if it may answer.
    private static func acceptOwner(_ fprint: OpaquePointer) throws(Failure) {
        var owner = [CChar](repeating: 0, count: 256)
        var userID = UInt32.max
        try check(fprint, c_fprint_find_owner(fprint, &owner, owner.count, &userID))
        guard mayAnswer(asFprintdRunningAs: userID) else {
            throw Failure(
                outcome: Int32(C_FPRINT_UNTRUSTED),
                message: "the program that answers as fprintd does not run as root"
            )
        }
        try check(fprint, c_fprint_use_owner(fprint, owner))
    }

    /// The default reader, asked in the conversation `fprint`.
    private static func reader(_ fprint: OpaquePointer) throws(Failure) -> Reader {
        var path = [CChar](repeating: 0, count: 256)
        var name = [CChar](repeating: 0, count: 256)
        try check(fprint, c_fprint_device(fprint, &path, path.count, &name, name.count))
        return Reader(path: string(path), name: string(name))
    }

    /// The text of a NUL-terminated buffer.
    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func check(_ fprint: OpaquePointer, _ outcome: Int32) throws(Failure) {
        guard outcome < 0 else { return }
        throw Failure(outcome: outcome, message: String(cString: c_fprint_error(fprint)))
    }
}
