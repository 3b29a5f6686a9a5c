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

public import Foundation
import KeychainCore
public import Logging

/// What a test keychain's engine logged, kept for the test to read instead of printed.
///
/// A test that damages items on purpose makes the engine warn about each one; printed, those
/// lines read as failures in a passing run. They are recorded here (notices and worse), so that a
/// test can assert them (``TemporaryKeychain/log``), and shown on standard error as well only when
/// asked: `KEYCHAIN_LOG_LEVEL=notice swift test` (any of swift-log's levels).
public final class EngineLog: Sendable {
    /// One logged line.
    public struct Entry: Sendable, Hashable {
        public var level: Logger.Level
        public var message: String
        /// The metadata, rendered as `key=value`.
        public var metadata: [String: String]
    }

    private let entries = LockedState<[Entry]>([])

    /// The lines logged so far, oldest first.
    public var lines: [Entry] { entries.withLock { $0 } }

    /// An empty log.
    public init() {}

    /// A logger that records here, and prints at `KEYCHAIN_LOG_LEVEL` when it is set: for an
    /// engine or a device a test builds itself (``TemporaryKeychain`` uses one).
    public func makeLogger(environment: [String: String] = ProcessInfo.processInfo.environment) -> Logger {
        let shown = environment["KEYCHAIN_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) }
        return Logger(label: "swift-keychain") { label in
            RecordingHandler(
                log: self,
                shown: shown.map { level in
                    var handler = StreamLogHandler.standardError(label: label)
                    handler.logLevel = level
                    return handler
                }
            )
        }
    }

    fileprivate func record(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }
}

/// Records notices and worse in an ``EngineLog``; passes every line on to `shown`, if any.
private struct RecordingHandler: LogHandler {
    let log: EngineLog
    var shown: StreamLogHandler?
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level {
        get { min(.notice, shown?.logLevel ?? .notice) }
        set { shown?.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if event.level >= .notice {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            log.record(
                EngineLog.Entry(
                    level: event.level,
                    message: "\(event.message)",
                    metadata: merged.mapValues { "\($0)" }
                )
            )
        }
        shown?.log(event: event)
    }
}
