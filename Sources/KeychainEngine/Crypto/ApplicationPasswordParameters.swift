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

import Crypto
package import Foundation
import KeychainCore

/// The salt and scrypt cost of one application-password wrapping, stored with the item.
///
/// Each item sealed with an application password gets its own random salt and the cost in force
/// when it was sealed, inside its class-key-sealed envelope: one derivation tests a guess against
/// one item only, the parameters cannot be altered without the envelope failing, and changing the
/// passcode's cost never strands an item.
package struct ApplicationPasswordParameters: Hashable, Sendable {
    package static let saltLength = 16

    package var kdf: PasscodeKDF
    package var salt: Data

    package init(kdf: PasscodeKDF, salt: Data) {
        self.kdf = kdf
        self.salt = salt
    }

    /// Fresh parameters: a random salt and `kdf`.
    package static func make(kdf: PasscodeKDF) -> ApplicationPasswordParameters {
        ApplicationPasswordParameters(kdf: kdf, salt: SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) })
    }
}
