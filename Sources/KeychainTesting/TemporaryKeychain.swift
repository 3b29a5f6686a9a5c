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

public import Foundation
@_exported public import KeychainDevice

/// A throw-away keychain in a temporary directory, for tests.
///
/// Every `SecItem*` call made inside ``run(_:)`` uses this keychain, in the calling task and its
/// child tasks, so tests that run in parallel each see only their own items. The directory is
/// removed when the value is released. Passcodes use cheap KDF parameters.
///
/// ```swift
/// @Test func storesAToken() throws {
///     let keychain = try TemporaryKeychain()
///     try keychain.run {
///         let status = SecItemAdd([kSecClass as String: kSecClassGenericPassword,
///                                  kSecAttrAccount as String: "me",
///                                  kSecValueData as String: Data("token".utf8)] as CFDictionary, nil)
///         #expect(status == errSecSuccess)
///     }
/// }
/// ```
public final class TemporaryKeychain: Sendable {
    // MARK: Properties

    /// The keychain's device: passcode, lock state.
    public let device: Device
    /// The temporary directory holding the keychain.
    public let directory: URL

    // MARK: Initialization

    /// Creates an empty keychain.
    ///
    /// - Parameters:
    ///   - accessGroups: The access groups the code under test may use; the first receives new items.
    ///   - clock: The clock for item dates and passcode back-off.
    public init(
        accessGroups: [String] = ["default"],
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-keychain-test-\(UUID().uuidString)", isDirectory: true)
        device = try Device(
            home: KeychainHome(url: directory),
            configuration: DeviceConfiguration(accessGroups: accessGroups, passcodeCost: .testing, clock: clock)
        )
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Using

    /// Runs `body` with this keychain as the one `SecItem*` calls use.
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        try Device.withCurrent(device, operation: body)
    }

    /// Runs `body` with this keychain as the one `SecItem*` calls use.
    public func run<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> T {
        try await Device.withCurrent(device, operation: body, isolation: isolation)
    }

    /// Opens a second, independent view of the same keychain, as another process would see it
    /// (locked again if a passcode is set).
    public func reopened(accessGroups: [String]? = nil) throws -> Device {
        try Device(
            home: device.home,
            configuration: DeviceConfiguration(accessGroups: accessGroups ?? ["default"], passcodeCost: .testing)
        )
    }
}
