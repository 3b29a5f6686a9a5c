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

/// The attributes a key is made or restored with, read as Apple reads them: strings or numbers
/// where Apple accepts either, private-key attributes in `kSecPrivateKeyAttrs` or at the top level.
struct KeyParameters {
    let values: [String: Any]

    init(_ dictionary: CFDictionary) {
        values = (dictionary as? [String: Any]) ?? [:]
    }

    /// A string attribute.
    func string(_ key: CFString) -> String? {
        values[key as String] as? String
    }

    /// An integer attribute, given as a number or as a string of digits (`kSecAttrKeySizeInBits`,
    /// and for `SecKeyCreateWithData` the key type and class).
    func integer(_ key: CFString) -> Int? {
        switch values[key as String] {
        case let string as String: Int(string)
        case let number as NSNumber: number.intValue
        default: nil
        }
    }

}
#endif
