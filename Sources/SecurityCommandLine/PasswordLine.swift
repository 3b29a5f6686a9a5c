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

/// The password as `find-generic-password -w` prints it (macOS's `print_buffer`-less form): as
/// it is when every byte is printable ASCII, else as lowercase hexadecimal.
package enum PasswordLine {
    package static func render(_ bytes: some Collection<UInt8>) -> String {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
