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
import KeychainCore

/// An X.509 certificate (Apple's `SecCertificateRef`).
///
/// Only what code that converts certificates calls is here today: creating one from DER bytes
/// and reading the bytes back (swift-certificates' `Certificate(_:)` and
/// `SecCertificate.makeWithCertificate(_:)` use exactly these).
public final class SecCertificate: Hashable, Sendable {
    /// The DER encoding.
    let der: Data

    fileprivate init(der: Data) {
        self.der = der
    }

    public static func == (lhs: SecCertificate, rhs: SecCertificate) -> Bool {
        lhs.der == rhs.der
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(der)
    }
}

/// Creates a certificate from its DER encoding.
///
/// - Parameters:
///   - allocator: Ignored; pass `nil` or `kCFAllocatorDefault`.
///   - data: A DER-encoded X.509 certificate.
/// - Returns: The certificate, or `nil` when `data` is not one DER certificate and nothing else.
@discardableResult
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? {
    let bytes = data as Data
    guard CertificateDER(derEncoded: [UInt8](bytes)) != nil else { return nil }
    return SecCertificate(der: bytes)
}

/// Returns the DER encoding of a certificate.
@discardableResult
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData {
    certificate.der as NSData
}
#endif
