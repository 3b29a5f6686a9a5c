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
import KeychainBus
import KeychainContract
import KeychainCore
import Logging

#if canImport(Glibc)
import Glibc
#endif
// `struct stat`'s fields need the module that declared it for Swift (see DaemonLog).
#if canImport(CDispatch)
import CDispatch
#endif
#if canImport(CoreFoundation)
import CoreFoundation
#endif

/// The Secret portal's backend, `org.freedesktop.impl.portal.Secret` at
/// `/org/freedesktop/portal/desktop`: xdg-desktop-portal asks it for a sandboxed app's secret,
/// which the app then uses to encrypt its own store (libsecret's file backend in a Flatpak).
///
/// The secret is 64 random bytes, made on the app's first request and kept as a keychain item of
/// the app's Secret Service group. Only xdg-desktop-portal may ask: it alone knows which app it
/// speaks for, and any other program could name any app's id.
extension SecretServiceProvider {
    static let portalPath = "/org/freedesktop/portal/desktop"
    static let portalInterface = "org.freedesktop.impl.portal.Secret"
    /// Where distributions install xdg-desktop-portal.
    static let portalExecutables: Set<String> = [
        "/usr/libexec/xdg-desktop-portal", "/usr/lib/xdg-desktop-portal/xdg-desktop-portal",
        "/usr/lib/xdg-desktop-portal",
    ]
    /// The item that keeps an app's portal secret.
    private static let portalCollection = "@portal"
    private static let portalSecretLength = 64

    func portal(_ call: BusCall) throws(BusError) -> [BusValue] {
        switch (call.interface, call.member) {
        case ("org.freedesktop.DBus.Properties", "Get"), ("org.freedesktop.DBus.Properties", "GetAll"):
            let version = BusValue.uint32(1)
            return call.member == "Get" ? [.variant(version)] : [.properties(["version": version])]
        case (Self.portalInterface, "RetrieveSecret"):
            break
        default:
            throw BusError.unknownMethod("\(Self.portalPath) has \(Self.portalInterface).RetrieveSecret")
        }
        let arguments = try arguments(call, "osha{sv}")
        let caller = try caller(call.sender)
        // The portal's executable, and the connection that owns the portal's name: a program
        // that runs the portal's file as a child of its own does not own the name.
        let portalOwner = try? bus.call(
            destination: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus",
            member: "GetNameOwner",
            [.string("org.freedesktop.portal.Desktop")]
        ).first?.string
        guard caller.identity == .unsandboxed, let processID = caller.peer.processID,
            Self.isDesktopPortal(processID: processID), portalOwner == call.sender
        else {
            logger.warning(
                "refused a Secret portal request from a program that is not xdg-desktop-portal",
                metadata: ["keychain.client.program": "\(caller.program ?? "?")"]
            )
            throw BusError.accessDenied("only xdg-desktop-portal may ask for an application's secret")
        }
        guard let appID = arguments[1].string, Self.isApplicationID(appID), case .unixFD(let descriptor) = arguments[2]
        else { throw BusError.invalidArguments("RetrieveSecret takes a Flatpak application id and a file descriptor") }
        let group = ClientIdentity.flatpakGroupPrefix + appID + "/secret-service"
        let secret: Data
        do {
            secret = try portalSecret(group: group)
        } catch {
            logger.notice("cannot give an application its portal secret: the keychain is locked or failed")
            return [.uint32(2), .properties([:])]
        }
        // Never blocking the bus thread: a descriptor that is full, or not a pipe or a socket, fails.
        var status = stat()
        guard fstat(descriptor, &status) == 0,
            status.st_mode & S_IFMT == S_IFIFO || status.st_mode & S_IFMT == S_IFSOCK,
            fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) == 0,
            Self.writeAll(secret, to: descriptor)
        else {
            return [.uint32(2), .properties([:])]
        }
        return [.uint32(0), .properties([:])]
    }

    /// The app's secret, made on first use.
    private func portalSecret(group: String) throws(KeychainError) -> Data {
        do {
            return try store.secret(of: "secret", in: Self.portalCollection, group: group)
        } catch  where error.code == .itemNotFound {
            var generator = SystemRandomNumberGenerator()
            let secret = Data((0..<Self.portalSecretLength).map { _ in generator.next() as UInt8 })
            let now = Date()
            let item = SecretItem(
                id: "secret",
                collection: Self.portalCollection,
                label: "Secret portal",
                attributes: [:],
                contentType: "application/octet-stream",
                created: now,
                modified: now,
                creator: "xdg-desktop-portal"
            )
            try store.add(item, secret: secret, group: group)
            return secret
        }
    }

    /// Whether process `processID` runs the system's xdg-desktop-portal: a program at one of the
    /// places distributions put it, owned by root and writable by nobody else.
    static func isDesktopPortal(processID: Int32) -> Bool {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(processID)/exe"),
            portalExecutables.contains(executable)
        else { return false }
        var status = stat()
        guard stat(executable, &status) == 0 else { return false }
        return status.st_uid == 0 && status.st_mode & (S_IWGRP | S_IWOTH) == 0
    }

    /// A Flatpak app id: reverse-DNS, letters, digits, `.`, `_` and `-`, at most 255 bytes.
    static func isApplicationID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255 && text.contains(".") && !text.hasPrefix(".")
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2E || byte == 0x5F || byte == 0x2D
            }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }
}
