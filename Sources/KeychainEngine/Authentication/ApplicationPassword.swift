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
import Foundation
package import KeychainCore

/// An application password held by an authentication context, and the keys derived from it so far.
///
/// Every item sealed with an application password has its own salt and cost, so each needs its own
/// derivation (about 150 ms at the standard cost); the keys already derived are kept for the
/// context's lifetime, so reading the same item again costs nothing. The password's bytes are
/// zeroed when the context lets go of it (Swift may have made copies before they reached here).
package final class ApplicationPassword: Sendable {
    private struct State {
        var bytes: [UInt8]
        var keys: [ApplicationPasswordParameters: SymmetricKey] = [:]
    }

    private let state: LockedState<State>

    /// The most derived keys kept.
    private static let cacheLimit = 4096

    package init(_ password: some Collection<UInt8>) {
        state = LockedState(State(bytes: Array(password)))
    }

    deinit {
        state.withLock { PrivateFile.zero(&$0.bytes) }
    }

    /// The key for `parameters`: derived with `derive` the first time, then kept.
    package func key(
        for parameters: ApplicationPasswordParameters,
        derive: ([UInt8]) throws(KeychainError) -> SymmetricKey
    ) throws(KeychainError) -> SymmetricKey {
        if let key = state.withLock({ $0.keys[parameters] }) { return key }
        // Shares the stored buffer (no copy), which deinit zeroes.
        let bytes = state.withLock { $0.bytes }
        let key = try derive(bytes)
        state.withLock { state in
            if state.keys.count >= Self.cacheLimit { state.keys.removeAll() }
            state.keys[parameters] = key
        }
        return key
    }
}
