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

package import Crypto
package import Foundation
import KeychainCore

/// What an authentication context has earned: released constraint keys and the application password key.
///
/// The engine opens a protected item only with these; they are the Linux analog of the credential
/// an `LAContext` hands to securityd after a successful evaluation.
package struct AuthenticationCredentials: Sendable {
    // MARK: Properties

    /// Private keys of the constraint keys the context has opened, by constraint key identifier.
    package var constraintKeys: [Data: Curve25519.KeyAgreement.PrivateKey] = [:]
    /// The application password set on the context, if any (each item derives its own key from it).
    package var applicationPassword: ApplicationPassword?

    package init() {}

    // MARK: Merging

    /// Adds the keys of `other`.
    package mutating func merge(_ other: AuthenticationCredentials) {
        constraintKeys.merge(other.constraintKeys) { _, new in new }
        if let password = other.applicationPassword { applicationPassword = password }
    }

    /// Whether nothing has been earned.
    package var isEmpty: Bool { constraintKeys.isEmpty && applicationPassword == nil }
}
