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
import KeychainTesting

/// The item shape of ../shared/peers: service `<prefix>-svc-<i>`, account
/// `user<i>@example.invalid`, a 64-byte ASCII secret.
///
/// Secrets are derived from the index and a per-run seed instead of being kept, so that a
/// million-item run does not hold a million secrets in memory while its resident size is measured.
struct Workload: Sendable {
    var prefix: String
    var seed: UInt64

    init(prefix: String = "kc-bench", seed: UInt64 = UInt64.random(in: 1...UInt64.max)) {
        self.prefix = prefix
        self.seed = seed
    }

    func service(_ index: Int) -> String { "\(prefix)-svc-\(index)" }

    func account(_ index: Int) -> String { "user\(index)@example.invalid" }

    /// The 64 hexadecimal characters of item `index`'s secret in `generation` (0 stored, 1 updated).
    func secret(_ index: Int, generation: UInt64 = 0) -> Data {
        var generator = SplitMix64(
            seed: seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15) ^ (generation &* 0xD1B5_4A32_D192_ED03)
        )
        var bytes = [UInt8]()
        bytes.reserveCapacity(64)
        let digits = Array("0123456789abcdef".utf8)
        for _ in 0..<4 {
            var word = generator.next()
            for _ in 0..<16 {
                bytes.append(digits[Int(word & 0xF)])
                word >>= 4
            }
        }
        return Data(bytes)
    }

}

/// A fixed pseudo-random permutation of sample indices, so that look-ups do not walk the store in order.
struct IndexSampler {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// `count` indices in `0..<limit`, distinct when `count <= limit`.
    mutating func indices(_ count: Int, below limit: Int) -> [Int] {
        guard count < limit else { return shuffled(Array(0..<limit)) }
        var chosen = Set<Int>()
        var result: [Int] = []
        result.reserveCapacity(count)
        while result.count < count {
            let index = Int(next() % UInt64(limit))
            if chosen.insert(index).inserted { result.append(index) }
        }
        return result
    }

    private mutating func shuffled(_ values: [Int]) -> [Int] {
        var values = values
        guard values.count > 1 else { return values }
        for i in stride(from: values.count - 1, to: 0, by: -1) {
            values.swapAt(i, Int(next() % UInt64(i + 1)))
        }
        return values
    }

    private mutating func next() -> UInt64 { generator.next() }
}
