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

#if KEYCHAIN_IN_SWIFTPM && !KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API
@_exported import Security
#else
import Foundation

/// A random-number generator; the only one is ``kSecRandomDefault``.
public typealias SecRandomRef = OpaquePointer

/// The default random-number generator: the system's cryptographically secure one.
nonisolated(unsafe) public let kSecRandomDefault: SecRandomRef? = nil

/// Fills `bytes` with `count` cryptographically secure random bytes.
///
/// On Linux they come from the kernel's generator (`getrandom`), through the standard library's
/// `SystemRandomNumberGenerator`.
///
/// - Parameters:
///   - rnd: The generator: ``kSecRandomDefault``.
///   - count: How many bytes to write.
///   - bytes: Where to write them.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard count > 0 else { return errSecSuccess }
    var generator = SystemRandomNumberGenerator()
    var offset = 0
    while offset < count {
        var word = generator.next()
        let length = min(MemoryLayout<UInt64>.size, count - offset)
        withUnsafeBytes(of: &word) { wordBytes in
            guard let base = wordBytes.baseAddress else { preconditionFailure("a UInt64 has storage") }
            (bytes + offset).copyMemory(from: base, byteCount: length)
        }
        offset += length
    }
    return errSecSuccess
}
#endif
