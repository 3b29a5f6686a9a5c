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

#if KEYCHAIN_IN_SWIFTPM && !KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API
@_exported import Security
#else
import Foundation
import KeychainCrypto

/// A failed key operation, as Apple reports it: a `CFError` in `NSOSStatusErrorDomain` whose code
/// is the operation's `OSStatus`.
struct SecKeyError: Error {
    let status: OSStatus
    let message: String

    init(_ status: OSStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The error for a key material failure.
    init(_ error: KeyMaterialError, operation: String) {
        switch error {
        case .invalidKeyData:
            self.init(errSecParam, "\(operation): the key data is not a valid key")
        case .invalidInput(let reason):
            self.init(errSecParam, "\(operation): \(reason)")
        case .decryptionFailed:
            self.init(errSecParam, "ECIES: Failed to aes-gcm decrypt data")
        case .curveMismatch:
            self.init(errSecDecode, "ECpriv failed to compute shared secret: the keys are on different curves")
        case .delegated(let status, let message):
            self.init(OSStatus(truncatingIfNeeded: status), message)
        }
    }

    var cfError: CFError {
        NSError(domain: NSOSStatusErrorDomain, code: Int(status), userInfo: [NSLocalizedDescriptionKey: message])
    }

    /// Stores the error where the caller asked for it.
    func report(to pointer: UnsafeMutablePointer<Unmanaged<CFError>?>?) {
        pointer?.pointee = Unmanaged.passRetained(cfError)
    }
}

/// Runs `body`, reporting a failure through Apple's error out-parameter and returning `nil`.
func reportingKeyErrors<T>(
    _ pointer: UnsafeMutablePointer<Unmanaged<CFError>?>?,
    _ body: () throws(SecKeyError) -> T
) -> T? {
    do {
        return try body()
    } catch {
        error.report(to: pointer)
        return nil
    }
}
#endif
