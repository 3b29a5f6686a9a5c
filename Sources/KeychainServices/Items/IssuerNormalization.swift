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
import KeychainCrypto

/// A distinguished name under `kSecAttrIssuer`, normalized as Apple's client does before every call.
///
/// In `SecItem.m`, a DER SEQUENCE becomes its normalized content, the form the `issr` attribute of
/// a certificate holds, so that an issuer given as the certificate's DN finds it. Anything else
/// (content already normalized) is left as it is.
enum IssuerNormalization {
    /// Replaces a DER distinguished name under `kSecAttrIssuer` by its normalized content.
    static func apply(to values: inout [String: Any]) {
        guard let issuer = values["issr"] as? Data, issuer.first == 0x30,
            let normalized = CertificateAttributes.normalizedNameContent(ofDER: issuer)
        else { return }
        values["issr"] = normalized
    }
}
#endif
