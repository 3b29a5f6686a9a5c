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

package import Foundation

/// The opaque name of an authentication context inside the engine.
///
/// An `LAContext` holds only this; the credentials its evaluations earned (released constraint keys,
/// the application password) stay in the engine's table of contexts, as Apple keeps them in
/// securityd and coreauthd and lets a context cross into a keychain call only as its externalized
/// form (`kSecUseCredentialReference`). Sixteen random bytes: a process that does not hold the
/// reference cannot guess it.
package struct ContextReference: Hashable, Sendable, Codable {
    /// The number of random bytes.
    package static let length = 16

    /// The reference's bytes, as passed under `kSecUseCredentialReference`.
    package let data: Data

    /// A new random reference.
    package init() {
        var generator = SystemRandomNumberGenerator()
        data = Data((0..<Self.length).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The reference in `data`; `nil` if it has the wrong length.
    package init?(_ data: Data) {
        guard data.count == Self.length else { return nil }
        self.data = Data(data)
    }

    package init(from decoder: any Decoder) throws {
        let data = try decoder.singleValueContainer().decode(Data.self)
        guard let reference = ContextReference(data) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a context reference has 16 bytes")
            )
        }
        self = reference
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(data)
    }
}

extension ContextReference: CustomStringConvertible {
    /// Never the bytes: a reference is a capability.
    package var description: String { "ContextReference(…)" }
}
