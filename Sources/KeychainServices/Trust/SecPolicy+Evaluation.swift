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
import KeychainCore

extension SecPolicy {
    /// The purposes of the policies made here, by identifier.
    private static let purposes: [String: TrustPolicy.Purpose] = [
        kSecPolicyAppleSMIME as String: .smime,
        kSecPolicyAppleCodeSigning as String: .codeSigning,
        kSecPolicyAppleTimeStamping as String: .timeStamping,
        kSecPolicyAppleIPsec as String: .ipsec,
        kSecPolicyAppleEAP as String: .eap,
        kSecPolicyAppleRevocation as String: .revocation,
    ]

    /// The policy as the trust evaluator checks it.
    var trustPolicy: TrustPolicy {
        if identifier == kSecPolicyAppleSSL as String {
            return TrustPolicy(isClient ? .sslClient : .sslServer, names: names)
        }
        var policy = TrustPolicy(Self.purposes[identifier] ?? .basic, names: names)
        if let flags = revocationFlags, flags & CFOptionFlags(kSecRevocationRequirePositiveResponse) != 0 {
            policy.requiresRevocationResponse = true
        }
        return policy
    }

    /// Whether a certificate search evaluates the whole chain with this policy, rather than the
    /// leaf alone (Apple's `_FilterWithPolicy`: the basic and revocation policies only).
    var evaluatesChainInSearches: Bool {
        identifier == kSecPolicyAppleX509Basic as String || identifier == kSecPolicyAppleRevocation as String
    }
}
#endif
