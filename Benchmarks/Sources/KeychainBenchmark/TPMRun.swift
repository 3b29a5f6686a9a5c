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

import Crypto
import Foundation
import KeychainDevice
import KeychainServices
import SoftwareEnclave

/// The TPM 2.0 root (issue 38) with swtpm beside the file store, in one run: unlocking (a fresh
/// process's view, the standard passcode cost), storing and looking up items, whether any of
/// those wrote the TPM's NV memory, and CryptoKit's `SecureEnclave.P256` signing and agreeing in the
/// TPM beside swift-crypto in process.
///
/// Targets: unlock ≤ 2× the file store's; item operations unchanged; NV writes per 1,000 item
/// operations: 0. swtpm answers in microseconds; a real TPM takes tens to hundreds of
/// milliseconds per signature or HMAC.
struct TPMRun {
    let items: Int
    let operations: Int
    let directory: URL
    let log: ResultLog

    static let subject = "swift-keychain (TPM)"
    private static let passcode = "482916"
    private static let message = Data((0..<64).map { UInt8($0) })

    func run() throws {
        let tpmDirectory = directory.appendingPathComponent("swtpm", isDirectory: true)
        try FileManager.default.createDirectory(at: tpmDirectory, withIntermediateDirectories: true)
        let swtpm = try Self.startSoftwareTPM(in: tpmDirectory)
        defer {
            kill(swtpm.processIdentifier, SIGKILL)
            swtpm.waitUntilExit()
        }
        let tcti = "swtpm:path=\(tpmDirectory.appendingPathComponent("sock").path)"
        let state = tpmDirectory.appendingPathComponent("tpm2-00.permall")

        var unlock: [String: Double] = [:]
        var lookups: [String: Sample] = [:]
        var stores: [String: Sample] = [:]
        for (store, choice) in [("file", "none"), ("tpm", tcti)] {
            setenv("KEYCHAIN_TPM", choice, 1)
            let home = directory.appendingPathComponent("tpm-home-\(store)", isDirectory: true)
            try? FileManager.default.removeItem(at: home)
            defer { try? FileManager.default.removeItem(at: home) }
            let device = try Self.open(home)
            try device.setPasscode(Self.passcode)
            let marker = store == "tpm" ? "device.tpm" : "device.key"
            guard FileManager.default.fileExists(atPath: home.appendingPathComponent(marker).path) else {
                throw BenchmarkFailure("the \(store) run's keychain has no \(marker)")
            }
            let operations = ItemOperations(workload: Workload(prefix: "kc-bench-tpm-\(store)", seed: 38))
            let before = try? Data(contentsOf: state)
            stores[store] = Device.withCurrent(device) { Sample.measure(items) { operations.store($0) } }
            lookups[store] = Device.withCurrent(device) { Sample.measure(items) { operations.lookup($0) } }
            if store == "tpm" {
                let rewritten = (try? Data(contentsOf: state)) != before
                log.record(
                    Self.subject,
                    "NV memory rewritten during \(2 * items) item operations",
                    size: items,
                    value: rewritten ? 1 : 0,
                    unit: "times",
                    extra: ["errors": 0]
                )
            }
            // Unlocking as a new process does: a fresh view of the keychain, then the passcode.
            var timings: [Double] = []
            for _ in 0..<5 {
                let fresh = try Self.open(home)
                let started = DispatchTime.now().uptimeNanoseconds
                try fresh.unlock(passcode: Self.passcode)
                timings.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            }
            unlock[store] = timings.sorted()[timings.count / 2]
            if store == "tpm" {
                try enclaveOperations(device)
            }
        }
        unsetenv("KEYCHAIN_TPM")
        let fileUnlock = unlock["file"] ?? 0
        let tpmUnlock = unlock["tpm"] ?? 0
        log.record(
            Self.subject,
            "unlock (median of 5, beside the file store)",
            size: nil,
            value: tpmUnlock / max(fileUnlock, 1e-9),
            unit: "× file store",
            extra: ["errors": 0, "tpm_s": tpmUnlock, "file_s": fileUnlock]
        )
        for (phase, samples) in [("store (SecItemAdd)", stores), ("lookup (SecItemCopyMatching)", lookups)] {
            guard let file = samples["file"], let tpm = samples["tpm"] else { continue }
            log.record(
                Self.subject,
                "\(phase), beside the file store",
                size: items,
                value: tpm.wallSeconds / max(file.wallSeconds, 1e-9),
                unit: "× file store",
                extra: ["errors": file.errors + tpm.errors, "tpm_s": tpm.wallSeconds, "file_s": file.wallSeconds]
            )
        }
    }

    /// CryptoKit's Secure Enclave keys, made in the TPM, beside swift-crypto's in-process keys.
    private func enclaveOperations(_ device: Device) throws {
        try Device.withCurrent(device) {
            let signing = try SecureEnclave.P256.Signing.PrivateKey()
            let sign = Sample.measure(operations) { _ in (try? signing.signature(for: Self.message)) != nil }
            log.record(Self.subject, "SecureEnclave.P256 sign (in the TPM)", size: nil, sign)
            let agreement = try SecureEnclave.P256.KeyAgreement.PrivateKey()
            let peer = P256.KeyAgreement.PrivateKey().publicKey
            let agree = Sample.measure(operations) { _ in
                (try? agreement.sharedSecretFromKeyAgreement(with: peer)) != nil
            }
            log.record(Self.subject, "SecureEnclave.P256 ECDH (in the TPM)", size: nil, agree)
        }
        let software = P256.Signing.PrivateKey()
        let softwareSign = Sample.measure(operations) { _ in (try? software.signature(for: Self.message)) != nil }
        log.record(Self.subject, "P256 sign (swift-crypto, in process)", size: nil, softwareSign)
        let softwareAgreement = P256.KeyAgreement.PrivateKey()
        let peer = P256.KeyAgreement.PrivateKey().publicKey
        let softwareAgree = Sample.measure(operations) { _ in
            (try? softwareAgreement.sharedSecretFromKeyAgreement(with: peer)) != nil
        }
        log.record(Self.subject, "P256 ECDH (swift-crypto, in process)", size: nil, softwareAgree)
    }

    private static func open(_ home: URL) throws -> Device {
        try Device(
            home: KeychainHome(url: home),
            configuration: DeviceConfiguration(passcodePrompt: .none, engine: .embedded)
        )
    }

    /// swtpm on a Unix socket in `directory`, its state there.
    private static func startSoftwareTPM(in directory: URL) throws -> Process {
        let socket = directory.appendingPathComponent("sock").path
        let swtpm = Process()
        swtpm.executableURL = URL(fileURLWithPath: "/usr/bin/swtpm")
        swtpm.arguments = [
            "socket", "--tpm2", "--tpmstate", "dir=\(directory.path)", "--server", "type=unixio,path=\(socket)",
            "--ctrl", "type=unixio,path=\(socket).ctrl", "--flags", "not-need-init,startup-clear",
        ]
        swtpm.standardOutput = FileHandle.nullDevice
        swtpm.standardError = FileHandle.nullDevice
        try swtpm.run()
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket + ".ctrl") {
            Thread.sleep(forTimeInterval: 0.02)
        }
        return swtpm
    }
}

/// A benchmark that could not measure what it set out to.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
