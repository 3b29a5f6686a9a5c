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
/// is an `NSString`'s: `String(_:)`, `as String`, `isEqual`, `hash`, `switch` over constants, `===`
/// identity.
///
/// corelibs-foundation reads a string's characters two ways: through the cluster's primitive
/// methods (`length`, `character(at:)`), which a subclass answers, and straight from `NSString`'s
/// own storage (`String(_ cocoaString:)` does, and so may any fast path). Both must hold the
/// constant. The only initializer of `NSString` that a subclass can reach and that fills that
/// storage takes a `StaticString`: constants are literals, so the initializer takes one too. Before
/// it did, the storage was empty and `String(kSecAttrAccount)` was `""`.
final class SecConstantString: NSString, _HasCustomAnyHashableRepresentation {
    private let value: String
    private let units: [unichar]

    init(_ literal: StaticString) {
        value = literal.description
        units = Array(value.utf16)
        super.init(stringLiteral: literal)
    }

    required convenience init(stringLiteral value: StaticString) { self.init(value) }
    required convenience init(unicodeScalarLiteral value: StaticString) { self.init(value) }
    required convenience init(extendedGraphemeClusterLiteral value: StaticString) { self.init(value) }
    required init?(coder: NSCoder) { nil }

    // Required by `NSString`, and called by nothing: every constant is a literal. corelibs-foundation
    // exports no initializer that would fill `NSString`'s storage from a `String`, so a string made
    // here reads right through the primitive methods only.
    required init(string aString: String) {
        value = aString
        units = Array(aString.utf16)
        super.init(stringLiteral: "")
    }

    override var length: Int { units.count }
    override func character(at index: Int) -> unichar { units[index] }
    override var description: String { value }

    func _toCustomAnyHashable() -> AnyHashable? { AnyHashable(value) }
}
#endif
