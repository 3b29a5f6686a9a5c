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

/// One check a certificate failed, named by Apple's key (`kSecPolicyCheck…`), as
/// `SecTrustCopyExceptions` and the trust's details report it.
package enum TrustCheck: String, Sendable, Hashable, Codable, CaseIterable {
    /// The date is outside the certificate's validity.
    case temporalValidity = "TemporalValidity"
    /// The chain does not end in an anchor.
    case anchorTrusted = "AnchorTrusted"
    /// No issuer of the last certificate was found.
    case missingIntermediate = "MissingIntermediate"
    /// An issuer carries no basic constraints.
    case basicConstraints = "BasicConstraints"
    /// An issuer's basic constraints say it is not a certificate authority.
    case basicConstraintsCA = "BasicConstraintsCA"
    /// An issuer's path length constraint is exceeded.
    case basicConstraintsPathLength = "BasicConstraintsPathLen"
    /// A certificate names a critical extension the evaluator does not enforce.
    case criticalExtensions = "CriticalExtensions"
    /// A name is outside an issuer's name constraints.
    case nameConstraints = "NameConstraints"
    /// The leaf does not carry the SSL host name.
    case sslHostname = "SSLHostname"
    /// The leaf does not carry the e-mail address.
    case email = "Email"
    /// The leaf's extended key usage excludes the policy's purpose.
    case extendedKeyUsage = "ExtendedKeyUsage"
    /// The leaf's key usage excludes the policy's purpose, or an issuer's excludes signing certificates.
    case keyUsage = "KeyUsage"
    /// A certificate cannot be read by the evaluator.
    case unreadable = "BasicCertificateProcessing"
    /// A certificate of a TLS server's chain is signed with SHA-1 or MD5.
    case signatureHashAlgorithms = "SignatureHashAlgorithms"
    /// A revocation policy requires a positive answer, and revocation is not checked here.
    case revocationResponseRequired = "RevocationResponseRequired"
}

/// One failed check, with the position in the chain of the certificate that failed it (0 is the leaf).
package struct TrustFailure: Sendable, Hashable, Codable {
    /// The certificate's index in the chain.
    package var index: Int
    /// The check.
    package var check: TrustCheck

    package init(index: Int, check: TrustCheck) {
        self.index = index
        self.check = check
    }
}
