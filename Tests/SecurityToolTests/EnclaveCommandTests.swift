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

/// `security enclave` end to end, each command its own process, the keychain in its `securityd`
/// (or, under `KEYCHAIN_ENGINE=loopback`, in each process, which then asks for the passcode on
/// standard input): a key made in the engine signs and decrypts only after a match, and what it
/// signs verifies with OpenSSL against the public key it exports.
@Suite struct EnclaveCommandTests {
    @Test func createSignVerifyEncryptDecryptThroughTheDaemon() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let passcode = "2468\n"
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("enclave-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: files) }
        let message = files.appendingPathComponent("message.txt")
        try Data("sign and seal me".utf8).write(to: message)
        let path = { (name: String) in files.appendingPathComponent(name).path }

        #expect(try tool.run(["passcode", "set"], input: passcode + passcode).status == 0)
        #expect(try tool.run(["biometry", "sensor", "touchid"]).status == 0)
        #expect(try tool.run(["biometry", "enroll", "right thumb"], input: passcode).status == 0)

        var output = try tool.run(
            ["enclave", "create", "-t", "demo", "--access-control", "privateKeyUsage,biometryAny"],
            input: passcode
        )
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("created enclave key demo: "))
        #expect(try tool.run(["enclave", "list"], input: passcode).stdout.hasPrefix("demo\t\t"))

        // No finger offered: not interactive; a match signs.
        output = try tool.run(
            ["enclave", "sign", "-t", "demo", "-i", message.path, "-o", path("signature.der")],
            input: passcode
        )
        #expect(output.status == 36)  // errSecInteractionNotAllowed's low byte
        #expect(output.stderr.contains("SecKeyCreateSignature"))
        try tool.run(["biometry", "next", "match"])
        output = try tool.run(
            ["enclave", "sign", "-t", "demo", "-i", message.path, "-o", path("signature.der")],
            input: passcode
        )
        #expect(output.status == 0, "\(output.stderr)")
        output = try tool.run(
            ["enclave", "verify", "-t", "demo", "-s", path("signature.der"), "-i", message.path],
            input: passcode
        )
        #expect(output.status == 0 && output.stdout == "signature verified\n")

        // OpenSSL agrees, with the public key in PEM.
        #expect(
            try tool.run(["enclave", "public-key", "-t", "demo", "-o", path("public.pem")], input: passcode).status == 0
        )
        #expect(
            try String(contentsOfFile: path("public.pem"), encoding: .utf8).hasPrefix("-----BEGIN PUBLIC KEY-----\n")
        )
        let openssl = try SecurityToolRunner.runProgram(
            "/usr/bin/openssl",
            ["dgst", "-sha256", "-verify", path("public.pem"), "-signature", path("signature.der"), message.path],
            environment: ProcessInfo.processInfo.environment
        )
        #expect(openssl.status == 0 && openssl.stdout.contains("Verified OK"), "\(openssl.stderr)")
        #expect(
            try tool.run(
                ["enclave", "public-key", "-t", "demo", "--format", "x963", "-o", path("public.x963")],
                input: passcode
            ).status == 0
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("public.x963"))).count == 65)

        // Encrypting needs nothing; decrypting needs a match.
        #expect(
            try tool.run(
                ["enclave", "encrypt", "-t", "demo", "-i", message.path, "-o", path("sealed")],
                input: passcode
            ).status == 0
        )
        #expect(
            try tool.run(
                ["enclave", "decrypt", "-t", "demo", "-i", path("sealed"), "-o", path("opened")],
                input: passcode
            ).status == 36
        )
        try tool.run(["biometry", "next", "nonmatch"])
        #expect(
            try tool.run(
                ["enclave", "decrypt", "-t", "demo", "-i", path("sealed"), "-o", path("opened")],
                input: passcode
            ).status == 51
        )
        try tool.run(["biometry", "next", "match"])
        output = try tool.run(
            ["enclave", "decrypt", "-t", "demo", "-i", path("sealed"), "-o", path("opened")],
            input: passcode
        )
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("opened"))) == Data("sign and seal me".utf8))

        // Gone for good once deleted.
        #expect(
            try tool.run(["enclave", "delete", "-t", "demo"], input: passcode).stdout == "deleted enclave key demo\n"
        )
        #expect(try tool.run(["enclave", "sign", "-t", "demo", "-i", message.path], input: passcode).status == 44)
    }
}
