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
@_exported import LocalAuthentication
#else
// Pure Swift: no Foundation import needed.

/// A kind of companion device that can authenticate the user.
///
/// Apple declares this as an integer enumeration, not an option set, and reports several
/// companions as a `Set<LACompanionType>`. Raw values match Apple's LocalAuthentication framework.
public enum LACompanionType: Int, Hashable, Sendable {
    /// A paired Apple Watch.
    case watch = 1
    /// A paired Mac.
    case mac = 2
    /// A paired Apple Vision Pro.
    case vision = 4
}

#endif
