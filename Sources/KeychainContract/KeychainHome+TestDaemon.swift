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

extension KeychainHome {
    /// Configures the `securityd` a client starts for this home as test keychains need it.
    ///
    /// It gets the cheap passcode cost and no pinentry (`securityd.conf` in the home, which the
    /// daemon reads instead of its starter's environment). Nothing is changed where the file
    /// exists. For throw-away homes only: a keychain made at the testing cost is cheap to guess.
    package func configureDaemonForTests() throws {
        try FileManager.default.createDirectory(
            at: url,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let path = url.appendingPathComponent("securityd.conf").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return }
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        defer { close(descriptor) }
        let text = Array("# a test keychain's daemon\npasscode-cost = testing\npinentry = none\n".utf8)
        guard text.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == text.count else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
