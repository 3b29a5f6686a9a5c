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
import Logging

/// The tool's log: standard error, warnings and worse by default (a script reads the tool's
/// output, and the engine's notices are not for it); `-v` shows notices and information too, and
/// `KEYCHAIN_LOG_LEVEL` (`trace` … `critical`) sets the level outright.
///
/// Log lines never carry a secret: the engine logs item classes and error codes only.
enum ToolLogging {
    static func bootstrap(verbose: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let level =
            environment["KEYCHAIN_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) }
            ?? (verbose ? .info : .warning)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
