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
import KeychainCore
import SwiftASN1

/// A certificate's validity period (for the `security` tool, which has no trust evaluation).
package struct CertificateValidity: Sendable {
    package let notBefore: Date
    package let notAfter: Date

    package init?(_ certificate: SecCertificate) {
        guard let times = certificate.parsed?.validity, times.count == 2,
            let notBefore = Self.date(times[0]), let notAfter = Self.date(times[1])
        else { return nil }
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    private static func date(_ node: ASN1Node) -> Date? {
        var components = DateComponents()
        components.timeZone = TimeZone(identifier: "UTC")
        if let time = try? UTCTime(derEncoded: node) {
            (components.year, components.month, components.day) = (time.year, time.month, time.day)
            (components.hour, components.minute, components.second) = (time.hours, time.minutes, time.seconds)
        } else if let time = try? GeneralizedTime(derEncoded: node) {
            (components.year, components.month, components.day) = (time.year, time.month, time.day)
            (components.hour, components.minute, components.second) = (time.hours, time.minutes, time.seconds)
        } else {
            return nil
        }
        return Calendar(identifier: .gregorian).date(from: components)
    }
}
#endif
