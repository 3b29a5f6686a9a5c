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

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif

/// Bytes of a secret (a passcode being typed, a key being unwrapped) in memory of their own:
/// locked so that it is never swapped out, excluded from core dumps, and zeroed when released.
///
/// What Swift copies elsewhere is out of its reach: a `String` made from the bytes lives in the
/// ordinary heap (short strings, up to 15 bytes, are kept inline and leave no heap copy), and
/// neither the standard library nor swift-crypto zeroes every temporary. The buffer keeps the one
/// copy that lasts — the input as it was read — out of swap and dumps.
package final class SecretBuffer {
    private var region: Region
    /// The most bytes the buffer takes.
    package let limit: Int
    /// The bytes written so far.
    package private(set) var count = 0
    /// Whether the memory is locked (`mlock` can fail under a small `RLIMIT_MEMLOCK`).
    package var isLocked: Bool { region.isLocked }

    /// A buffer of up to `limit` bytes.
    ///
    /// It starts at one page and doubles as it fills, each time into a new region: the old one is
    /// zeroed before it is released.
    package init(limit: Int) {
        self.limit = limit
        region = Region(size: min(limit, Region.pageSize))
    }

    deinit {
        region.release()
    }

    /// Appends a byte; `false` when the buffer holds `limit` bytes.
    @discardableResult
    package func append(_ byte: UInt8) -> Bool {
        guard count < limit else { return false }
        if count == region.size { grow() }
        region.base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
        return true
    }

    /// Removes the last byte.
    package func removeLast() {
        guard count > 0 else { return }
        count -= 1
        region.base.storeBytes(of: 0, toByteOffset: count, as: UInt8.self)
    }

    /// The last byte, if any.
    package var last: UInt8? {
        count > 0 ? region.base.load(fromByteOffset: count - 1, as: UInt8.self) : nil
    }

    /// Calls `body` with the bytes written so far.
    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: region.base, count: count))
    }

    private func grow() {
        let larger = Region(size: min(limit, region.size * 2))
        larger.base.copyMemory(from: region.base, byteCount: count)
        region.release()
        region = larger
    }
}

extension SecretBuffer {
    /// Pages of memory of their own: locked where the limit allows, out of core dumps.
    private struct Region {
        static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

        let base: UnsafeMutableRawPointer
        let size: Int
        let isMapped: Bool
        let isLocked: Bool

        /// A region of at least `size` bytes (whole pages).
        init(size requested: Int) {
            let page = Self.pageSize
            size = max(page, (requested + page - 1) / page * page)
            let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            if let address, address != MAP_FAILED {
                base = address
                isMapped = true
                isLocked = mlock(address, size) == 0
                SecretBuffer.excludeFromCoreDumps(address, size)
            } else {
                base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: page)
                isMapped = false
                isLocked = false
            }
        }

        /// Zeroes the region and gives it back.
        func release() {
            SecretBuffer.zero(base, size)
            if isMapped {
                munlock(base, size)
                munmap(base, size)
            } else {
                base.deallocate()
            }
        }
    }
}

extension SecretBuffer {
    /// Keeps the region out of core dumps where the system can (`MADV_DONTDUMP`).
    fileprivate static func excludeFromCoreDumps(_ address: UnsafeMutableRawPointer, _ size: Int) {
        #if os(Linux)
        _ = madvise(address, size, MADV_DONTDUMP)
        #endif
    }

    /// Zeroes the region in a way the compiler may not remove.
    fileprivate static func zero(_ address: UnsafeMutableRawPointer, _ size: Int) {
        #if canImport(Darwin)
        _ = memset_s(address, size, 0, size)
        #else
        explicit_bzero(address, size)
        #endif
    }
}

@available(*, unavailable)
extension SecretBuffer: Sendable {}
