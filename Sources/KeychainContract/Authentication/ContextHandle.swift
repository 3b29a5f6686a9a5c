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

/// A caller's hold on one authentication context of an engine: the reference, and the engine that
/// keeps what it earns.
///
/// Releasing the handle releases the context.
///
/// `LAContext` holds one (created for the keychain of the task that first uses it); a `SecItem*`
/// call without a context makes one for the call.
package final class ContextHandle: Sendable {
    /// The engine that keeps the context.
    package let engine: any Engine
    /// The context's name in that engine.
    package let reference: ContextReference

    /// A new, empty context in `engine`.
    package init(engine: any Engine) throws(KeychainError) {
        self.engine = engine
        reference = try engine.makeContext()
    }

    deinit {
        engine.releaseContext(reference)
    }
}

/// An object passed under `kSecUseAuthenticationContext` (`LAContext`): the context the keychain
/// call uses, and how it may ask the user.
package protocol AuthenticationContextProviding: AnyObject {
    /// The context's handle for the keychain in use.
    ///
    /// - Throws: `invalidContext` after the context was invalidated.
    func contextHandle() throws(AuthenticationFailure) -> ContextHandle
    /// `false` when the context forbids UI (`LAContext.interactionNotAllowed`).
    var allowsInteraction: Bool { get }
    /// The reason shown when the keychain call gives none (`LAContext.localizedReason`).
    var defaultReason: String { get }
}
