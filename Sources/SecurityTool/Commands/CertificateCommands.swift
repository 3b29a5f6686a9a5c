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
import KeychainDevice
import KeychainServices

/// `find-certificate`, as macOS's: `-c` matches the certificate's last common name (any case,
/// a part of it), `-e` an email address; without `-p` the attribute block, `-Z` hashes, `-m` the
/// email addresses.
struct FindCertificate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-certificate",
        abstract: "Find a certificate item."
    )

    @Flag(name: .customShort("a"), help: "Find all matching certificates, not just the first one.") var all = false
    @Option(name: .customShort("c"), help: "Match on \"name\" when searching (optional).") var name: String?
    @Option(name: .customShort("e"), help: "Match on \"emailAddress\" when searching (optional).") var email: String?
    @Flag(name: .customShort("m"), help: "Show the email addresses in the certificate.") var showEmails = false
    @Flag(name: .customShort("p"), help: "Output certificate in pem format.") var pem = false
    @Flag(name: .customShort("Z"), help: "Print SHA-256 (and SHA-1) hash of the certificate.") var hashes = false
    @Argument(
        help: ArgumentHelp(
            "Existing keychains to search, in order (default: the default keychain).",
            valueName: "keychain"
        )
    )
    var keychains: [String] = []

    func run() throws {
        var found = 0
        for (device, certificate, attributes) in try CertificateCommands.certificates(in: keychains) {
            guard CertificateCommands.matches(certificate, name: email == nil ? name : nil, email: email) else {
                continue
            }
            var output = ""
            if hashes {
                output +=
                    "SHA-256 hash: \(CertificateCommands.hex(Data(SHA256.hash(data: SecCertificateCopyData(certificate) as Data))))\n"
                output += "SHA-1 hash: \(CertificateCommands.hex(CertificateCommands.sha1(certificate)))\n"
            }
            if showEmails {
                var addresses: CFArray?
                SecCertificateCopyEmailAddresses(certificate, &addresses)
                output += "email addresses: \(((addresses as? [String]) ?? []).joined(separator: ", "))\n"
            }
            output +=
                pem
                ? CertificateCommands.pem(certificate)
                : CertificateCommands.block(certificate, attributes, device: device)
            print(output, terminator: "")
            found += 1
            if !all { return }
        }
        if found == 0 && !all { throw Session.fail(errSecItemNotFound, "SecKeychainSearchCopyNext") }
    }
}

/// `find-identity`: the identities (certificates with their private key) and which are valid: whose
/// chain is trusted now for the policy (`-s` names the host or address), as on macOS.
struct FindIdentity: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-identity",
        abstract: "Find an identity (certificate + private key)."
    )

    @Option(name: .customShort("p"), help: "Specify policy to evaluate (multiple -p options are allowed).")
    var policies: [String] = []
    @Option(name: .customShort("s"), help: "Specify optional policy-specific string.") var string: String?
    @Flag(name: .customShort("v"), help: "Show valid identities only (default is to show all identities).")
    var validOnly = false
    @Argument(
        help: ArgumentHelp("Existing keychains to search (default: the default keychain).", valueName: "keychain")
    )
    var keychains: [String] = []

    static let policyNames: [(String, String)] = [
        ("ssl-client", "SSL (client)"), ("ssl-server", "SSL (server)"), ("smime", "S/MIME"), ("eap", "EAP"),
        ("ipsec", "IPsec"),
        ("ichat", "iChat"), ("codesigning", "Code Signing"), ("basic", "X.509 Basic"), ("appleID", "AppleID Sharing"),
        ("macappstore", "Mac App Store Receipt"),
    ]

    func run() throws {
        for policy in policies where !Self.policyNames.contains(where: { $0.0 == policy }) {
            throw ValidationError("unknown policy \(policy)")
        }
        var identities: [SecCertificate] = []
        for name in try Session.named(keychains, context: "SecKeychainSearchCopyNext") {
            guard let device = try Session.openExisting(home: name, context: "SecKeychainSearchCopyNext") else {
                continue
            }
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassIdentity, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnRef as String: true,
            ]
            let status = try Session.call(device) { SecItemCopyMatching(query as CFDictionary, &result) }
            guard status == errSecSuccess else { continue }
            for identity in (result as? [SecIdentity]) ?? [] {
                var certificate: SecCertificate?
                SecIdentityCopyCertificate(identity, &certificate)
                if let certificate { identities.append(certificate) }
            }
        }
        var output = string.map { "Looking for identities matching \"\($0)\"\n" } ?? ""
        let chosen = policies.isEmpty ? ["basic"] : policies
        for (policy, display) in Self.policyNames where chosen.contains(policy) {
            let valid = identities.filter { Self.isValid($0, policy: policy, string: string) }
            if !validOnly {
                output += "\nPolicy: \(display)\n  Matching identities\n"
                output +=
                    Self.lines(identities) + "     \(identities.count) identities found\n\n  Valid identities only\n"
            }
            output += Self.lines(valid) + "     \(valid.count) valid identities found\n"
        }
        print(output, terminator: "")
    }

    /// Whether the certificate's chain is trusted for `policy` now (the keychain's certificates and
    /// the user's trusted ones take part), as macOS's `-v` asks.
    private static func isValid(_ certificate: SecCertificate, policy: String, string: String?) -> Bool {
        let made: SecPolicy?
        switch policy {
        case "ssl-client": made = SecPolicyCreateSSL(false, string as CFString?)
        case "ssl-server": made = SecPolicyCreateSSL(true, string as CFString?)
        case "smime": made = TrustCommands.policy("smime", client: false, policyName: string)
        case "eap": made = TrustCommands.policy("eap", client: false, policyName: string)
        case "ipsec": made = TrustCommands.policy("IPSec", client: false, policyName: string)
        case "codesigning": made = SecPolicyCreateWithProperties(kSecPolicyAppleCodeSigning, nil)
        case "basic": made = SecPolicyCreateBasicX509()
        default: made = nil  // Apple's own policies need Apple's roots
        }
        guard let made else { return false }
        var trust: SecTrust?
        guard SecTrustCreateWithCertificates(certificate, made, &trust) == errSecSuccess, let trust else {
            return false
        }
        return SecTrustEvaluateWithError(trust, nil)
    }

    private static func lines(_ certificates: [SecCertificate]) -> String {
        certificates.enumerated().map { index, certificate in
            let ordinal = String(index + 1)
            let name = CertificateCommands.label(certificate)
            return String(repeating: " ", count: max(0, 3 - ordinal.count)) + "\(ordinal)) "
                + "\(CertificateCommands.hex(CertificateCommands.sha1(certificate))) \"\(name.isEmpty ? "<unknown>" : name)\"\n"
        }.joined()
    }
}

/// `add-certificates [-k keychain] file...`: DER or PEM files, one certificate each.
struct AddCertificates: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-certificates",
        abstract: "Add certificates to a keychain."
    )

    @Option(name: .customShort("k"), help: "The keychain (default: the default keychain).") var keychain: String?
    @Argument(help: ArgumentHelp("DER or PEM certificate files.", valueName: "file")) var files: [String]

    func run() throws {
        let device = try Session.open(home: keychain)
        var failed = false
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                print("***Error reading file \(file)")
                failed = true
                continue
            }
            guard let certificate = CertificateCommands.certificate(from: data) else {
                Terminal.printError("SecCertificateCreateFromData: Unknown format in import.")
                failed = true
                continue
            }
            let status = try Session.call(device) {
                SecItemAdd([kSecValueRef as String: certificate] as CFDictionary, nil)
            }
            if status == errSecDuplicateItem {
                Terminal.printError("security: \(file): already in \(keychain ?? "default keychain")")
                failed = true
            } else if status != errSecSuccess {
                _ = Session.fail(status, "SecCertificateAddToKeychain")
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}

/// `delete-certificate [-c name] [-Z hash] [keychain...]`, and `delete-identity`, which also
/// deletes the private key.
struct DeleteCertificate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-certificate",
        abstract: "Delete a certificate from a keychain."
    )

    @Option(name: .customShort("c"), help: "Specify certificate to delete by its common name.") var name: String?
    @Option(name: .customShort("Z"), help: "Specify certificate to delete by its SHA-256 (or SHA-1) hash value.")
    var hash: String?
    @Flag(name: .customShort("t"), help: "Also delete user trust settings for this certificate (none on Linux).")
    var trust = false
    @Argument(help: ArgumentHelp("Existing keychains (default: the default keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func run() throws {
        try CertificateCommands.delete(name: name, hash: hash, keychains: keychains, withKey: false)
    }
}

struct DeleteIdentity: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-identity",
        abstract: "Delete a certificate and its private key from a keychain."
    )

    @Option(name: .customShort("c"), help: "Specify certificate to delete by its common name.") var name: String?
    @Option(name: .customShort("Z"), help: "Specify certificate to delete by its SHA-256 (or SHA-1) hash value.")
    var hash: String?
    @Flag(
        name: .customShort("t"),
        help: "Also delete user trust settings for this identity certificate (none on Linux)."
    ) var trust = false
    @Argument(help: ArgumentHelp("Existing keychains (default: the default keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func run() throws {
        try CertificateCommands.delete(name: name, hash: hash, keychains: keychains, withKey: true)
    }
}

/// `import file [-k keychain] [-P passphrase] [-f format] [-t type]`: a PKCS #12 file (identities
/// and certificates) or a certificate (DER or PEM).
struct ImportItems: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Import items into a keychain.")

    @Argument(help: "The file to import.") var file: String
    @Option(name: .customShort("k"), help: "The keychain (default: the default keychain).") var keychain: String?
    @Option(name: .customShort("P"), help: "The passphrase of a PKCS #12 file.") var passphrase: String?
    @Option(name: .customShort("f"), help: "The format: pkcs12 or x509 (default: from the contents).") var format:
        String?
    @Option(name: .customShort("t"), help: "The type: cert or agg (ignored).") var type: String?

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            Terminal.printError("security: SecKeychainItemImport: The specified file could not be read.")
            throw ExitCode(1)
        }
        let device = try Session.open(home: keychain)
        var certificates: [SecCertificate] = []
        var identities: [SecIdentity] = []
        if format != "pkcs12", let certificate = CertificateCommands.certificate(from: data) {
            certificates = [certificate]
        } else if format != "x509" {
            var items: CFArray?
            let status = SecPKCS12Import(
                data as CFData,
                [kSecImportExportPassphrase as String: passphrase ?? ""] as CFDictionary,
                &items
            )
            guard status == errSecSuccess else {
                Terminal.printError(
                    "security: SecKeychainItemImport: \(SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)")"
                )
                throw ExitCode(1)
            }
            for item in (items as? [[String: Any]]) ?? [] {
                guard let identity = item[kSecImportItemIdentity as String] as? SecIdentity else { continue }
                identities.append(identity)
                let chain = (item[kSecImportItemCertChain as String] as? [SecCertificate]) ?? []
                certificates += chain.dropFirst().filter { !certificates.contains($0) }
            }
        } else {
            Terminal.printError("security: SecKeychainItemImport: Unknown format in import.")
            throw ExitCode(1)
        }
        for identity in identities {
            let status = try Session.call(device) {
                SecItemAdd([kSecValueRef as String: identity] as CFDictionary, nil)
            }
            guard status == errSecSuccess || status == errSecDuplicateItem else {
                throw Session.fail(status, "SecKeychainItemImport")
            }
        }
        for certificate in certificates {
            let status = try Session.call(device) {
                SecItemAdd([kSecValueRef as String: certificate] as CFDictionary, nil)
            }
            guard status == errSecSuccess || status == errSecDuplicateItem else {
                throw Session.fail(status, "SecKeychainItemImport")
            }
        }
        if !identities.isEmpty {
            print("\(identities.count) \(identities.count == 1 ? "identity" : "identities") imported.")
        }
        if !certificates.isEmpty {
            print("\(certificates.count) \(certificates.count == 1 ? "certificate" : "certificates") imported.")
        }
    }
}
