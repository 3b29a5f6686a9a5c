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
public import Foundation

/// The result of a trust evaluation (Apple's `SecTrustResultType`).
public enum SecTrustResultType: UInt32, Sendable {
    /// Not evaluated yet, or an input changed since.
    case invalid = 0
    /// Trusted because the user said so: a certificate added with `security add-trusted-cert`, or
    /// failures accepted with `SecTrustSetExceptions`.
    case proceed = 1
    /// Deprecated by Apple; never produced.
    case confirm = 2
    /// Distrusted by the user; never produced on Linux.
    case deny = 3
    /// Trusted: the chain ends in an anchor and satisfies every policy.
    case unspecified = 4
    /// Not trusted, for reasons the user may accept (an unknown root, an expired certificate, a
    /// wrong host name).
    case recoverableTrustFailure = 5
    /// Not trusted, and no exception can change it (a certificate that cannot be read).
    case fatalTrustFailure = 6
    /// The evaluation itself failed.
    case otherError = 7
}

/// The block `SecTrustEvaluateAsyncWithError` calls: the trust, whether it is trusted, and why not.
public typealias SecTrustWithErrorCallback = @Sendable (SecTrust, Bool, CFError?) -> Void

/// The date of the evaluation, in the dictionary of `SecTrustCopyResult`.
nonisolated(unsafe) public let kSecTrustEvaluationDate: CFString = SecConstantString("TrustEvaluationDate")
/// Whether the certificate has extended validation (never on Linux), in `SecTrustCopyResult`.
nonisolated(unsafe) public let kSecTrustExtendedValidation: CFString = SecConstantString("TrustExtendedValidation")
/// The organization of an extended-validation certificate, in `SecTrustCopyResult`.
nonisolated(unsafe) public let kSecTrustOrganizationName: CFString = SecConstantString("Organization")
/// The `SecTrustResultType` of the evaluation, in `SecTrustCopyResult`.
nonisolated(unsafe) public let kSecTrustResultValue: CFString = SecConstantString("TrustResultValue")
/// Whether revocation was checked (never on Linux), in `SecTrustCopyResult`.
nonisolated(unsafe) public let kSecTrustRevocationChecked: CFString = SecConstantString("TrustRevocationChecked")
/// Until when the revocation status holds, in `SecTrustCopyResult`.
nonisolated(unsafe) public let kSecTrustRevocationValidUntilDate: CFString = SecConstantString(
    "TrustExpirationDate"
)
/// Whether the certificate has Certificate Transparency proof (never on Linux), in `SecTrustCopyResult`.
nonisolated(unsafe) public let kSecTrustCertificateTransparency: CFString = SecConstantString(
    "TrustCertificateTransparency"
)
/// The per-certificate failed checks, in `SecTrustCopyResult`.
nonisolated(unsafe) public let kSecTrustResultDetails: CFString = SecConstantString("TrustResultDetails")
#endif
