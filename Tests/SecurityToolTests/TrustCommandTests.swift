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
import KeychainTestSupport
import Testing

/// macOS's trust commands end to end, with certificates made by OpenSSL: `verify-cert` prints
/// `...certificate verification successful.` or `Cert Verify Result: <legacy status>` (exit 0 or
/// 1, `verify_cert.c`), `add-trusted-cert` is silent and makes the root an anchor of the user's
/// keychain, `remove-trusted-cert` undoes it.
@Suite struct TrustCommandTests {
    /// A new empty folder for a test's certificates.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trust-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A root, and a server certificate for `www.trust.example` it issued, in `folder`.
    static func makeChain(in folder: URL) throws {
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        try CertificateCommandTests.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("ca.key"),
            "-out", path("ca.pem"), "-days", "30", "-subj", "/CN=CLI Trust Root",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
        ])
        try CertificateCommandTests.openssl([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("leaf.key"),
            "-out", path("leaf.csr"), "-subj", "/CN=www.trust.example",
        ])
        try "subjectAltName=DNS:www.trust.example\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n"
            .write(toFile: path("leaf.ext"), atomically: true, encoding: .utf8)
        try CertificateCommandTests.openssl([
            "x509", "-req", "-in", path("leaf.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
            "-CAcreateserial", "-out", path("leaf.pem"), "-days", "10", "-extfile", path("leaf.ext"),
        ])
    }

    @Test func verifyCertReportsAsMacOSDoes() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.makeChain(in: folder)
        let leaf = folder.appendingPathComponent("leaf.pem").path
        let root = folder.appendingPathComponent("ca.pem").path

        var output = try tool.run(["verify-cert", "-c", leaf, "-r", root])
        #expect(output.status == 0)
        #expect(output.stdout == "...certificate verification successful.\n")
        output = try tool.run(["verify-cert", "-c", leaf, "-r", root, "-p", "ssl", "-s", "www.trust.example"])
        #expect(output.status == 0)
        output = try tool.run(["verify-cert", "-c", leaf, "-r", root, "-p", "ssl", "-n", "www.other.example"])
        #expect(output.status == 1)
        #expect(output.stderr == "Cert Verify Result: CSSMERR_APPLETP_HOSTNAME_MISMATCH\n")
        output = try tool.run(["verify-cert", "-c", leaf])
        #expect(output.status == 1)
        #expect(output.stderr == "Cert Verify Result: CSSMERR_TP_NOT_TRUSTED\n")
        output = try tool.run(["verify-cert", "-c", leaf, "-r", root, "-d", "2040-01-01"])
        #expect(output.stderr == "Cert Verify Result: CSSMERR_TP_CERT_EXPIRED\n")
        output = try tool.run(["verify-cert", "-c", leaf, "-q"])
        #expect(output.status == 1 && output.stdout.isEmpty && output.stderr.isEmpty)
        output = try tool.run(["verify-cert", "-r", root])
        #expect(output.status == 0)  // a root alone verifies itself against itself

        // Bad input: usage errors exit 2, unreadable files 1.
        #expect(try tool.run(["verify-cert"]).status == 2)
        #expect(try tool.run(["verify-cert", "-c", leaf, "-r", root, "-d", "yesterday"]).status == 2)
        #expect(try tool.run(["verify-cert", "-c", leaf, "-p", "nonsense"]).status == 2)
        output = try tool.run(["verify-cert", "-c", folder.appendingPathComponent("missing.pem").path])
        #expect(output.status == 1 && output.stderr.contains("***Error reading file"))
        output = try tool.run(["verify-cert", "-c", folder.appendingPathComponent("leaf.key").path])
        #expect(output.status == 1)
        // Verifying creates no keychain.
        #expect(!FileManager.default.fileExists(atPath: tool.home.appendingPathComponent("keychain.db").path))
    }

    /// Apple's SSL policy refuses SHA-1 signatures (but a self-signed root's); the basic policy does not.
    @Test func aTLSChainSignedWithSHA1IsRefused() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        try CertificateCommandTests.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out", path("ca.pem"),
            "-days", "30", "-subj", "/CN=SHA-1 Root", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign",
        ])
        try CertificateCommandTests.openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("leaf.key"), "-out", path("leaf.csr"),
            "-subj", "/CN=old.example",
        ])
        try "subjectAltName=DNS:old.example\nbasicConstraints=CA:FALSE\n"
            .write(toFile: path("leaf.ext"), atomically: true, encoding: .utf8)
        for digest in ["sha1", "sha256"] {
            try CertificateCommandTests.openssl([
                "x509", "-req", "-\(digest)", "-in", path("leaf.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                "-CAcreateserial", "-out", path("\(digest).pem"), "-days", "10", "-extfile", path("leaf.ext"),
            ])
        }
        let ssl = ["-r", path("ca.pem"), "-p", "ssl", "-n", "old.example"]
        #expect(try tool.run(["verify-cert", "-c", path("sha256.pem")] + ssl).status == 0)
        #expect(try tool.run(["verify-cert", "-c", path("sha1.pem")] + ssl).status == 1)
        #expect(try tool.run(["verify-cert", "-c", path("sha1.pem"), "-r", path("ca.pem")]).status == 0)
    }

    @Test func aTrustedCertificateIsAnAnchorUntilRemoved() throws {
        let tool = SecurityToolRunner()
        defer {
            _ = try? tool.run(["daemon", "stop"])
            tool.remove()
        }
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.makeChain(in: folder)
        let leaf = folder.appendingPathComponent("leaf.pem").path
        let root = folder.appendingPathComponent("ca.pem").path

        var output = try tool.run(["add-trusted-cert", root])
        #expect(output.status == 0 && output.stdout.isEmpty && output.stderr.isEmpty, "\(output.stderr)")
        output = try tool.run(["verify-cert", "-c", leaf, "-p", "ssl", "-n", "www.trust.example"])
        #expect(output.status == 0, "\(output.stderr)")
        output = try tool.run(["remove-trusted-cert", root])
        #expect(output.status == 0)
        #expect(try tool.run(["verify-cert", "-c", leaf]).status == 1)
        output = try tool.run(["remove-trusted-cert", root])
        #expect(output.status == 1)
        #expect(output.stderr.contains("SecTrustSettingsRemoveTrustSettings: The specified item could not be found"))

        // Trusted for SSL only: S/MIME does not trust it.
        #expect(try tool.run(["add-trusted-cert", "-p", "ssl", root]).status == 0)
        #expect(try tool.run(["verify-cert", "-c", leaf, "-p", "ssl"]).status == 0)
        #expect(try tool.run(["verify-cert", "-c", leaf, "-p", "smime"]).status == 1)

        // The administrator's store and deny results do not exist on Linux; a missing file is a usage error.
        output = try tool.run(["add-trusted-cert", "-d", root])
        #expect(output.status == 1 && output.stderr.contains("SecTrustSettingsSetTrustSettings"))
        #expect(try tool.run(["add-trusted-cert", "-r", "deny", root]).status == 1)
        output = try tool.run(["add-trusted-cert"])
        #expect(output.status == 2 && output.stderr.contains("No cert file specified."))

        // The setting is an item of the keychain: its file holds neither the certificate's name nor its DER.
        let database = try Data(contentsOf: tool.home.appendingPathComponent("keychain.db"))
        #expect(database.range(of: Data("CLI Trust Root".utf8)) == nil)
    }
}
