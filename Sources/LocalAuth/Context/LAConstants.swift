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
public import Foundation

/// The longest time, in seconds, a device unlock may be reused for Touch ID authentication.
///
/// The upper bound of `LAContext.touchIDAuthenticationAllowableReuseDuration`; larger values
/// are clamped to it. The value matches Apple's LocalAuthentication framework.
public let LATouchIDAuthenticationMaximumAllowableReuseDuration: TimeInterval = 300

/// A pointer through which a method returns an error, as Objective-C's `NSError **` imports on
/// Darwin (`canEvaluatePolicy(_:error: &error)`); swift-corelibs-foundation does not declare it.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

#endif
