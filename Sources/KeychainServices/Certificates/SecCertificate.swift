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
/// Create one from DER bytes and read the bytes back (swift-certificates' `Certificate(_:)` and
/// `SecCertificate.makeWithCertificate(_:)` use exactly these), or read its names, serial number
/// and public key.
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
/// - Returns: The certificate, or `nil` when `data` does not start with a DER certificate (bytes
///   after it are ignored, as Apple ignores them) or its serial number is longer than 37 bytes.
@discardableResult
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? {
    let bytes = [UInt8](data as Data)
    guard let length = CertificateDER.lengthOfFirstElement(in: bytes) else { return nil }
    let certificateBytes = Array(bytes.prefix(length))
    guard let parsed = CertificateDER(derEncoded: certificateBytes), parsed.serialNumber.count <= 37 else { return nil }
    return SecCertificate(der: Data(certificateBytes))
}

/// Returns the DER encoding of a certificate.
@discardableResult
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData {
    certificate.der as NSData
}
#endif
