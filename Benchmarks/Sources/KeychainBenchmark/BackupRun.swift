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
import KeychainDevice
import KeychainServices
import Synchronization

/// Backup and restore (issue 37): a keychain of `size` items stored one `SecItemAdd` at a time,
/// then backed up to a file and restored into an empty keychain, each timed and divided by the
/// time storing the items took in the same run; and the file's size beside the database's.
///
/// Targets: each ≤ 3× storing the items, the file ≤ 1.3× the database.
struct BackupRun {
    let size: Int
    let directory: URL
    let seed: UInt64
    let log: ResultLog

    static let subject = "swift-keychain (backup)"
    private static let password = "benchmark backup password"

    func run() throws {
        let source = directory.appendingPathComponent("backup-source-\(size)", isDirectory: true)
        let target = directory.appendingPathComponent("backup-target-\(size)", isDirectory: true)
        let file = directory.appendingPathComponent("backup-\(size).backup")
        for url in [source, target, file] { try? FileManager.default.removeItem(at: url) }
        defer { for url in [source, target, file] { try? FileManager.default.removeItem(at: url) } }

        let device = try Device(
            home: KeychainHome(url: source),
            configuration: DeviceConfiguration(passcodePrompt: .none)
        )
        let operations = ItemOperations(workload: Workload(prefix: "kc-bench-backup", seed: seed))
        let fill = Device.withCurrent(device) { Sample.measure(size) { operations.store($0) } }
        log.record(Self.subject, "store (fill, one SecItemAdd each)", size: size, fill)

        let residentBefore = ProcessMemory.resident ?? 0
        ProcessMemory.resetPeak()
        let started = DispatchTime.now().uptimeNanoseconds
        let written = try Self.blocking { try await device.backup(to: file, password: Self.password) }
        let backupSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let backupPeak = ProcessMemory.peakResident ?? 0
        let fileBytes = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
        let databaseBytes = try KeychainFiles(directory: source).logicalBytes()
        log.record(
            Self.subject,
            "backup",
            size: size,
            value: backupSeconds / fill.wallSeconds,
            unit: "× storing",
            extra: [
                "wall_s": backupSeconds, "items": written.written, "file_bytes": fileBytes,
                "database_bytes": databaseBytes, "file_ratio": Double(fileBytes) / Double(max(databaseBytes, 1)),
                "errors": size - written.written, "rss_before_mib": Double(residentBefore) / 1_048_576,
                "peak_rss_mib": Double(backupPeak) / 1_048_576,
            ]
        )

        let restoring = try Device(
            home: KeychainHome(url: target),
            configuration: DeviceConfiguration(passcodePrompt: .none)
        )
        let restoreResidentBefore = ProcessMemory.resident ?? 0
        ProcessMemory.resetPeak()
        let restoreStarted = DispatchTime.now().uptimeNanoseconds
        let restored = try Self.blocking { try await restoring.restore(from: file, password: Self.password) }
        let restoreSeconds = Double(DispatchTime.now().uptimeNanoseconds - restoreStarted) / 1e9
        let restorePeak = ProcessMemory.peakResident ?? 0
        let checked = Device.withCurrent(restoring) {
            Sample.measure(min(size, 100)) { operations.lookup($0 * (size / min(size, 100))) }
        }
        log.record(
            Self.subject,
            "restore (into an empty keychain)",
            size: size,
            value: restoreSeconds / fill.wallSeconds,
            unit: "× storing",
            extra: [
                "wall_s": restoreSeconds, "items": restored.added, "errors": size - restored.added + checked.errors,
                "rss_before_mib": Double(restoreResidentBefore) / 1_048_576,
                "peak_rss_mib": Double(restorePeak) / 1_048_576,
            ]
        )
    }

    /// Waits for `body` on this thread (the benchmark's commands are synchronous).
    private static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let semaphore = DispatchSemaphore(value: 0)
        let result = Mutex<Result<T, any Error>?>(nil)
        Task {
            let outcome: Result<T, any Error>
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            semaphore.signal()
        }
        semaphore.wait()
        guard let outcome = result.withLock({ $0 }) else { fatalError("the task ended without a result") }
        return try outcome.get()
    }
}
