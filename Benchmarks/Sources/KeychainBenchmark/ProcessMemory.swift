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

/// Resident memory of this process, from `/proc/self/status` (Linux).
enum ProcessMemory {
    /// Current resident set size in bytes (`VmRSS`), or `nil` where `/proc` is missing.
    static var resident: Int? { field("VmRSS") }

    /// Peak resident set size in bytes since start or the last ``resetPeak()`` (`VmHWM`).
    static var peakResident: Int? { field("VmHWM") }

    /// Starts a new peak measurement (writing 5 to `clear_refs` resets `VmHWM`).
    static func resetPeak() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }
}
