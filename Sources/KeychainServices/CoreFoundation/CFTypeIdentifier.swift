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
import Foundation

/// The type identifiers `CFGetTypeID` answers on Linux: one per class, fixed for the process, so
/// that `CFGetTypeID(value) == SecKeyGetTypeID()` tells what a `CFTypeRef` is, as on Apple
/// platforms (where the numbers are assigned at run time and differ between releases).
enum CFTypeIdentifier: CFTypeID {
    case other = 0
    case string = 7
    case dictionary = 18
    case array = 19
    case data = 20
    case number = 22
    case date = 42
    case error = 43
    case secKey = 301
    case secCertificate = 302
    case secAccessControl = 303
    case secIdentity = 304
    case secPolicy = 305

    init(_ object: AnyObject) {
        switch object {
        case is SecKey: self = .secKey
        case is SecCertificate: self = .secCertificate
        case is SecAccessControl: self = .secAccessControl
        case is SecIdentity: self = .secIdentity
        case is SecPolicy: self = .secPolicy
        case is NSString: self = .string
        case is NSDictionary: self = .dictionary
        case is NSArray: self = .array
        case is NSData: self = .data
        case is NSNumber: self = .number
        case is NSDate: self = .date
        case is NSError: self = .error
        default: self = .other
        }
    }
}

/// Returns the type identifier of a Core Foundation object.
@discardableResult
public func CFGetTypeID(_ cf: CFTypeRef!) -> CFTypeID {
    CFTypeIdentifier(cf).rawValue
}

/// The type identifier of strings.
@discardableResult
public func CFStringGetTypeID() -> CFTypeID { CFTypeIdentifier.string.rawValue }
/// The type identifier of dictionaries.
@discardableResult
public func CFDictionaryGetTypeID() -> CFTypeID { CFTypeIdentifier.dictionary.rawValue }
/// The type identifier of arrays.
@discardableResult
public func CFArrayGetTypeID() -> CFTypeID { CFTypeIdentifier.array.rawValue }
/// The type identifier of data.
@discardableResult
public func CFDataGetTypeID() -> CFTypeID { CFTypeIdentifier.data.rawValue }
/// The type identifier of numbers.
@discardableResult
public func CFNumberGetTypeID() -> CFTypeID { CFTypeIdentifier.number.rawValue }
/// The type identifier of certificates.
@discardableResult
public func SecCertificateGetTypeID() -> CFTypeID { CFTypeIdentifier.secCertificate.rawValue }
/// The type identifier of access control objects.
@discardableResult
public func SecAccessControlGetTypeID() -> CFTypeID { CFTypeIdentifier.secAccessControl.rawValue }
/// The type identifier of trust policies.
@discardableResult
public func SecPolicyGetTypeID() -> CFTypeID { CFTypeIdentifier.secPolicy.rawValue }
#endif
