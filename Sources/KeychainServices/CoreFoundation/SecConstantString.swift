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

/// The string of a `kSec…` constant: an `NSString`, as every `CFString` is here, that stands for
/// its `String` in `AnyHashable`.
///
/// On Apple platforms a `CFString` bridges to `String`, so `AnyHashable(kSecAttrAccount) ==
/// AnyHashable("acct")`, and `result[kSecAttrAccount]` finds the account in an `[AnyHashable: Any]`
/// that came from a result. A plain `NSString` on Linux hashes as an object instead, and those
/// look-ups miss (SwiftKeychainWrapper's `allKeys()`, SimpleKeychain's query tests). Everything else
/// is an `NSString`'s: `as String`, `isEqual`, `hash`, `switch` over constants, `===` identity.
///
/// Foundation on Linux exports no initializer of `NSString` but the literal one for subclasses, so
/// this class keeps its characters itself and answers the two primitive methods of the cluster.
final class SecConstantString: NSString, _HasCustomAnyHashableRepresentation {
    private let value: String
    private let units: [unichar]

    init(_ value: String) {
        self.value = value
        units = Array(value.utf16)
        super.init(stringLiteral: "")
    }

    required convenience init(string aString: String) { self.init(aString) }
    required convenience init(stringLiteral value: StaticString) { self.init(value.description) }
    required convenience init(unicodeScalarLiteral value: StaticString) { self.init(value.description) }
    required convenience init(extendedGraphemeClusterLiteral value: StaticString) { self.init(value.description) }
    required init?(coder: NSCoder) { nil }

    override var length: Int { units.count }
    override func character(at index: Int) -> unichar { units[index] }
    override var description: String { value }

    func _toCustomAnyHashable() -> AnyHashable? { AnyHashable(value) }
}
#endif
