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
import Foundation
import KeychainCrypto
import KeychainDevice
import KeychainServices

/// `export [-k keychain] [-t type] [-f format] [-p] [-P passphrase] [-o outfile]`: certificates as
/// DER or PEM, identities as a PKCS #12 file (what OpenSSL 3 writes: PBES2 with AES-256-CBC, a
/// SHA-256 MAC).
struct ExportItems: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Export items from a keychain.")

    @Option(name: .customShort("k"), help: "The keychain (default: the default keychain).") var keychain: String?
    @Option(name: .customShort("t"), help: "The items: certs, identities or all (default).") var type = "all"
    @Option(name: .customShort("f"), help: "The format: x509, pemseq or pkcs12 (default: by the items).") var format:
        String?
    @Flag(name: .customShort("p"), help: "PEM armour (x509).") var pem = false
    @Option(name: .customShort("P"), help: "The passphrase of a PKCS #12 file.") var passphrase: String?
    @Option(name: .customShort("o"), help: "The file to write (default: standard output).") var output: String?

    func run() throws {
        guard ["certs", "identities", "all"].contains(type) else {
            throw ValidationError("unsupported -t \(type): use certs, identities or all")
        }
        let device = try Session.open(home: keychain)
        var identities: [SecIdentity] = []
        if type != "certs" {
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassIdentity, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnRef as String: true,
            ]
            let status = try Session.call(device) { SecItemCopyMatching(query as CFDictionary, &result) }
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw Session.fail(status, "SecKeychainItemExport")
            }
            identities = (result as? [SecIdentity]) ?? []
        }
        let certificates =
            type == "identities" ? [] : try CertificateCommands.certificates(in: keychain.map { [$0] } ?? []).map(\.1)
        let chosen =
            format
            ?? (type == "identities" || (type == "all" && !identities.isEmpty)
                ? "pkcs12" : certificates.count == 1 ? "x509" : "pemseq")
        let data: Data
        switch chosen {
        case "pkcs12":
            guard let passphrase else { throw ValidationError("a PKCS #12 export needs -P passphrase") }
            data = try Self.pkcs12(identities, certificates: certificates, passphrase: passphrase)
        case "x509":
            guard certificates.count == 1, let certificate = certificates.first else {
                throw Session.fail(errSecParam, "SecKeychainItemExport")
            }
            data = pem ? Data(CertificateCommands.pem(certificate).utf8) : SecCertificateCopyData(certificate) as Data
        case "pemseq":
            guard !certificates.isEmpty else { throw Session.fail(errSecParam, "SecKeychainItemExport") }
            data = Data(certificates.map(CertificateCommands.pem).joined().utf8)
        default:
            throw ValidationError("unsupported -f \(chosen): use x509, pemseq or pkcs12")
        }
        try EnclaveKeyCommands.write(data, to: output)
        if let output { Terminal.printError("...\(data.count) bytes written to \(output)") }
    }

    private static func pkcs12(
        _ identities: [SecIdentity],
        certificates: [SecCertificate],
        passphrase: String
    ) throws -> Data {
        guard !identities.isEmpty else { throw Session.fail(errSecItemNotFound, "SecKeychainItemExport") }
        var entries: [PKCS12.Identity] = []
        for identity in identities {
            var certificate: SecCertificate?
            var key: SecKey?
            SecIdentityCopyCertificate(identity, &certificate)
            SecIdentityCopyPrivateKey(identity, &key)
            guard let certificate, let pkcs8 = key?.pkcs8Representation else {
                // A Secure Enclave key never leaves the keychain's engine.
                throw Session.fail(errSecUnimplemented, "SecKeychainItemExport")
            }
            entries.append(
                PKCS12.Identity(
                    certificate: SecCertificateCopyData(certificate) as Data,
                    privateKeyPKCS8: pkcs8,
                    friendlyName: SecCertificateCopySubjectSummary(certificate).map { $0 as String }
                )
            )
        }
        do {
            return try PKCS12.file(
                identities: entries,
                certificates: certificates.map { SecCertificateCopyData($0) as Data },
                password: passphrase
            )
        } catch {
            throw Session.fail(errSecParam, "SecKeychainItemExport")
        }
    }
}
