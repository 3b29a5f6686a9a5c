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

import ArgumentParser
import Foundation
import KeychainDevice
import KeychainServices

/// Apple's accessibility names for the `--accessible` option.
enum Accessibility {
    static var all: [(String, CFString)] {
        [
            ("WhenUnlocked", kSecAttrAccessibleWhenUnlocked),
            ("AfterFirstUnlock", kSecAttrAccessibleAfterFirstUnlock),
            ("Always", kSecAttrAccessibleAlways),
            ("WhenPasscodeSetThisDeviceOnly", kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly),
            ("WhenUnlockedThisDeviceOnly", kSecAttrAccessibleWhenUnlockedThisDeviceOnly),
            ("AfterFirstUnlockThisDeviceOnly", kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly),
            ("AlwaysThisDeviceOnly", kSecAttrAccessibleAlwaysThisDeviceOnly),
        ]
    }

    static var names: String { all.map(\.0).joined(separator: ", ") }

    /// The value for `WhenUnlocked` or `kSecAttrAccessibleWhenUnlocked`.
    static func value(named name: String) -> CFString? {
        let short = name.hasPrefix("kSecAttrAccessible") ? String(name.dropFirst("kSecAttrAccessible".count)) : name
        return all.first { $0.0 == short }?.1
    }
}

/// The `--access-control` option: `SecAccessControlCreateFlags` by name, comma-separated.
enum AccessControlOption {
    static var all: [(String, SecAccessControlCreateFlags)] {
        [
            ("userPresence", .userPresence),
            ("biometryAny", .biometryAny),
            ("biometryCurrentSet", .biometryCurrentSet),
            ("devicePasscode", .devicePasscode),
            ("companion", .companion),
            ("or", .or),
            ("and", .and),
            ("privateKeyUsage", .privateKeyUsage),
            ("applicationPassword", .applicationPassword),
        ]
    }

    /// The access control for `spec` (`biometryCurrentSet,or,devicePasscode`), validated as
    /// `SecAccessControlCreateWithFlags` validates it; a bad spec is a usage error (exit 2).
    static func make(_ spec: String, protection: CFString) throws -> SecAccessControl {
        var flags: SecAccessControlCreateFlags = []
        for name in spec.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            let short = name.hasPrefix("kSecAccessControl") ? String(name.dropFirst("kSecAccessControl".count)) : name
            guard let flag = all.first(where: { $0.0.lowercased() == short.lowercased() })?.1 else {
                Terminal.printError(
                    "security: unknown access-control flag \(name); use \(all.map(\.0).joined(separator: ", "))"
                )
                throw ExitCode(2)
            }
            flags.insert(flag)
        }
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(nil, protection, flags, &error) else {
            let message = error?.takeRetainedValue().localizedDescription ?? "invalid access control"
            Terminal.printError("security: \(message)")
            throw ExitCode(2)
        }
        return access
    }
}
