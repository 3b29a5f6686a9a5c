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
public import Foundation

/// Returns a string explaining the meaning of a security result code.
///
/// - Parameters:
///   - status: A result code of a Security function.
///   - reserved: Reserved; pass `nil`.
/// - Returns: The message Apple's Security framework gives for the code.
@discardableResult
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    if let message = SecStatusMessages.table[status] {
        return message as NSString
    }
    return "OSStatus \(status)" as NSString
}
#endif
