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

import CoreFoundation
import Foundation

/// The processor time the calling thread has used: a bound on work (a chain's evaluation runs on
/// the thread that asks for it) that a machine busy with the rest of the suite does not stretch,
/// as it stretches the wall clock.
enum ThreadTime {
    static var now: Duration {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}
