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

/// The process that holds keychain secrets, and how it keeps them to itself.
///
/// Call ``harden()`` early in a program that unlocks the keychain or handles passcodes (the
/// `security` tool does, first thing):
///
/// ```swift
/// import KeychainDevice
///
/// KeychainProcess.harden()   // no core dumps; other processes of this user cannot read its memory
/// ```
///
/// It makes the process non-dumpable (`prctl(PR_SET_DUMPABLE, 0)`): another process of the same
/// user can no longer read `/proc/PID/mem` or attach a debugger, and no core file is written; the
/// core-file limit is also set to zero. Root can still read the memory. Passcodes typed at the
/// terminal are read into locked memory that is excluded from dumps and zeroed afterwards; what
/// Swift copies elsewhere (a `String` of more than 15 bytes, temporaries in the standard library
/// and in swift-crypto) is not zeroed, which is why the process as a whole is protected. Being
/// non-dumpable also stops `gdb -p` and `strace -p` by the same user, so call it only in
/// production code paths.
public enum KeychainProcess {
    /// Makes the process non-dumpable and disables core files.
    ///
    /// - Returns: Whether the process is now non-dumpable (`false` where the system has no such
    ///   setting; core files are disabled anyway).
    @discardableResult
    public static func harden() -> Bool {
        (try? LinkedEngine.provider().hardenProcess()) ?? false
    }

    /// Whether the process is non-dumpable.
    public static var isHardened: Bool {
        (try? LinkedEngine.provider().isProcessHardened) ?? false
    }
}
