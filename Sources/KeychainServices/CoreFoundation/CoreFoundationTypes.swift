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
@_exported public import Foundation

// The Core Foundation spellings that keychain code uses, as aliases of Foundation's classes.
//
// Linux has no toll-free bridging: its CoreFoundation module's types cannot be reached with `as`
// from Swift values. These aliases make the usual call sites compile and behave as on Apple
// platforms: `query as CFDictionary`, `kSecClass as String`, `var result: CFTypeRef?`,
// `result as? Data`, `result as? [String: Any]`. Do not also `import CoreFoundation` in a file that
// uses them: that module declares different types with the same names.

/// Any Core Foundation object.
public typealias CFTypeRef = AnyObject
/// An immutable dictionary (`NSDictionary`).
public typealias CFDictionary = NSDictionary
/// A mutable dictionary (`NSMutableDictionary`).
public typealias CFMutableDictionary = NSMutableDictionary
/// An immutable string (`NSString`).
public typealias CFString = NSString
/// Immutable bytes (`NSData`).
public typealias CFData = NSData
/// Mutable bytes (`NSMutableData`).
public typealias CFMutableData = NSMutableData
/// An immutable array (`NSArray`).
public typealias CFArray = NSArray
/// A number (`NSNumber`).
public typealias CFNumber = NSNumber
/// A Boolean (`NSNumber`, as `kCFBooleanTrue` is on Apple platforms).
public typealias CFBoolean = NSNumber
/// A date (`NSDate`).
public typealias CFDate = NSDate
/// An error (`NSError`).
public typealias CFError = NSError
/// The domain of a `CFError`.
public typealias CFErrorDomain = CFString
/// A signed index or count.
public typealias CFIndex = Int
/// Option bits.
public typealias CFOptionFlags = UInt
/// A Core Foundation type identifier.
public typealias CFTypeID = UInt
/// A status code of the Security framework.
public typealias OSStatus = Int32

/// A Boolean as Apple's C APIs store it (`Boolean`), for the calls that fill one in.
public struct DarwinBoolean: ExpressibleByBooleanLiteral, Hashable, Sendable, CustomStringConvertible {
    /// The value.
    public var boolValue: Bool

    public init(_ value: Bool) {
        boolValue = value
    }

    public init(booleanLiteral value: Bool) {
        boolValue = value
    }

    public var description: String {
        boolValue.description
    }
}

/// A memory allocator.
///
/// Every allocator argument is ignored; pass `nil` or `kCFAllocatorDefault`.
public final class CFAllocator: Sendable {
    private init() {}
}

/// The default allocator (`nil`, as every allocator argument is ignored).
public let kCFAllocatorDefault: CFAllocator? = nil

// Apple's spelling: Swift imports both constants as `CFBoolean!`, so code written for Apple
// platforms compiles unchanged.
// swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
/// The Boolean true value.
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
// swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
/// The Boolean false value.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)

/// The `Info.plist` key of a bundle's identifier.
nonisolated(unsafe) public let kCFBundleIdentifierKey: CFString = SecConstantString("CFBundleIdentifier")

// The CFError functions with the signatures Swift imports on Apple platforms (implicitly unwrapped,
// and no warning for an unused result, as for every imported C function),
// so that `CFErrorGetDomain(error) as String` compiles as it does there.

/// Returns the code of an error.
@discardableResult
public func CFErrorGetCode(_ error: CFError!) -> CFIndex {
    error.code
}

/// Returns the domain of an error.
@discardableResult
public func CFErrorGetDomain(_ error: CFError!) -> CFErrorDomain! {
    error.domain as NSString
}

/// Returns the user-info dictionary of an error.
@discardableResult
public func CFErrorCopyUserInfo(_ error: CFError!) -> CFDictionary! {
    error.userInfo as NSDictionary
}

/// Returns a description of an error.
@discardableResult
public func CFErrorCopyDescription(_ error: CFError!) -> CFString! {
    error.localizedDescription as NSString
}

/// Returns why an error happened, if it says.
@discardableResult
public func CFErrorCopyFailureReason(_ error: CFError!) -> CFString! {
    error.localizedFailureReason.map { $0 as NSString }
}

/// Returns what to do about an error, if it says.
@discardableResult
public func CFErrorCopyRecoverySuggestion(_ error: CFError!) -> CFString! {
    error.localizedRecoverySuggestion.map { $0 as NSString }
}
#endif
