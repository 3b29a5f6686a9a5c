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

import Foundation
import SwiftASN1
import X509

/// The distribution's trusted roots, read once, when a trust first needs them.
enum SystemAnchors {
    /// Where distributions keep the bundle of trusted roots (Debian's `ca-certificates` first).
    static let bundlePaths = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"]

    /// The roots of the first bundle found; none when there is none.
    ///
    /// A certificate that cannot be read is left out, not the bundle.
    static let certificates: [Certificate] = {
        for path in bundlePaths {
            guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            guard let documents = try? PEMDocument.parseMultiple(pemString: contents) else { continue }
            return documents.compactMap { try? Certificate(pemDocument: $0) }
        }
        return []
    }()
}
