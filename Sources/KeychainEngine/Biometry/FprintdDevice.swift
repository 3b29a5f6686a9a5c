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

import Foundation
import KeychainCore
import Synchronization

/// The system's fingerprint reader, as fprintd (`net.reactivated.Fprint`, on the system bus) drives it.
///
/// Each call is one short conversation on its own connection (``FprintdConversation``): the owner
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
        enum Kind: Sendable, Equatable {
            /// libsystemd or the system bus is not there.
            case noBus
            /// fprintd is not on the bus and cannot be started.
            case noService
            /// The program that owns fprintd's name is not believed (``mayAnswer(asFprintdRunningAs:)``).
            case untrusted
            /// fprintd has no reader.
            case noDevice
            /// Nothing is enrolled for the user.
            case notEnrolled
            /// Another program has claimed the reader.
            case busy
            /// No answer within the time-out.
            case timeout
            /// The wait was cancelled.
            case cancelled
            /// Any other failure of a call or of the bus.
            case failed
        }

        let kind: Kind
        let message: String

        init(_ kind: Kind, _ message: String) {
            self.kind = kind
            self.message = message
        }
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
        try? converse { conversation throws(Failure) -> Reader in try conversation.reader() }
    }

    /// The default reader and the fingers enrolled for this user on it (none when they cannot be listed),
    /// or `nil` when there is no trusted reader.
    func enrolment() -> (reader: Reader, fingers: [String])? {
        try? converse { conversation throws(Failure) -> (reader: Reader, fingers: [String]) in
            let reader = try conversation.reader()
            let fingers = (try? conversation.enrolledFingers(on: reader.path)) ?? []
            return (reader, fingers.sorted())
        }
    }

    /// One verification of any enrolled finger on the default reader: fprintd's final status
    /// (`verify-match`, …); cancelling `cancellation` ends this verification, and no other.
    func verify(cancellation: MatchCancellation) throws(Failure) -> String {
        try converse(cancellation: cancellation) { conversation throws(Failure) -> String in
            try conversation.verify(on: try conversation.reader().path, timeout: timeout)
        }
    }

    /// Enrols `finger` on the default reader: fprintd's final status (`enroll-completed`, …).
    func enroll(_ finger: String) throws(Failure) -> String {
        try converse { conversation throws(Failure) -> String in
            try conversation.enroll(finger, on: try conversation.reader().path, timeout: timeout)
        }
    }

    // MARK: Private

    /// Runs `body` in a new conversation with the owner of fprintd's name, if it may answer.
    private func converse<T>(
        cancellation: MatchCancellation? = nil,
        _ body: (FprintdConversation) throws(Failure) -> T
    ) throws(Failure) -> T {
        let conversation = try FprintdConversation()
        let owner = try conversation.findOwner()
        guard Self.mayAnswer(asFprintdRunningAs: owner.userID) else {
            throw Failure(.untrusted, "the program that answers as fprintd does not run as root")
        }
        try conversation.use(owner: owner.name)
        guard let cancellation else { return try body(conversation) }
        let cancel: @Sendable () -> Void = { conversation.cancel() }
        return try cancellation.whileWaiting(onCancel: cancel) { () throws(Failure) -> T in
            try body(conversation)
        }
    }
}
