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
package import Foundation

/// The executables this package builds, found as a test or a harness runs them.
package enum BuiltProduct {
    /// The product `name` (`security`, `securityd`, `keychain-stress`, …): beside the running test
    /// bundle when SwiftPM put it there, else in the package's debug build folder.
    package static func url(_ name: String) -> URL {
        let besideTests = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: name)
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return packageRoot.appending(path: ".build/debug/\(name)")
    }

    /// The package's folder, from this file's place in it (`Sources/KeychainTestSupport/`).
    package static var packageRoot: URL {
        URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
