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

/// Every certificate of the caller's keychain, for what looks through them all (a trust's
/// issuers, the issuers of a search).
enum KeychainCertificates {
    /// Each certificate as `returnKey` (`kSecReturnData`, `kSecReturnAttributes`) gives it; none
    /// when the keychain cannot be searched.
    static func all(returning returnKey: CFString) -> [Any] {
        let query: [String: Any] = [
            kSecClass as String: kSecClassCertificate,
            kSecMatchLimit as String: kSecMatchLimitAll,
            returnKey as String: true,
            // Looking through them must not ask anyone: a certificate that would is left out.
            kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip,
        ]
        var found: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess else { return [] }
        return (found as? [Any]) ?? []
    }
}
#endif
