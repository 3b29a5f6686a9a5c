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

/// The peers' four phases at one keychain size, through `SecItem*`.
///
/// The keychain is first filled to `size − sample` items (timed as a whole), then `sample`
/// operations of each phase run against a store of about `size` items: the last `sample` stores,
/// look-ups and updates of random items, deletes of the updated ones. At 1,000 items the sample
/// is every item, the peers' shape exactly.
struct SizeRun {
    let size: Int
    let sample: Int
    let workload: Workload
    let directory: URL
    let log: ResultLog

    static let subject = "swift-keychain (SecItem API)"

    /// Runs the phases; returns the home, holding all `size` items again, for the probes.
    @discardableResult
    func run() throws -> URL {
        let home = directory.appendingPathComponent("size-\(size)", isDirectory: true)
        try? FileManager.default.removeItem(at: home)
        let operations = ItemOperations(workload: workload)
        let configuration = DeviceConfiguration(passcodePrompt: .none)
        let device = try Device(home: KeychainHome(url: home), configuration: configuration)
        var sampler = IndexSampler(seed: workload.seed ^ UInt64(size))

        try Device.withCurrent(device) {
            let fillCount = size - sample
            if fillCount > 0 {
                let fill = Sample.measure(fillCount) { operations.store($0) }
                log.record(Self.subject, "fill (store)", size: size, fill, extra: ["range": "0..<\(fillCount)"])
            }
            let store = Sample.measure(sample) { operations.store(fillCount + $0) }
            log.record(Self.subject, "store", size: size, store)

            let files = KeychainFiles(directory: home)
            let logical = try files.logicalBytes()
            log.record(
                Self.subject,
                "database bytes/item",
                size: size,
                value: Double(logical) / Double(size),
                unit: "B"
            )
            log.record(
                Self.subject,
                "files on disk/item",
                size: size,
                value: Double(files.bytesOnDisk()) / Double(size),
                unit: "B"
            )
            log.record(Self.subject, "row bytes (mean)", size: size, value: Double(try files.meanRowBytes()), unit: "B")

            let lookupIndices = sampler.indices(sample, below: size)
            let lookup = Sample.measure(sample) { operations.lookup(lookupIndices[$0]) }
            log.record(Self.subject, "lookup", size: size, lookup)

            if size <= 10_000 {
                measureAttributeQueries(operations)
            }

            let updated = sampler.indices(sample, below: size)
            let update = Sample.measure(sample) { operations.update(updated[$0]) }
            log.record(Self.subject, "update", size: size, update)
            let checked = stride(from: 0, to: updated.count, by: max(1, updated.count / 20))
                .filter { !operations.lookup(updated[$0], generation: 1) }
            if !checked.isEmpty {
                print("  !! \(checked.count) sampled items did not show the updated secret")
            }

            let delete = Sample.measure(sample) { operations.delete(updated[$0]) }
            log.record(Self.subject, "delete", size: size, delete)
            // Put them back (untimed) so that the probes find every item in its first generation.
            for index in updated where !operations.store(index) {
                print("  !! item \(index) could not be stored again")
            }
        }
        return home
    }

    /// `kSecMatchLimitAll` attribute queries: every item, and one account through its index.
    private func measureAttributeQueries(_ operations: ItemOperations) {
        let repeats = max(3, 20_000 / size)
        let all = Sample.measure(repeats) { _ in ItemOperations.attributes(matching: [:]) == size }
        log.record(
            Self.subject,
            "all attributes (LimitAll)",
            size: size,
            all,
            extra: ["items_per_query": size, "items_per_s": all.operationsPerSecond * Double(size)]
        )
        var sampler = IndexSampler(seed: workload.seed &+ 7)
        let accounts = sampler.indices(1_000, below: size)
        let one = Sample.measure(accounts.count) { index in
            ItemOperations.attributes(matching: [kSecAttrAccount as String: workload.account(accounts[index])]) == 1
        }
        log.record(Self.subject, "by account (LimitAll)", size: size, one)
    }
}
