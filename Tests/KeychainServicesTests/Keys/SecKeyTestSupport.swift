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
import Testing

/// Helpers for the `SecKey` suites: keys made through the public API, and the `CFError` a call
/// reported, as a caller on Apple platforms reads them.
enum SecKeyTestSupport {
    static func makePrivateKey(bits: Int = 256) throws -> SecKey {
        var error: Unmanaged<CFError>?
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: bits,
        ]
        let key = SecKeyCreateRandomKey(attributes as CFDictionary, &error)
        #expect(error == nil)
        return try #require(key)
    }

    /// Runs a call that takes Apple's error out-parameter; returns its result and the error's code
    /// and description.
    static func capture<T>(
        _ body: (UnsafeMutablePointer<Unmanaged<CFError>?>) -> T
    ) -> (result: T, code: Int?, description: String?) {
        var error: Unmanaged<CFError>?
        let result = body(&error)
        guard let error = error?.takeRetainedValue() else { return (result, nil, nil) }
        #expect(CFErrorGetDomain(error) as String == NSOSStatusErrorDomain)
        return (result, CFErrorGetCode(error), CFErrorCopyDescription(error) as String)
    }

    static func data(hex: String) -> Data {
        var bytes = [UInt8]()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return Data(bytes)
    }

    static func externalRepresentation(_ key: SecKey) throws -> Data {
        try #require(SecKeyCopyExternalRepresentation(key, nil) as Data?)
    }
}
