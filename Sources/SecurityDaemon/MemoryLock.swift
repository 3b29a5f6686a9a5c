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

/// Keeps the daemon's memory — class keys, constraint keys, passcodes while they are checked — out of
/// swap, where the system allows it.
///
/// `mlockall` with `MCL_FUTURE` makes every later allocation count against `RLIMIT_MEMLOCK`; with
/// a finite limit (8 MiB for users, by default) an allocation past it would fail and end the
/// daemon, so memory is locked only when the limit is unlimited: as root, or under systemd with
/// `LimitMEMLOCK=infinity`. Pages are locked as they are first touched (`MCL_ONFAULT`), so the
/// daemon's resident size does not grow by what it merely reserved.
enum MemoryLock {
    /// The outcome of ``lockIfAllowed()``.
    enum Outcome: Equatable {
        case locked
        /// The limit is finite: locking everything could end the daemon.
        case limited(bytes: UInt64)
        case failed(errno: Int32)
    }

    /// Locks the process's memory when the locked-memory limit is unlimited.
    static func lockIfAllowed() -> Outcome {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit) == 0 else {
            return .failed(errno: errno)
        }
        guard limit.rlim_cur == rlim_t.max else { return .limited(bytes: UInt64(limit.rlim_cur)) }
        // MCL_ONFAULT (Linux 4.4): lock pages as they are touched.
        let onFault: Int32 = 4
        if mlockall(MCL_CURRENT | MCL_FUTURE | onFault) == 0 { return .locked }
        // An older kernel without MCL_ONFAULT.
        return mlockall(MCL_CURRENT | MCL_FUTURE) == 0 ? .locked : .failed(errno: errno)
    }
}
