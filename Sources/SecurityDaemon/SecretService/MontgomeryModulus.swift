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

/// Modular exponentiation with an odd modulus of a fixed size, in Montgomery form: what the
/// Secret Service's Diffie-Hellman key exchange (`dh-ietf1024-sha256_128`) computes.
///
/// Numbers are little-endian arrays of 64-bit limbs, as long as the modulus.
struct MontgomeryModulus: Sendable {
    let modulus: [UInt64]
    /// `-modulus⁻¹ mod 2⁶⁴`.
    private let inverse: UInt64
    /// `R² mod modulus`, with `R = 2^(64·count)`.
    private let rSquared: [UInt64]

    /// A modulus from its big-endian bytes; it must be odd.
    init(bigEndian bytes: [UInt8]) {
        modulus = Self.limbs(bigEndian: bytes, count: (bytes.count + 7) / 8)
        precondition(modulus[0] & 1 == 1, "a Montgomery modulus is odd")
        var x: UInt64 = 1
        for _ in 0..<6 { x = x &* (2 &- modulus[0] &* x) }  // Newton: x = modulus⁻¹ mod 2⁶⁴
        inverse = 0 &- x
        var value = [UInt64](repeating: 0, count: modulus.count)
        value[0] = 1
        for _ in 0..<(2 * 64 * modulus.count) { value = Self.doubled(value, modulus: modulus) }
        rSquared = value
    }

    var count: Int { modulus.count }

    /// `base^exponent mod modulus`; `base` must be below the modulus.
    func power(_ base: [UInt64], _ exponent: [UInt64]) -> [UInt64] {
        let montgomeryBase = multiply(base, rSquared)
        var one = [UInt64](repeating: 0, count: count)
        one[0] = 1
        var result = multiply(one, rSquared)
        for limb in exponent.reversed() {
            for bit in (0..<64).reversed() {
                result = multiply(result, result)
                // Both products are computed, one is kept: the time does not follow the bits.
                let product = multiply(result, montgomeryBase)
                let mask: UInt64 = 0 &- ((limb >> UInt64(bit)) & 1)
                for index in 0..<count { result[index] = (product[index] & mask) | (result[index] & ~mask) }
            }
        }
        return multiply(result, one)
    }

    /// `a·b·R⁻¹ mod modulus` (CIOS).
    private func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let n = count
        var t = [UInt64](repeating: 0, count: n + 2)
        for i in 0..<n {
            var carry: UInt64 = 0
            for j in 0..<n {
                let (high, low) = a[j].multipliedFullWidth(by: b[i])
                let (sum, overflow1) = t[j].addingReportingOverflow(low)
                let (sum2, overflow2) = sum.addingReportingOverflow(carry)
                t[j] = sum2
                carry = high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0)
            }
            let (top, overflow) = t[n].addingReportingOverflow(carry)
            t[n] = top
            t[n + 1] = overflow ? 1 : 0
            let m = t[0] &* inverse
            let (high0, low0) = m.multipliedFullWidth(by: modulus[0])
            carry = high0 &+ (t[0].addingReportingOverflow(low0).overflow ? 1 : 0)
            for j in 1..<n {
                let (high, low) = m.multipliedFullWidth(by: modulus[j])
                let (sum, overflow1) = t[j].addingReportingOverflow(low)
                let (sum2, overflow2) = sum.addingReportingOverflow(carry)
                t[j - 1] = sum2
                carry = high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0)
            }
            let (last, overflowLast) = t[n].addingReportingOverflow(carry)
            t[n - 1] = last
            t[n] = t[n + 1] &+ (overflowLast ? 1 : 0)
        }
        var result = Array(t[0..<n])
        if t[n] != 0 || !Self.isLess(result, modulus) { result = Self.subtracting(modulus, from: result) }
        return result
    }

    // MARK: Limbs

    /// `value` as `count` little-endian limbs (big-endian bytes in).
    static func limbs(bigEndian bytes: [UInt8], count: Int) -> [UInt64] {
        var limbs = [UInt64](repeating: 0, count: count)
        for (index, byte) in bytes.reversed().enumerated() where index / 8 < count {
            limbs[index / 8] |= UInt64(byte) << UInt64(8 * (index % 8))
        }
        return limbs
    }

    /// `limbs` as `size` big-endian bytes.
    static func bigEndian(_ limbs: [UInt64], size: Int) -> [UInt8] {
        (0..<size).map { position in
            let index = size - 1 - position
            guard index / 8 < limbs.count else { return 0 }
            return UInt8(truncatingIfNeeded: limbs[index / 8] >> UInt64(8 * (index % 8)))
        }
    }

    static func isLess(_ a: [UInt64], _ b: [UInt64]) -> Bool {
        for index in (0..<a.count).reversed() where a[index] != b[index] {
            return a[index] < b[index]
        }
        return false
    }

    /// `value − subtrahend`, wrapping.
    static func subtracting(_ subtrahend: [UInt64], from value: [UInt64]) -> [UInt64] {
        var result = value
        var borrow = false
        for index in 0..<value.count {
            let (difference, borrow1) = value[index].subtractingReportingOverflow(subtrahend[index])
            let (difference2, borrow2) = difference.subtractingReportingOverflow(borrow ? 1 : 0)
            result[index] = difference2
            borrow = borrow1 || borrow2
        }
        return result
    }

    private static func doubled(_ value: [UInt64], modulus: [UInt64]) -> [UInt64] {
        var result = value
        var carry: UInt64 = 0
        for index in 0..<value.count {
            result[index] = (value[index] << 1) | carry
            carry = value[index] >> 63
        }
        if carry != 0 || !isLess(result, modulus) { result = subtracting(modulus, from: result) }
        return result
    }
}
