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
import KeychainTesting
import Security
import Testing

/// Functions wrappers call as Apple's Swift overlay imports them from C.
@Suite struct CompatibilityFunctionTests {
    /// KeychainAccess does `CFErrorGetDomain(error) as String`: the implicitly unwrapped result of
    /// Apple's imported signature makes that compile.
    @Test func cfErrorFunctionsHaveApplesSignatures() throws {
        let error =
            NSError(
                domain: NSOSStatusErrorDomain,
                code: Int(errSecItemNotFound),
                userInfo: [NSLocalizedFailureReasonErrorKey: "gone"]
            ) as CFError
        let domain = CFErrorGetDomain(error) as String
        #expect(domain == NSOSStatusErrorDomain)
        #expect(CFErrorGetCode(error) == Int(errSecItemNotFound))
        #expect(CFErrorCopyFailureReason(error) as String? == "gone")
        #expect(CFErrorCopyRecoverySuggestion(error) == nil)
        // No warning for an unused result, as for a function imported from C (in a throw-away
        // keychain: a test never touches the user's own).
        let keychain = try TemporaryKeychain()
        keychain.run {
            SecItemDelete(
                [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "never added"]
                    as CFDictionary
            )
            return ()
        }
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

    /// Linux has no Safari and no associated domains: as on macOS (`SecSharedCredential.c`), the
    /// calls check their arguments and complete with an error on another thread.
    @Test func sharedWebCredentialsCompleteWithApplesErrors() async {
        let added: CFError? = await withCheckedContinuation { done in
            SecAddSharedWebCredential("example.com" as CFString, "me" as CFString, "pw" as CFString) {
                done.resume(returning: $0)
            }
        }
        #expect(added.map(CFErrorGetCode) == Int(errSecUnimplemented))
        #expect(added.map { CFErrorGetDomain($0) as String } == NSOSStatusErrorDomain)
        let empty: CFError? = await withCheckedContinuation { done in
            SecAddSharedWebCredential("" as CFString, "me" as CFString, nil) { done.resume(returning: $0) }
        }
        #expect(empty.map(CFErrorGetCode) == Int(errSecParam))
        let requested: (Bool, Int?) = await withCheckedContinuation { done in
            SecRequestSharedWebCredential("example.com" as CFString, nil) { credentials, error in
                done.resume(returning: (credentials == nil, error.map(CFErrorGetCode)))
            }
        }
        #expect(requested == (true, Int(errSecUnimplemented)))
        let noDomain: Int? = await withCheckedContinuation { done in
            SecRequestSharedWebCredential(nil, nil) { _, error in done.resume(returning: error.map(CFErrorGetCode)) }
        }
        #expect(noDomain == Int(errSecParam))
        #expect((kSecSharedPassword as String) == "spwd")
    }

    /// `xxx-xxx-xxx-xxx` from Safari's alphabet, with a lower-case letter, an upper-case letter and
    /// a digit in every password (`SecSharedCredential.h`).
    @Test func generatedPasswordsHaveSafarisForm() throws {
        let alphabet = Set("abcdefghkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var seen = Set<String>()
        for _ in 0..<200 {
            let password = try #require(SecCreateSharedWebCredentialPassword()) as String
            let groups = password.split(separator: "-", omittingEmptySubsequences: false)
            #expect(groups.count == 4 && groups.allSatisfy { $0.count == 3 }, "\(password)")
            let characters = groups.joined()
            #expect(characters.allSatisfy(alphabet.contains))
            #expect(characters.contains(where: \.isLowercase) && characters.contains(where: \.isUppercase))
            #expect(characters.contains { "3456789".contains($0) })
            seen.insert(password)
        }
        #expect(seen.count == 200)
    }
}
