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
import KeychainCore
import KeychainDevice
import KeychainServices

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif

/// `security enclave …`: Secure Enclave keys by tag — made by the keychain's engine, used there,
/// never exported.
///
/// Signatures are X9.62 DER over SHA-256, ciphertexts Apple's ECIES (cofactor, variable IV,
/// SHA-256), both byte for byte what an iPhone makes.
struct EnclaveKeyCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enclave",
        abstract: "Make and use Secure Enclave keys (P-256, private key kept by the keychain).",
        discussion: """
            A key is named by its application tag. Its private key never leaves the keychain's \
            engine (securityd when it serves the keychain); signing and decrypting ask for what its \
            access control asks (--access-control privateKeyUsage,biometryCurrentSet: a match). \
            Input is a file or standard input; signatures, ciphertexts and plaintexts go to standard output.
            """,
        subcommands: [
            Create.self, List.self, Delete.self, PublicKey.self, Sign.self, Verify.self, Encrypt.self, Decrypt.self,
        ]
    )

    /// The options every command has: which key, in which keychain.
    struct KeyOptions: ParsableArguments {
        @Option(name: .shortAndLong, help: "The key's application tag.") var tag: String
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?
    }

    static let signing = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256
    static let encryption = SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a key in the keychain's engine.")
        @OptionGroup var key: KeyOptions
        @Option(name: .shortAndLong, help: "A label.") var label: String?
        @Option(help: ArgumentHelp("Accessibility.", valueName: "WhenUnlockedThisDeviceOnly|…")) var accessible =
            "WhenUnlockedThisDeviceOnly"
        @Option(
            help: ArgumentHelp("Access-control flags, comma-separated.", valueName: "privateKeyUsage,biometryAny|…")
        )
        var accessControl = "privateKeyUsage"

        func run() throws {
            guard let protection = Accessibility.value(named: accessible) else {
                throw ValidationError("unknown accessibility \(accessible); use \(Accessibility.names)")
            }
            let access = try AccessControlOption.make(accessControl, protection: protection)
            let device = try Session.open(home: key.keychain)
            var privateAttributes: [String: Any] = [
                kSecAttrIsPermanent as String: true,
                kSecAttrApplicationTag as String: Data(key.tag.utf8),
                kSecAttrAccessControl as String: access,
            ]
            if let label { privateAttributes[kSecAttrLabel as String] = label }
            let parameters: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrKeySizeInBits as String: 256,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecPrivateKeyAttrs as String: privateAttributes,
            ]
            let created = try EnclaveKeyCommands.perform(device, "SecKeyCreateRandomKey") {
                SecKeyCreateRandomKey(parameters as CFDictionary, $0)
            }
            Swift.print(
                "created enclave key \(Terminal.escaped(key.tag)): \(EnclaveKeyCommands.hex(EnclaveKeyCommands.label(of: created)))"
            )
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the keys: tag, label, application label.")
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            guard let device = try Session.openExisting(home: keychain) else { return }
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
            ]
            let status = try Session.call(device) { SecItemCopyMatching(query as CFDictionary, &result) }
            guard status != errSecItemNotFound else { return }
            guard status == errSecSuccess else { throw Session.fail(status, "SecItemCopyMatching") }
            for item in (result as? [[String: Any]]) ?? [] {
                let tag =
                    (item[kSecAttrApplicationTag as String] as? Data).map { String(decoding: $0, as: UTF8.self) } ?? ""
                let label = item[kSecAttrLabel as String] as? String ?? ""
                let hash = item[kSecAttrApplicationLabel as String] as? Data ?? Data()
                Swift.print("\(Terminal.escaped(tag))\t\(Terminal.escaped(label))\t\(EnclaveKeyCommands.hex(hash))")
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a key for good.")
        @OptionGroup var key: KeyOptions

        func run() throws {
            let device = try Session.open(home: key.keychain)
            let status = try Session.call(device) { SecItemDelete(EnclaveKeyCommands.query(key.tag) as CFDictionary) }
            guard status == errSecSuccess else { throw Session.fail(status, "SecItemDelete") }
            Swift.print("deleted enclave key \(Terminal.escaped(key.tag))")
        }
    }

    struct PublicKey: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "public-key",
            abstract: "Write the public key: PEM or X9.63 bytes."
        )
        @OptionGroup var key: KeyOptions
        @Option(help: ArgumentHelp("The format.", valueName: "pem|x963")) var format = "pem"
        @Option(name: .shortAndLong, help: "Where to write it (default: standard output).") var output: String?

        func run() throws {
            guard format == "pem" || format == "x963" else {
                throw ValidationError("unknown format \(format); use pem or x963")
            }
            let device = try Session.open(home: key.keychain)
            let publicKey = try EnclaveKeyCommands.publicKey(device, key.tag)
            let x963 =
                try EnclaveKeyCommands.perform(device, "SecKeyCopyExternalRepresentation") {
                    SecKeyCopyExternalRepresentation(publicKey, $0)
                } as Data
            let pem = EnclaveKeyCommands.pem(subjectPublicKeyInfo: EnclaveKeyCommands.p256InfoPrefix + x963) + "\n"
            try EnclaveKeyCommands.write(format == "x963" ? x963 : Data(pem.utf8), to: output)
        }
    }

    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign the input (ECDSA, SHA-256, DER).")
        @OptionGroup var key: KeyOptions
        @Option(name: .shortAndLong, help: "The file to sign (default: standard input).") var input: String?
        @Option(name: .shortAndLong, help: "Where to write the signature (default: standard output).") var output:
            String?

        func run() throws {
            try EnclaveKeyCommands.transform(
                key,
                input: input,
                output: output,
                withPrivateKey: true,
                "SecKeyCreateSignature"
            ) {
                SecKeyCreateSignature($0, EnclaveKeyCommands.signing, $1, $2)
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Verify a signature of the input.")
        @OptionGroup var key: KeyOptions
        @Option(name: .shortAndLong, help: "The signature file (DER).") var signature: String
        @Option(name: .shortAndLong, help: "The signed file (default: standard input).") var input: String?

        func run() throws {
            let device = try Session.open(home: key.keychain)
            let message = try EnclaveKeyCommands.read(input)
            let signatureData = try EnclaveKeyCommands.read(signature)
            let publicKey = try EnclaveKeyCommands.publicKey(device, key.tag)
            var error: Unmanaged<CFError>?
            guard
                SecKeyVerifySignature(
                    publicKey,
                    EnclaveKeyCommands.signing,
                    message as CFData,
                    signatureData as CFData,
                    &error
                )
            else {
                let status = OSStatus(truncatingIfNeeded: error?.takeRetainedValue().code ?? Int(errSecVerifyFailed))
                throw Session.fail(status, "SecKeyVerifySignature")
            }
            Swift.print("signature verified")
        }
    }

    struct Encrypt: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Encrypt the input to the key (ECIES).")
        @OptionGroup var key: KeyOptions
        @Option(name: .shortAndLong, help: "The file to encrypt (default: standard input).") var input: String?
        @Option(name: .shortAndLong, help: "Where to write the ciphertext (default: standard output).") var output:
            String?

        func run() throws {
            try EnclaveKeyCommands.transform(
                key,
                input: input,
                output: output,
                withPrivateKey: false,
                "SecKeyCreateEncryptedData"
            ) {
                SecKeyCreateEncryptedData($0, EnclaveKeyCommands.encryption, $1, $2)
            }
        }
    }

    struct Decrypt: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decrypt input encrypted to the key.")
        @OptionGroup var key: KeyOptions
        @Option(name: .shortAndLong, help: "The file to decrypt (default: standard input).") var input: String?
        @Option(name: .shortAndLong, help: "Where to write the plaintext (default: standard output).") var output:
            String?

        func run() throws {
            try EnclaveKeyCommands.transform(
                key,
                input: input,
                output: output,
                withPrivateKey: true,
                "SecKeyCreateDecryptedData"
            ) {
                SecKeyCreateDecryptedData($0, EnclaveKeyCommands.encryption, $1, $2)
            }
        }
    }
}

extension EnclaveKeyCommands {
    /// The query of the enclave key tagged `tag`.
    static func query(_ tag: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: Data(tag.utf8),
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
        ]
    }

    /// The private key tagged `tag` (a reference: its operations run in the engine).
    static func privateKey(_ device: Device, _ tag: String) throws -> SecKey {
        var query = query(tag)
        query[kSecReturnRef as String] = true
        var result: CFTypeRef?
        let status = try Session.call(device) { SecItemCopyMatching(query as CFDictionary, &result) }
        guard status == errSecSuccess, let key = result as? SecKey else {
            throw Session.fail(status == errSecSuccess ? errSecItemNotFound : status, "SecItemCopyMatching")
        }
        return key
    }

    /// The public key of the key tagged `tag`.
    static func publicKey(_ device: Device, _ tag: String) throws -> SecKey {
        guard let key = SecKeyCopyPublicKey(try privateKey(device, tag)) else {
            throw Session.fail(errSecItemNotFound, "SecKeyCopyPublicKey")
        }
        return key
    }

    /// Runs a call that reports failure through a `CFError`; on failure reports its status as the
    /// command's, and asks for the passcode once if the keychain was locked.
    static func perform<T>(
        _ device: Device,
        _ context: String,
        _ body: (UnsafeMutablePointer<Unmanaged<CFError>?>) -> T?
    ) throws -> T {
        var value: T?
        let status = try Session.call(device) {
            var error: Unmanaged<CFError>?
            value = body(&error)
            return value != nil
                ? errSecSuccess : OSStatus(truncatingIfNeeded: error?.takeRetainedValue().code ?? Int(errSecParam))
        }
        guard status == errSecSuccess, let value else { throw Session.fail(status, context) }
        return value
    }

    /// Reads the input, runs `body` with the key (its private or its public half) and writes what
    /// it returns: the shape of sign, encrypt and decrypt.
    static func transform(
        _ key: KeyOptions,
        input: String?,
        output: String?,
        withPrivateKey: Bool,
        _ context: String,
        _ body: (SecKey, CFData, UnsafeMutablePointer<Unmanaged<CFError>?>) -> CFData?
    ) throws {
        let device = try Session.open(home: key.keychain)
        let data = try read(input) as CFData
        let secKey = try withPrivateKey ? privateKey(device, key.tag) : publicKey(device, key.tag)
        let result = try perform(device, context) { body(secKey, data, $0) } as Data
        try write(result, to: output)
    }

    /// A file's bytes, or standard input's when `path` is `nil` or `-`.
    static func read(_ path: String?) throws -> Data {
        guard let path, path != "-" else { return FileHandle.standardInput.readDataToEndOfFile() }
        guard let data = FileManager.default.contents(atPath: path) else {
            Terminal.printError("security: cannot read \(path)")
            throw ExitCode(1)
        }
        return data
    }

    /// Writes `data` to the file `path` (readable by its owner only: it may be a plaintext), or to
    /// standard output.
    static func write(_ data: Data, to path: String?) throws {
        guard let path, path != "-" else {
            FileHandle.standardOutput.write(data)
            return
        }
        // Private from its first byte (a decrypted plaintext may go there), and never through a link.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0, fchmod(descriptor, 0o600) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            Terminal.printError("security: cannot write \(path)")
            throw ExitCode(1)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
        } catch {
            Terminal.printError("security: cannot write \(path)")
            throw ExitCode(1)
        }
    }

    static func label(of key: SecKey) -> Data {
        (SecKeyCopyAttributes(key) as? [String: Any])?[kSecAttrApplicationLabel as String] as? Data ?? Data()
    }

    static func hex(_ data: Data) -> String {
        HexText.encode(data)
    }

    /// The DER `SubjectPublicKeyInfo` header of a P-256 key (id-ecPublicKey, prime256v1), before its
    /// 65-byte uncompressed point.
    static let p256InfoPrefix = Data([
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A,
        0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ])

    static func pem(subjectPublicKeyInfo der: Data) -> String {
        let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN PUBLIC KEY-----\n\(base64)\n-----END PUBLIC KEY-----"
    }
}
