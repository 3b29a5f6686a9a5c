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
import KeychainDevice
import KeychainServices

/// What `verify-cert`, `add-trusted-cert` and `remove-trusted-cert` share: macOS's policy names,
/// certificate files, and the legacy status names `verify-cert` prints.
enum TrustCommands {
    /// The policy `-p` names (macOS's `verify-cert` and `add-trusted-cert` names), or `nil` when it
    /// names none available on Linux.
    static func policy(_ name: String, client: Bool, policyName: String?) -> SecPolicy? {
        let identifiers: [String: CFString] = [
            "basic": kSecPolicyAppleX509Basic, "ssl": kSecPolicyAppleSSL, "smime": kSecPolicyAppleSMIME,
            "codeSign": kSecPolicyAppleCodeSigning, "IPSec": kSecPolicyAppleIPsec, "eap": kSecPolicyAppleEAP,
            "timestamping": kSecPolicyAppleTimeStamping, "revocation": kSecPolicyAppleRevocation,
        ]
        let identifier = identifiers[name] ?? (name as CFString)
        var properties: [String: Any] = [:]
        if let policyName { properties[kSecPolicyName as String] = policyName }
        if client { properties[kSecPolicyClient as String] = true }
        return SecPolicyCreateWithProperties(identifier, properties as CFDictionary)
    }

    /// The certificate in a PEM or DER file, or `nil` (having said so) when it cannot be read.
    static func certificate(at path: String) -> SecCertificate? {
        guard let data = FileManager.default.contents(atPath: path) else {
            Terminal.printError("***Error reading file \(path)")
            return nil
        }
        guard let certificate = CertificateCommands.certificate(from: data) else {
            Terminal.printError("***Error reading certificate from file \(path)")
            return nil
        }
        return certificate
    }

    /// The certificate a trust-settings command names: a usage error (2) when it names none, a
    /// failure (1) when the file cannot be read.
    static func certificate(argument file: String?) throws -> SecCertificate {
        guard let file else {
            Terminal.printError("No cert file specified.")
            throw ExitCode(2)
        }
        guard let certificate = certificate(at: file) else { throw ExitCode(1) }
        return certificate
    }

    /// The legacy (CSSM) status `verify-cert` reports for a check, and its rank: the lowest rank is
    /// reported, nearest the leaf on a tie (macOS's `SecTrustGetCssmResultCode`).
    static let legacyResults: [String: (name: String, rank: Int)] = [
        "BasicConstraints": ("CSSMERR_APPLETP_NO_BASIC_CONSTRAINTS", 2),
        "CriticalExtensions": ("CSSMERR_APPLETP_UNKNOWN_CRITICAL_EXTEN", 2),
        "BasicCertificateProcessing": ("CSSMERR_TP_INVALID_CERTIFICATE", 2),
        "NameConstraints": ("CSSMERR_TP_INVALID_CERTIFICATE", 2),
        "TemporalValidity": ("CSSMERR_TP_CERT_EXPIRED", 3),
        "AnchorTrusted": ("CSSMERR_TP_NOT_TRUSTED", 4),
        "MissingIntermediate": ("CSSMERR_TP_NOT_TRUSTED", 4),
        "BasicConstraintsCA": ("CSSMERR_APPLETP_INVALID_CA", 5),
        "BasicConstraintsPathLen": ("CSSMERR_APPLETP_PATH_LEN_CONSTRAINT", 5),
        "SSLHostname": ("CSSMERR_APPLETP_HOSTNAME_MISMATCH", 5),
        "Email": ("CSSMERR_APPLETP_SMIME_EMAIL_ADDRS_NOT_FOUND", 5),
        "KeyUsage": ("CSSMERR_APPLETP_INVALID_KEY_USAGE", 5),
        "ExtendedKeyUsage": ("CSSMERR_APPLETP_INVALID_EXTENDED_KEY_USAGE", 5),
    ]

    /// The legacy status of an evaluated trust's failures (from `SecTrustCopyResult`'s details).
    static func legacyResult(of trust: SecTrust) -> String {
        let details =
            (SecTrustCopyResult(trust) as? [String: Any])?[kSecTrustResultDetails as String] as? [[String: Any]]
        var best: (name: String, rank: Int)?
        for checks in details ?? [] {
            for key in checks.keys.sorted() {
                let result = legacyResults[key] ?? ("CSSMERR_TP_VERIFY_ACTION_FAILED", 5)
                if best.map({ result.rank < $0.rank }) ?? true { best = result }
            }
        }
        return best?.name ?? "CSSMERR_TP_NOT_TRUSTED"
    }
}

/// `verify-cert`, as macOS's: builds and evaluates a chain, prints `...certificate verification
/// successful.` and exits 0, or prints `Cert Verify Result: <legacy status>` and exits 1.
struct VerifyCert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-cert",
        abstract: "Verify certificate(s)."
    )

    @Option(name: .customShort("c"), help: "Certificate to verify, in DER or PEM format; leaf first, may be repeated.")
    var certificates: [String] = []
    @Option(name: .customShort("r"), help: "Root certificate, in DER or PEM format; may be repeated.")
    var roots: [String] = []
    @Option(name: .customShort("p"), help: "Verify policy (basic, ssl, smime, codeSign, IPSec, eap, timestamping).")
    var policy = "basic"
    @Flag(name: .customShort("C"), help: "Set client policy (ssl, IPSec, eap).") var client = false
    @Option(name: .customShort("d"), help: "Date to verify on: YYYY-MM-DD-hh:mm:ss or YYYY-MM-DD, in GMT.")
    var date: String?
    @Option(name: .customShort("k"), help: "Keychain whose certificates help build the chain.") var keychain: String?
    @Option(name: .customShort("n"), help: "Name for the policy: host name for ssl and IPSec, e-mail for smime.")
    var name: String?
    @Option(name: .customShort("s"), help: "SSL host name (deprecated; use -n).") var host: String?
    @Option(name: .customShort("e"), help: "E-mail address for smime (deprecated; use -n).") var email: String?
    @Flag(name: .customShort("N"), help: "Avoid using the keychain search list.") var noKeychains = false
    @Flag(name: .customShort("L"), help: "Local certificates only (nothing is fetched on Linux).") var localOnly = false
    @Flag(name: .customShort("l"), help: "Leaf certificate is a CA (ignored, as on macOS).") var leafIsCA = false
    @Flag(name: .customShort("q"), help: "Quiet: print nothing.") var quiet = false
    @Flag(name: .customShort("v"), help: "Verbose: print the chain and each certificate's errors.") var verbose = false
    @Flag(name: .customShort("P"), help: "Print the chain in PEM format.") var printPEM = false

    func run() throws {
        var certificates = self.certificates.compactMap(TrustCommands.certificate(at:))
        let roots = self.roots.compactMap(TrustCommands.certificate(at:))
        guard certificates.count == self.certificates.count, roots.count == self.roots.count else { throw ExitCode(1) }
        if certificates.isEmpty {
            guard !roots.isEmpty else { return try usage("***No certs specified.") }
            guard roots.count == 1 else { return try usage("***Multiple roots and no certs not allowed.") }
            certificates = roots
        }
        guard let policy = TrustCommands.policy(policy, client: client, policyName: name ?? host ?? email) else {
            return try usage("***unknown policy spec (\(policy))")
        }
        var verifyDate: Date?
        if let date {
            guard let parsed = Self.date(date) else { return try usage("Date processing error") }
            verifyDate = parsed
        }
        if !noKeychains { _ = try Session.openExisting(home: keychain, context: "SecTrustSetKeychains") }
        var made: SecTrust?
        let status = SecTrustCreateWithCertificates(certificates as CFArray, policy, &made)
        guard status == errSecSuccess, let trust = made else {
            throw Session.fail(status, "SecTrustCreateWithCertificates")
        }
        if !roots.isEmpty { SecTrustSetAnchorCertificates(trust, roots as CFArray) }
        if noKeychains { SecTrustSetKeychainsAllowed(trust, false) }
        if let verifyDate { SecTrustSetVerifyDate(trust, verifyDate as CFDate) }
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(trust, &error)
        if verbose, !quiet { print(Self.report(trust, error: error), terminator: "") }
        if printPEM, !quiet {
            for certificate in (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? [] {
                print(CertificateCommands.pem(certificate), terminator: "")
            }
        }
        guard trusted else {
            if !quiet { Terminal.printError("Cert Verify Result: \(TrustCommands.legacyResult(of: trust))") }
            throw ExitCode(1)
        }
        if !quiet { print("...certificate verification successful.") }
    }

    private func usage(_ message: String) throws {
        Terminal.printError(message)
        throw ExitCode(2)
    }

    /// A date given as `YYYY-MM-DD-hh:mm:ss` or `YYYY-MM-DD`, in GMT.
    static func date(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["yyyy-MM-dd-HH:mm:ss", "yyyy-MM-dd"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    /// The chain and each certificate's errors, as `-v` prints them.
    static func report(_ trust: SecTrust, error: CFError?) -> String {
        let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        var output = "---\nCertificate chain\n"
        for (index, certificate) in chain.enumerated() {
            output += " \(index): \(CertificateCommands.label(certificate))\n"
        }
        guard let error else { return output }
        output += "---\nCertificate errors\n"
        let details =
            (SecTrustCopyResult(trust) as? [String: Any])?[kSecTrustResultDetails as String] as? [[String: Any]]
        for (index, checks) in (details ?? []).enumerated() where !checks.isEmpty {
            let name = chain.indices.contains(index) ? CertificateCommands.label(chain[index]) : "certificate"
            output += " \(index): \(name)\n    \(checks.keys.sorted().joined(separator: ", "))\n"
        }
        output += "---\n\(CFErrorCopyDescription(error) as String? ?? "")\n"
        return output
    }
}

/// `add-trusted-cert`, as macOS's: trusts a certificate for the user (as an anchor), silently.
struct AddTrustedCert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-trusted-cert",
        abstract: "Add trusted certificate(s)."
    )

    @Flag(name: .customShort("d"), help: "Add to the admin cert store (not available on Linux).") var admin = false
    @Option(name: .customShort("r"), help: "Result type: trustRoot (default) or trustAsRoot.") var result = "trustRoot"
    @Option(name: .customShort("p"), help: "Policy the certificate is trusted for; may be repeated.")
    var policies: [String] = []
    @Option(name: .customShort("k"), help: "Also add the certificate to this keychain.") var keychain: String?
    @Argument(help: ArgumentHelp("The certificate, in DER or PEM format.", valueName: "certFile")) var file: String?

    func run() throws {
        let certificate = try TrustCommands.certificate(argument: file)
        let results: [String: SecTrustSettingsResult] = [
            "trustRoot": .trustRoot, "trustAsRoot": .trustAsRoot, "deny": .deny, "unspecified": .unspecified,
        ]
        guard let kind = results[result] else { throw ValidationError("unknown result type \(result)") }
        var constraints: [[String: Any]] = []
        for name in policies {
            guard let policy = TrustCommands.policy(name, client: false, policyName: nil) else {
                throw ValidationError("unknown policy \(name)")
            }
            constraints.append([
                kSecTrustSettingsPolicy as String: policy, kSecTrustSettingsResult as String: kind.rawValue,
            ])
        }
        if constraints.isEmpty, kind != .trustRoot {
            constraints = [[kSecTrustSettingsResult as String: kind.rawValue]]
        }
        // The setting goes to the user's keychain, where every trust reads it; `-k` only says
        // where the certificate itself goes too, as on macOS.
        let device = try Session.open()
        let status = try Session.call(device) {
            SecTrustSettingsSetTrustSettings(
                certificate,
                admin ? .admin : .user,
                constraints.isEmpty ? nil : constraints as CFArray
            )
        }
        guard status == errSecSuccess else {
            // macOS's command reports the status and exits 1.
            _ = Session.fail(status, "SecTrustSettingsSetTrustSettings")
            throw ExitCode(1)
        }
        if let keychain {
            let target = try Session.open(home: keychain)
            let added = try Session.call(target) {
                SecItemAdd([kSecValueRef as String: certificate] as CFDictionary, nil)
            }
            guard added == errSecSuccess || added == errSecDuplicateItem else {
                throw Session.fail(added, "SecCertificateAddToKeychain")
            }
        }
    }
}

/// `remove-trusted-cert`, as macOS's: removes the user's trust settings of a certificate.
struct RemoveTrustedCert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-trusted-cert",
        abstract: "Remove trusted certificate(s)."
    )

    @Flag(name: .customShort("d"), help: "Remove from the admin cert store (not available on Linux).") var admin = false
    @Argument(help: ArgumentHelp("The certificate, in DER or PEM format.", valueName: "certFile")) var file: String?

    func run() throws {
        let certificate = try TrustCommands.certificate(argument: file)
        let device = try Session.open()
        let status = try Session.call(device) {
            SecTrustSettingsRemoveTrustSettings(certificate, admin ? .admin : .user)
        }
        guard status == errSecSuccess else {
            _ = Session.fail(status, "SecTrustSettingsRemoveTrustSettings")
            throw ExitCode(1)
        }
    }
}
