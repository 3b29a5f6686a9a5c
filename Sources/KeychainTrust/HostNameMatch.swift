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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Apple's host-name check of a TLS leaf (`SecPolicyLeafCallbacks.c`): the alternative names only
/// — never the common name — with a wildcard only as a whole first label of a name of three labels
/// or more, standing for exactly one label; an IP address only against the IP addresses.
enum HostNameMatch {
    /// Whether the leaf's alternative names include `host`.
    static func leaf(_ leaf: Certificate, names host: String) -> Bool {
        guard let names = try? leaf.extensions.subjectAlternativeNames else { return false }
        if let address = ipAddress(host) {
            return names.contains { name in
                if case .ipAddress(let bytes) = name { return Array(bytes.bytes) == address }
                return false
            }
        }
        let wanted = labels(host)
        guard !wanted.isEmpty, !wanted.contains(where: \.isEmpty) else { return false }
        return names.contains { name in
            guard case .dnsName(let dnsName) = name else { return false }
            return matches(pattern: labels(dnsName), wanted)
        }
    }

    /// The lower-cased labels of a name, without a final dot.
    private static func labels(_ name: String) -> [Substring] {
        var name = name.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        return name.split(separator: ".", omittingEmptySubsequences: false)
    }

    private static func matches(pattern: [Substring], _ host: [Substring]) -> Bool {
        guard pattern.count == host.count, !pattern.contains(where: \.isEmpty) else { return false }
        guard pattern[0] == "*" else { return pattern == host }
        // "*.example.com": one whole label, and not "*.com"; no other label may hold a wildcard.
        guard pattern.count >= 3, !pattern.dropFirst().contains(where: { $0.contains("*") }) else { return false }
        return pattern.dropFirst() == host.dropFirst()
    }

    /// The bytes of an IPv4 or IPv6 address, or `nil` when `text` is neither.
    private static func ipAddress(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
