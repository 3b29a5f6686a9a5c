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
import KeychainServices
import KeychainTesting

/// Random values of every type a query dictionary can hold, biased towards the ones that reach
/// deep into the engine: constants, booleans, numbers at the edges, odd strings, large data, nesting.
struct HostileValues {
    var generator: SplitMix64

    mutating func chance(_ percent: UInt64) -> Bool { generator.next() % 100 < percent }

    mutating func pick<T>(_ options: [T]) -> T { options[Int(generator.next() % UInt64(options.count))] }

    mutating func below(_ limit: Int) -> Int { Int(generator.next() % UInt64(max(1, limit))) }

    /// A query key: mostly a real one, sometimes a random string.
    mutating func key() -> String {
        chance(92) ? pick(FuzzVocabulary.keys) as String : string()
    }

    mutating func value(depth: Int = 0) -> Any {
        switch below(depth > 2 ? 9 : 12) {
        case 0, 1: return pick(FuzzVocabulary.values)
        case 2: return chance(50) ? kCFBooleanTrue as Any : kCFBooleanFalse as Any
        case 3: return number()
        case 4, 5: return string()
        case 6: return data()
        case 7: return Date(timeIntervalSince1970: Double(Int64(bitPattern: generator.next() % (1 << 40))) - 1e11)
        case 8: return accessControl() ?? NSNull()
        case 9: return (0..<below(4)).map { _ in value(depth: depth + 1) }
        case 10: return dictionary(depth: depth + 1)
        default: return NSNull()
        }
    }

    mutating func dictionary(depth: Int = 0) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        for _ in 0..<below(6) { dictionary[key()] = value(depth: depth) }
        return dictionary
    }

    mutating func number() -> NSNumber {
        switch below(6) {
        case 0: return NSNumber(value: Int64(bitPattern: generator.next()))
        case 1: return NSNumber(value: pick([0, 1, -1, Int64.max, Int64.min, Int64(Int32.max), 1 << 32]))
        case 2: return NSNumber(value: pick([Double.nan, .infinity, -.infinity, 0.5, -0.0, 1e308]))
        case 3: return NSNumber(value: UInt64.max)
        case 4: return NSNumber(value: below(1_000))
        default: return NSNumber(value: UInt32(truncatingIfNeeded: generator.next()))
        }
    }

    mutating func string() -> String {
        switch below(8) {
        case 0: return ""
        case 1: return pick(FuzzVocabulary.keys + FuzzVocabulary.values) as String
        case 2: return String(repeating: "A", count: pick([255, 256, 4_096, 70_000]))
        case 3: return pick(["\u{0}", "é", "😀", "\u{FEFF}", "a\u{0}b", "%@%n", "'; DROP TABLE genp; --", "\u{202E}"])
        case 4: return "account-\(below(8))"
        case 5: return "service-\(below(4))"
        default:
            let scalars = (0..<below(24)).compactMap { _ in Unicode.Scalar(UInt32(generator.next() % 0x11_0000)) }
            return String(String.UnicodeScalarView(scalars))
        }
    }

    mutating func data() -> Data {
        let length = chance(2) ? pick([65_536, 1 << 20]) : below(300)
        var bytes = [UInt8](repeating: 0, count: length)
        for index in stride(from: 0, to: length, by: 8) {
            withUnsafeBytes(of: generator.next()) { word in
                for offset in 0..<min(8, length - index) { bytes[index + offset] = word[offset] }
            }
        }
        return Data(bytes)
    }

    /// A valid access control object, or `nil` when the random flags are refused.
    mutating func accessControl() -> SecAccessControl? {
        let flags = SecAccessControlCreateFlags(rawValue: flagBits())
        return SecAccessControlCreateWithFlags(nil, pick(FuzzVocabulary.values), flags, nil)
    }

    /// Flag bits: mostly combinations of real flags, sometimes any bits.
    mutating func flagBits() -> CFOptionFlags {
        if chance(10) { return CFOptionFlags(truncatingIfNeeded: generator.next()) }
        let real: [CFOptionFlags] = [1 << 0, 1 << 1, 1 << 3, 1 << 4, 1 << 14, 1 << 15, 1 << 30, 1 << 31]
        return (0..<below(4)).reduce(0) { bits, _ in bits | pick(real) }
    }
}
