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

import KeychainCore

/// The password as `find-generic-password -w` prints it (macOS's `print_buffer`-less form): as
/// it is when every byte is printable ASCII, else as lowercase hexadecimal.
package enum PasswordLine {
    package static func render(_ bytes: some Collection<UInt8>) -> String {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return HexText.encode(bytes)
    }
}
