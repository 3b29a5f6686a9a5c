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

package import KeychainCore

/// An object passed under `kSecUseAuthenticationContext` that carries an ``AuthenticationSession``
/// (`LAContext`).
package protocol AuthenticationSessionProviding: AuthenticationContextProviding {
    /// The session of this context for the keychain in use.
    ///
    /// - Throws: `invalidContext` after the context was invalidated.
    func authenticationSession() throws(AuthenticationFailure) -> AuthenticationSession
    /// `false` when the context forbids UI (`LAContext.interactionNotAllowed`).
    var allowsInteraction: Bool { get }
    /// The reason shown when the keychain call gives none (`LAContext.localizedReason`).
    var defaultReason: String { get }
}
