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

/// What a trust is evaluated for: Apple's policy, reduced to what the checks need.
package struct TrustPolicy: Sendable, Hashable, Codable {
    /// The purposes the evaluator knows; each adds its checks to the basic ones of RFC 5280.
    package enum Purpose: String, Sendable, Hashable, Codable {
        /// `kSecPolicyAppleX509Basic`: a chain to an anchor, valid on the date.
        case basic
        /// `kSecPolicyAppleSSL` for a server: its host name, and `serverAuth` if the leaf restricts its use.
        case sslServer
        /// `kSecPolicyAppleSSL` for a client: `clientAuth` if the leaf restricts its use.
        case sslClient
        /// `kSecPolicyAppleSMIME`: the e-mail address, and `emailProtection` if the leaf restricts its use.
        case smime
        /// `kSecPolicyAppleCodeSigning`: `codeSigning`.
        case codeSigning
        /// `kSecPolicyAppleTimeStamping`: `timeStamping`.
        case timeStamping
        /// `kSecPolicyAppleIPsec`: the host name, if any.
        case ipsec
        /// `kSecPolicyAppleEAP`: one of the server names, if any.
        case eap
        /// `kSecPolicyAppleRevocation`: accepted; revocation is not checked on Linux.
        case revocation
    }

    /// The purpose.
    package var purpose: Purpose
    /// The host names, e-mail address or server names the leaf must carry (any one of them).
    package var names: [String]
    /// Whether a positive revocation answer is required (`kSecRevocationRequirePositiveResponse`).
    package var requiresRevocationResponse = false

    package init(_ purpose: Purpose, names: [String] = []) {
        self.purpose = purpose
        self.names = names
    }
}
