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

import Crypto
package import Foundation

/// Converts ECDSA signatures between X9.62's DER `SEQUENCE { r, s }` and RFC 4754's `r ‖ s`.
package enum ECSignatureFormat {
    /// The DER form of a raw signature, or `nil` when it is not two of the curve's numbers.
    package static func der(fromRaw raw: Data, curve: ECCurve) -> Data? {
        guard raw.count == 2 * curve.coordinateByteCount else { return nil }
        do {
            switch curve {
            case .p256: return try P256.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation
            case .p384: return try P384.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation
            case .p521: return try P521.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation
            }
        } catch {
            return nil
        }
    }

    /// The raw form of a DER signature, or `nil` when it is not one.
    package static func raw(fromDER der: Data, curve: ECCurve) -> Data? {
        do {
            switch curve {
            case .p256: return try P256.Signing.ECDSASignature(derRepresentation: der).rawRepresentation
            case .p384: return try P384.Signing.ECDSASignature(derRepresentation: der).rawRepresentation
            case .p521: return try P521.Signing.ECDSASignature(derRepresentation: der).rawRepresentation
            }
        } catch {
            return nil
        }
    }
}
