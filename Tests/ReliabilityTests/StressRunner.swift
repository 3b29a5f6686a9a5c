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
import KeychainTestSupport

/// Runs the built `keychain-stress` executable and collects what it printed.
enum StressRunner {
    typealias Output = ProgramOutput

    static var executable: URL {
        BuiltProduct.url("keychain-stress")
    }

    static func run(_ arguments: [String]) throws -> Output {
        try ProgramRun.run(executable, arguments, input: nil)
    }

    /// A fresh directory for one run's keychain home.
    static func temporaryHome(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
    }
}
