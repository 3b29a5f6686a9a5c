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
import KeychainContract
import KeychainEngine

/// The ways a stored blob is damaged: flipped bits, truncation, extension.
enum Damage: CaseIterable, CustomStringConvertible {
    case flipFirstByte, flipMiddleByte, flipLastByte, truncateByOne, truncateToHalf, empty, appendByte

    var description: String {
        switch self {
        case .flipFirstByte: "first byte flipped"
        case .flipMiddleByte: "middle byte flipped"
        case .flipLastByte: "last byte flipped"
        case .truncateByOne: "last byte cut"
        case .truncateToHalf: "cut to half"
        case .empty: "emptied"
        case .appendByte: "one byte appended"
        }
    }

    func apply(to original: Data) -> Data {
        var bytes = [UInt8](original)
        switch self {
        case .flipFirstByte where !bytes.isEmpty: bytes[0] ^= 0x01
        case .flipMiddleByte where !bytes.isEmpty: bytes[bytes.count / 2] ^= 0x80
        case .flipLastByte where !bytes.isEmpty: bytes[bytes.count - 1] ^= 0x01
        case .truncateByOne: bytes = Array(bytes.dropLast())
        case .truncateToHalf: bytes = Array(bytes.prefix(bytes.count / 2))
        case .empty: bytes = []
        case .appendByte: bytes.append(0x00)
        default: break
        }
        return Data(bytes)
    }
}
