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

import CKeychainSystem

/// What a process that holds keychain secrets does to keep other processes and core dumps away
/// from its memory.
package enum ProcessProtection {
    /// Makes the process non-dumpable and sets its core-file limit to zero.
    ///
    /// Non-dumpable (`prctl(PR_SET_DUMPABLE, 0)`), another process of the same user can neither
    /// read `/proc/PID/mem` nor attach a debugger (root still can), and the kernel writes no core
    /// file. The zero core limit covers the systems where the first call does not exist.
    /// - Returns: Whether the process is now non-dumpable.
    @discardableResult
    package static func harden() -> Bool {
        _ = c_keychain_disable_core_files()
        return c_keychain_set_non_dumpable() == 0 && c_keychain_is_dumpable() == 0
    }

    /// Whether the process is non-dumpable.
    package static var isHardened: Bool {
        c_keychain_is_dumpable() == 0
    }
}
