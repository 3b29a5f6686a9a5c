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

#if !(KEYCHAIN_IN_SWIFTPM && !KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API)
import Foundation
import KeychainServices

/// The errors CryptoKit's Secure Enclave keys throw: CryptoTokenKit's domain and codes (`TKError`),
/// with the keychain's `OSStatus` underneath.
enum SecureEnclaveFailure {
    static let domain = "CryptoTokenKit"

    /// CryptoTokenKit's codes (`TKError.Code`).
    enum Code: Int {
        case notImplemented = -1
        case communicationError = -2
        case corruptedData = -3
        case canceledByUser = -4
        case authenticationFailed = -5
        case objectNotFound = -6
        case tokenNotFound = -7
        case badParameter = -8
        case authenticationNeeded = -9
    }

    /// The error for a failed key call; `loading` for reading a blob, where a bad parameter is the blob.
    static func error(_ failure: SealedEnclaveKeyError, loading: Bool = false) -> NSError {
        let code: Code =
            switch failure.status {
            case errSecUserCanceled: .canceledByUser
            case errSecAuthFailed: .authenticationFailed
            case errSecInteractionNotAllowed: .authenticationNeeded
            case errSecParam: loading ? .corruptedData : .badParameter
            case errSecDecode, errSecItemNotFound: .corruptedData
            case errSecMissingEntitlement: .objectNotFound
            case errSecNotAvailable: .tokenNotFound
            case errSecUnimplemented: .notImplemented
            default: .communicationError
            }
        return error(code, failure.message, status: failure.status)
    }

    static func error(_ code: Code, _ message: String, status: OSStatus? = nil) -> NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let status {
            info[NSUnderlyingErrorKey] = NSError(domain: NSOSStatusErrorDomain, code: Int(status))
        }
        return NSError(domain: domain, code: code.rawValue, userInfo: info)
    }
}
#endif
