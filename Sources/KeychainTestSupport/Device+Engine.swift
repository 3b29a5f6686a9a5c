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

package import KeychainDevice
package import KeychainEngine

extension Device {
    /// The engine in this process, behind the loopback engine or not: for harnesses and tests
    /// that inspect the files.
    ///
    /// `nil` when the keychain is served from elsewhere.
    package var embedded: EmbeddedEngine? {
        engine.embedded
    }

    /// The keychain of the engine in this process.
    package var keychain: Keychain {
        guard let embedded else { preconditionFailure("this device's engine is not in this process") }
        return embedded.keychain
    }
}
