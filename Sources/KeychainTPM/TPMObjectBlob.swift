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

/// A key made in a TPM, as the TPM gave it out.
///
/// Its public area, and its private area wrapped by the TPM under its parent: useless without
/// that TPM (and that parent's seed).
package struct TPMObjectBlob: Sendable, Hashable {
    /// `TPM2B_PUBLIC`, size included.
    package let publicArea: [UInt8]
    /// `TPM2B_PRIVATE`, size included.
    package let privateArea: [UInt8]

    package init(publicArea: [UInt8], privateArea: [UInt8]) {
        self.publicArea = publicArea
        self.privateArea = privateArea
    }

    /// The two areas, one after the other, as the keychain stores them.
    package var serialized: [UInt8] { publicArea + privateArea }

    /// Reads a stored blob; `nil` for bytes that are not one (altered, cut).
    package init?(serialized bytes: some Collection<UInt8>) {
        var reader = TPMReader(Array(bytes))
        guard let publicArea = try? reader.readSizedWhole(), let privateArea = try? reader.readSizedWhole(),
            reader.isAtEnd, publicArea.count > 2, privateArea.count > 2
        else { return nil }
        self.publicArea = publicArea
        self.privateArea = privateArea
    }
}
