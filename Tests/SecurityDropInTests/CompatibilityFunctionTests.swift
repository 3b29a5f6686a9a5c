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
import Security
import Testing

/// Functions wrappers call as Apple's Swift overlay imports them from C.
@Suite struct CompatibilityFunctionTests {
    /// KeychainAccess does `CFErrorGetDomain(error) as String`: the implicitly unwrapped result of
    /// Apple's imported signature makes that compile.
    @Test func cfErrorFunctionsHaveApplesSignatures() {
        let error = NSError(domain: NSOSStatusErrorDomain, code: Int(errSecItemNotFound), userInfo: [NSLocalizedFailureReasonErrorKey: "gone"]) as CFError
        let domain = CFErrorGetDomain(error) as String
        #expect(domain == NSOSStatusErrorDomain)
        #expect(CFErrorGetCode(error) == Int(errSecItemNotFound))
        #expect(CFErrorCopyFailureReason(error) as String? == "gone")
        #expect(CFErrorCopyRecoverySuggestion(error) == nil)
        // No warning for an unused result, as for a function imported from C.
        SecItemDelete([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "never added"] as CFDictionary)
    }

    @Test func secRandomCopyBytesFillsTheBuffer() {
        var bytes = [UInt8](repeating: 0, count: 67)
        let status = bytes.withUnsafeMutableBytes { SecRandomCopyBytes(kSecRandomDefault, $0.count, $0.baseAddress!) }
        #expect(status == errSecSuccess)
        // 67 zero bytes from a working generator: about one chance in 2^536.
        #expect(bytes.contains { $0 != 0 })
        var other = [UInt8](repeating: 0, count: 67)
        _ = other.withUnsafeMutableBytes { SecRandomCopyBytes(kSecRandomDefault, $0.count, $0.baseAddress!) }
        #expect(bytes != other)
        // Nothing to write is fine.
        var none: UInt8 = 0
        #expect(SecRandomCopyBytes(kSecRandomDefault, 0, &none) == errSecSuccess)
    }
}
