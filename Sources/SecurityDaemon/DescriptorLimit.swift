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

/// The daemon's open-descriptor limit, raised to what its clients' shares need.
///
/// Each connection is a descriptor; the soft limit a process starts with (1,024 on most systems)
/// is less than one user's share in system mode times a few users. The daemon raises it to the
/// hard limit (at most ``wanted``), which needs no privilege.
enum DescriptorLimit {
    /// The most descriptors the daemon asks for.
    static let wanted: rlim_t = 65_536

    /// The soft limit in force.
    static var current: rlim_t {
        var limit = rlimit()
        return getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? limit.rlim_cur : 1024
    }

    /// Raises the soft limit; the limit in force afterwards.
    @discardableResult
    static func raise() -> rlim_t {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let target = min(limit.rlim_max, wanted)
        if limit.rlim_cur < target {
            limit.rlim_cur = target
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 {
                _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            }
        }
        return limit.rlim_cur
    }
}
