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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a crash worker did, one line per event, each written with one `write(2)` so that a
/// SIGKILL leaves whole lines: `R` (ready), `B <operation>` before a call, `A` after it returned
/// success, `F <status>` after it failed.
///
/// The kernel keeps what was written when the process is killed, so the journal needs no fsync;
/// it records what the process was *told*, which is what the keychain must then hold.
struct CrashJournal {
    enum Operation: Equatable, CustomStringConvertible {
        case add(key: Int, version: UInt64)
        case update(key: Int, version: UInt64)
        case delete(key: Int)
        case changePasscode(to: Int)

        var kind: String {
            switch self {
            case .add: "add"
            case .update: "update"
            case .delete: "delete"
            case .changePasscode: "passcode"
            }
        }

        var description: String {
            switch self {
            case .add(let key, let version): "add \(key) \(version)"
            case .update(let key, let version): "update \(key) \(version)"
            case .delete(let key): "delete \(key)"
            case .changePasscode(let index): "passcode \(index)"
            }
        }

        init?(_ text: Substring) {
            let fields = text.split(separator: " ")
            guard let name = fields.first, fields.count >= 2, let first = Int(fields[1]) else { return nil }
            switch (name, fields.count) {
            case ("add", 3):
                guard let version = UInt64(fields[2]) else { return nil }
                self = .add(key: first, version: version)
            case ("update", 3):
                guard let version = UInt64(fields[2]) else { return nil }
                self = .update(key: first, version: version)
            case ("delete", 2): self = .delete(key: first)
            case ("passcode", 2): self = .changePasscode(to: first)
            default: return nil
            }
        }

        /// `state` after this operation succeeded.
        func apply(to state: KeychainModel) -> KeychainModel {
            var state = state
            switch self {
            case .add(let key, let version), .update(let key, let version): state.items[key] = version
            case .delete(let key): state.items[key] = nil
            case .changePasscode(let index): state.passcodeIndex = index
            }
            return state
        }
    }

    /// A worker's journal as read back after it was killed.
    struct Record {
        var ready = false
        var acknowledged: [Operation] = []
        /// The operation that had begun and not returned when the process died.
        var inFlight: Operation?
        var failure: String?
    }

    private let descriptor: Int32

    init(appendingTo url: URL) throws {
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StressError("cannot open the journal \(url.path): errno \(errno)") }
    }

    func ready() { append("R") }
    func begin(_ operation: Operation) { append("B \(operation)") }
    func acknowledge() { append("A") }
    func fail(_ status: Int32) { append("F \(status)") }

    private func append(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    static func read(_ url: URL) throws -> Record {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        var record = Record()
        var pending: Operation?
        for line in text.split(separator: "\n") {
            switch line.first {
            case "R": record.ready = true
            case "B":
                guard pending == nil, let operation = Operation(line.dropFirst(2)) else {
                    throw StressError("journal line out of order: \(line)")
                }
                pending = operation
            case "A":
                guard let operation = pending else { throw StressError("acknowledgement without an operation") }
                record.acknowledged.append(operation)
                pending = nil
            case "F": record.failure = "\(pending?.description ?? "?") returned \(line.dropFirst(2))"
            default: throw StressError("unknown journal line \(line)")
            }
        }
        record.inFlight = pending
        return record
    }
}

/// What the keychain should hold: each item's version, and which passcode is current.
struct KeychainModel: Equatable {
    var items: [Int: UInt64] = [:]
    var passcodeIndex = 0

    static func passcode(_ index: Int) -> String { "crash-passcode-\(index)" }
}

/// A failure of the harness or of the keychain, reported on standard error.
struct StressError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
