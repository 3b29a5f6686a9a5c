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

/// macOS's certificate commands end to end: a PKCS #12 file from OpenSSL imported, its identity
/// and certificates found, printed and deleted with macOS's output.
@Suite struct CertificateCommandTests {
    static func openssl(_ arguments: [String]) throws {
        let output = try SecurityToolRunner.runProgram(
            "/usr/bin/openssl",
            arguments,
            environment: ProcessInfo.processInfo.environment
        )
        #expect(output.status == 0, "openssl \(arguments.first ?? ""): \(output.stderr)")
    }

    @Test func importFindPrintAndDelete() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cert-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        try Self.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-keyout", path("key.pem"),
            "-out", path("cert.pem"), "-days", "2", "-nodes", "-subj", "/CN=CLI Identity",
        ])
        try Self.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-keyout", path("ca-key.pem"),
            "-out", path("ca.pem"), "-days", "2", "-nodes", "-subj", "/CN=CLI Other",
        ])
        try Self.openssl([
            "pkcs12", "-export", "-inkey", path("key.pem"), "-in", path("cert.pem"), "-certfile", path("ca.pem"),
            "-passout", "pass:secret", "-out", path("id.p12"),
        ])

        var output = try tool.run(["import", path("id.p12"), "-P", "wrong"])
        #expect(output.status == 1 && output.stderr.contains("SecKeychainItemImport"))
        output = try tool.run(["import", path("id.p12"), "-P", "secret"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "1 identity imported.\n1 certificate imported.\n")

        // find-identity: macOS's layout, the SHA-1 of the certificate and its name.
        output = try tool.run(["find-identity"])
        #expect(output.stdout.hasPrefix("\nPolicy: X.509 Basic\n  Matching identities\n  1) "))
        #expect(output.stdout.contains(" \"CLI Identity\"\n     1 identities found\n\n  Valid identities only\n"))
        // A self-signed identity is valid only once the user trusts it (macOS's `-v`: a trusted chain).
        #expect(output.stdout.hasSuffix("  Valid identities only\n     0 valid identities found\n"))
        #expect(try tool.run(["add-trusted-cert", path("cert.pem")]).status == 0)
        #expect(
            try tool.run(["find-identity", "-v"]).stdout.hasSuffix("\"CLI Identity\"\n     1 valid identities found\n")
        )
        #expect(try tool.run(["remove-trusted-cert", path("cert.pem")]).status == 0)

        // find-certificate: by part of the common name in any case, hashes first, then the block.
        output = try tool.run(["find-certificate", "-c", "cli ident", "-Z"])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("SHA-256 hash: ") == true && lines.first?.count == 14 + 64)
        #expect(lines.dropFirst().first?.hasPrefix("SHA-1 hash: ") == true)
        #expect(output.stdout.contains("class: 0x80001000 \nattributes:\n"))
        #expect(output.stdout.contains("    \"labl\"<blob>=\"CLI Identity\"\n"))
        #expect(output.stdout.contains("    \"alis\"<blob>=\"CLI Identity\"\n"))
        #expect(output.stdout.contains("    \"ctyp\"<uint32>=0x00000001 \n"))
        output = try tool.run(["find-certificate", "-a", "-p"])
        #expect(output.stdout.components(separatedBy: "-----BEGIN CERTIFICATE-----\n").count == 3)
        let pem = try String(contentsOfFile: path("cert.pem"), encoding: .utf8)
        #expect(output.stdout.contains(pem))
        output = try tool.run(["find-certificate", "-c", "nobody"])
        #expect(output.status == 44)
        #expect(
            output.stderr
                == "security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.\n"
        )
        #expect(try tool.run(["find-certificate", "-a", "-c", "nobody"]).status == 0)

        // find-key: the identity's private key, with macOS's 27 numbered key attributes.
        output = try tool.run(["find-key", "-t", "private", "-s"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("class: 0x00000010 \nattributes:\n    0x00000000 <uint32>=0x00000010 \n"))
        #expect(output.stdout.contains("\n    0x00000009 <uint32>=0x00000049  \"\\000\\000\\000I\"\n"))  // an EC key
        #expect(output.stdout.contains("\n    0x0000000A <uint32>=0x00000100 \n"))  // 256 bits
        #expect(output.stdout.components(separatedBy: "\n    0x").count == 28)
        output = try tool.run(["find-key", "-t", "public"])
        #expect(output.status == 1)
        #expect(
            output.stderr == "security: SecItemCopyMatching: The specified item could not be found in the keychain.\n"
        )
        #expect(try tool.run(["find-key", "-t", "secret"]).status == 2)

        // export: the identity as a PKCS #12 file OpenSSL opens; the certificates as PEM; the file imports again.
        output = try tool.run(["export", "-t", "identities", "-f", "pkcs12", "-P", "exported", "-o", path("out.p12")])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.hasPrefix("...") && output.stderr.contains("bytes written to \(path("out.p12"))"))
        let opened = try SecurityToolRunner.runProgram(
            "/usr/bin/openssl",
            ["pkcs12", "-in", path("out.p12"), "-passin", "pass:exported", "-nodes"],
            environment: ProcessInfo.processInfo.environment
        )
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(
            opened.stdout.contains("-----BEGIN PRIVATE KEY-----")
                && opened.stdout.contains("-----BEGIN CERTIFICATE-----")
        )
        #expect(opened.stdout.contains("friendlyName: CLI Identity"))
        let wrongPassword = try SecurityToolRunner.runProgram(
            "/usr/bin/openssl",
            ["pkcs12", "-in", path("out.p12"), "-passin", "pass:nope", "-nodes"],
            environment: ProcessInfo.processInfo.environment
        )
        #expect(wrongPassword.status != 0)
        output = try tool.run(["export", "-t", "certs", "-f", "pemseq"])
        #expect(output.stdout.components(separatedBy: "-----BEGIN CERTIFICATE-----\n").count == 3)
        let other = SecurityToolRunner()
        defer { other.remove() }
        output = try other.run(["import", path("out.p12"), "-P", "exported"])
        #expect(output.stdout == "1 identity imported.\n", "\(output.stderr)")

        // add-certificates: already there.
        output = try tool.run(["add-certificates", path("cert.pem")])
        #expect(output.status == 1 && output.stderr == "security: \(path("cert.pem")): already in default keychain\n")

        // delete-identity takes the key too; delete-certificate by name.
        #expect(try tool.run(["delete-identity", "-c", "CLI Identity"]).status == 0)
        #expect(try tool.run(["find-identity", "-v"]).stdout == "     0 valid identities found\n")
        output = try tool.run(["delete-certificate", "-c", "CLI"])
        #expect(output.status == 0, "\(output.stderr)")
        output = try tool.run(["delete-certificate", "-c", "CLI Other"])
        #expect(output.status == 1 && output.stderr == "Unable to delete certificate matching \"CLI Other\"")
        // And a DER certificate is added again.
        try Self.openssl(["x509", "-in", path("cert.pem"), "-outform", "DER", "-out", path("cert.der")])
        #expect(try tool.run(["add-certificates", path("cert.der")]).status == 0)
        #expect(try tool.run(["find-certificate", "-c", "CLI Identity"]).status == 0)
    }
}
