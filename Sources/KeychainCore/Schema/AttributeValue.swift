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

/// A stored attribute value, kept in the type the caller gave so it comes back the same way.
package enum AttributeValue: Hashable, Sendable, Codable {
    case string(String)
    case data(Data)
    case number(Int64)
    case bool(Bool)
    case date(Date)

    /// The reference date that Apple's store uses as "no date".
    package static let zeroDate = Date(timeIntervalSinceReferenceDate: 0)

    /// The default of a primary-key attribute that an item does not set: `""`, empty data, zero or the zero date.
    package static func defaultValue(for kind: AttributeDescriptor.Kind) -> AttributeValue {
        switch kind {
        case .blob, .string: .string("")
        case .data: .data(Data())
        case .number: .number(0)
        case .bool: .bool(false)
        case .date: .date(zeroDate)
        }
    }
}

extension AttributeValue {
    /// Converts a caller's value for an attribute of `kind` as Apple's store does, or `nil` when it cannot.
    ///
    /// Blobs keep strings, data and numbers as given. Strings accept UTF-8 data. Data accepts strings
    /// (as UTF-8). Numbers accept Booleans, and strings that are canonical integers ("42"); other
    /// strings ("htps") stay strings. Dates accept only dates.
    package init?(_ value: Any, kind: AttributeDescriptor.Kind) {
        switch kind {
        case .blob:
            if let string = value as? String {
                self = .string(string)
            } else if let data = value as? Data {
                self = .data(data)
            } else if let number = Self.integer(value) {
                self = .number(number)
            } else {
                return nil
            }
        case .string:
            if let string = value as? String {
                self = .string(string)
            } else if let data = value as? Data, let string = String(data: data, encoding: .utf8) {
                self = .string(string)
            } else {
                return nil
            }
        case .data:
            if let data = value as? Data {
                self = .data(data)
            } else if let string = value as? String {
                self = .data(Data(string.utf8))
            } else {
                return nil
            }
        case .number:
            if let string = value as? String {
                if let number = Int64(string), String(number) == string {
                    self = .number(number)
                } else {
                    self = .string(string)
                }
            } else if let number = Self.integer(value) {
                self = .number(number)
            } else {
                return nil
            }
        case .bool:
            if value is String || value is Data {
                return nil
            } else if let number = Self.integer(value) {
                self = .bool(number != 0)
            } else {
                return nil
            }
        case .date:
            guard let date = value as? Date else { return nil }
            self = .date(date)
        }
    }

    /// The value as the bytes that identify it: what is hashed into the look-up columns and compared in matches.
    ///
    /// A string and data with the same bytes are equal (as in Apple's hashed columns); a number and a
    /// string never are.
    package func canonicalBytes(for kind: AttributeDescriptor.Kind) -> [UInt8] {
        switch self {
        case .string(let string):
            return kind == .number ? [0x73] + Array(string.utf8) : Array(string.utf8)
        case .data(let data):
            return Array(data)
        case .number(let number):
            return kind == .number || kind == .bool ? Self.bigEndian(number) : Array(String(number).utf8)
        case .bool(let bool):
            return Self.bigEndian(bool ? 1 : 0)
        case .date(let date):
            return Self.bigEndian(Int64(bitPattern: date.timeIntervalSinceReferenceDate.bitPattern))
        }
    }

    /// The value as Foundation hands it back to callers (`String`, `Data`, `NSNumber`, `Date`).
    package var foundationValue: Any {
        switch self {
        case .string(let string): string
        case .data(let data): data
        case .number(let number): NSNumber(value: number)
        case .bool(let bool): NSNumber(value: bool)
        case .date(let date): date
        }
    }

    // MARK: Private

    private static func integer(_ value: Any) -> Int64? {
        if value is String || value is Data || value is Date { return nil }
        if let int = value as? Int { return Int64(int) }
        if let number = value as? NSNumber {
            let double = number.doubleValue
            guard double.rounded() == double, abs(double) < 9.2e18 else { return nil }
            return number.int64Value
        }
        return nil
    }

    private static func bigEndian(_ number: Int64) -> [UInt8] {
        withUnsafeBytes(of: number.bigEndian) { Array($0) }
    }
}
