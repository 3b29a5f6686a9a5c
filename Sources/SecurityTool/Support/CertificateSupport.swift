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

import ArgumentParser
import Crypto
import Foundation
import KeychainCore
import KeychainDevice
import KeychainServices

/// What the certificate commands share: finding certificates, matching, printing, deleting.
enum CertificateCommands {
    /// Every certificate item of the named keychains, in order, with its attributes.
    static func certificates(in keychains: [String]) throws -> [(Device, SecCertificate, [String: Any])] {
        var found: [(Device, SecCertificate, [String: Any])] = []
        for name in try Session.named(keychains, context: "SecKeychainSearchCopyNext") {
            guard let device = try Session.openExisting(home: name, context: "SecKeychainSearchCopyNext") else {
                continue
            }
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnRef as String: true, kSecReturnAttributes as String: true,
                kSecReturnPersistentRef as String: true,
            ]
            let status = try Session.call(device) { SecItemCopyMatching(query as CFDictionary, &result) }
            if status == errSecItemNotFound { continue }
            guard status == errSecSuccess else { throw Session.fail(status, "SecKeychainSearchCopyNext") }
            for item in (result as? [[String: Any]]) ?? [] {
                guard let certificate = item[kSecValueRef as String] as? SecCertificate else { continue }
                found.append((device, certificate, item))
            }
        }
        return found
    }

    /// macOS's matching: `-e` an email address (exactly, the domain in any case), else `-c` a part
    /// of the last common name in any case; with neither, every certificate.
    static func matches(_ certificate: SecCertificate, name: String?, email: String?) -> Bool {
        if let email {
            var addresses: CFArray?
            SecCertificateCopyEmailAddresses(certificate, &addresses)
            return ((addresses as? [String]) ?? []).contains { normalized($0) == normalized(email) }
        }
        guard let name else { return true }
        var commonName: CFString?
        guard SecCertificateCopyCommonName(certificate, &commonName) == errSecSuccess, let commonName else {
            return false
        }
        return (commonName as String).range(of: name, options: [.caseInsensitive]) != nil
    }

    private static func normalized(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return address }
        return String(address[..<at]) + address[at...].lowercased()
    }

    /// The name macOS gives a certificate: its summary, or "X509 Certificate".
    static func label(_ certificate: SecCertificate) -> String {
        SecCertificateCopySubjectSummary(certificate).map { $0 as String } ?? "X509 Certificate"
    }

    static func sha1(_ certificate: SecCertificate) -> Data {
        Data(Insecure.SHA1.hash(data: SecCertificateCopyData(certificate) as Data))
    }

    static func hex(_ data: Data) -> String {
        HexText.encode(data, uppercase: true)
    }

    static func pem(_ certificate: SecCertificate) -> String {
        let base64 = (SecCertificateCopyData(certificate) as Data).base64EncodedString(options: [
            .lineLength64Characters, .endLineWithLineFeed,
        ])
        return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
    }

    /// The attribute block macOS prints for a certificate.
    static func block(_ certificate: SecCertificate, _ attributes: [String: Any], device: Device) -> String {
        var addresses: CFArray?
        SecCertificateCopyEmailAddresses(certificate, &addresses)
        let label = label(certificate)
        var shown = attributes
        shown["alis"] = ((addresses as? [String])?.first) ?? label
        shown["labl"] = label
        shown["ctyp"] = 1  // what macOS's file keychain records for every X.509 certificate
        shown["issr"] = SecCertificateCopyNormalizedIssuerSequence(certificate) as Data?
        shown["subj"] = SecCertificateCopyNormalizedSubjectSequence(certificate) as Data?
        return ItemPrinter.block(itemClass: "cert", attributes: shown, keychainPath: Session.keychainPath(device))
    }

    /// A certificate from DER bytes or the first PEM block of a text file.
    static func certificate(from data: Data) -> SecCertificate? {
        if let text = String(data: data, encoding: .utf8), let begin = text.range(of: "-----BEGIN "),
            let end = text.range(of: "-----END ", range: begin.upperBound..<text.endIndex)
        {
            let body = text[begin.upperBound..<end.lowerBound].split(separator: "\n").dropFirst().joined()
            guard let der = Data(base64Encoded: body.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                return nil
            }
            return SecCertificateCreateWithData(nil, der as CFData)
        }
        return SecCertificateCreateWithData(nil, data as CFData)
    }

    /// Deletes the one certificate `name` or `hash` names (and its private key with `withKey`).
    static func delete(name: String?, hash: String?, keychains: [String], withKey: Bool) throws {
        guard name != nil || hash != nil else { throw ValidationError("give -c name or -Z hash") }
        let wanted = hash?.uppercased().filter { $0.isHexDigit }
        let candidates = try certificates(in: keychains).filter { _, certificate, _ in
            if let wanted {
                let der = SecCertificateCopyData(certificate) as Data
                return wanted == hex(sha1(certificate)) || wanted == hex(Data(SHA256.hash(data: der)))
            }
            return matches(certificate, name: name, email: nil)
        }
        // An exact common name beats a partial one; two different certificates at one level are ambiguous.
        let exact = candidates.filter { _, certificate, _ in
            var commonName: CFString?
            SecCertificateCopyCommonName(certificate, &commonName)
            return (commonName as String?)?.caseInsensitiveCompare(name ?? "") == .orderedSame
        }
        let level = hash != nil ? candidates : (exact.isEmpty ? candidates : exact)
        guard let (device, certificate, attributes) = level.first else {
            FileHandle.standardError.write(Data("Unable to delete certificate matching \"\(name ?? hash ?? "")\"".utf8))
            throw ExitCode(1)
        }
        if Set(level.map { SecCertificateCopyData($0.1) as Data }).count > 1 {
            Terminal.printError("security: \"\(name ?? "")\" is ambiguous, matches more than one certificate")
            throw ExitCode(1)
        }
        if withKey {
            var identity: SecIdentity?
            if SecIdentityCreateWithCertificate(nil, certificate, &identity) == errSecSuccess, let identity {
                var key: SecKey?
                SecIdentityCopyPrivateKey(identity, &key)
                if let key {
                    let status = try Session.call(device) {
                        SecItemDelete([kSecValueRef as String: key] as CFDictionary)
                    }
                    guard status == errSecSuccess else { throw Session.fail(status, "SecKeychainItemDelete") }
                }
            }
        }
        guard let reference = attributes[kSecValuePersistentRef as String] as? Data else {
            throw Session.fail(errSecItemNotFound, "SecKeychainItemDelete")
        }
        let status = try Session.call(device) {
            SecItemDelete([kSecValuePersistentRef as String: reference] as CFDictionary)
        }
        guard status == errSecSuccess else { throw Session.fail(status, "SecKeychainItemDelete") }
    }
}
