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
import GRDB
import KeychainContract
import KeychainCore

/// A row as a backup sees it: an item to write, or why it stays.
enum BackupCandidate {
    case item(BackupItem)
    case omitted(BackupOmission)
}

extension Keychain {
    /// The classes a backup holds, in the order it holds them.
    static let backedUpClasses: [ItemClass] = [.genericPassword, .internetPassword, .certificate, .key]

    /// How many rows the backup will look at (every row of every class).
    func rowCount() throws(KeychainError) -> Int {
        try store.read { db throws(KeychainError) in
            var total = 0
            for itemClass in Self.backedUpClasses { total += try ItemTable(itemClass).count(in: db) }
            return total
        }
    }

    /// Rows read per transaction: the sink may wait for a slow client, and no read transaction
    /// may stay open meanwhile (it would keep the log from being truncated, old pages with it).
    static let backupPage = 256
    /// Ciphertext bytes read per page, at most: items may be megabytes each.
    static let backupPageBytes = 16 << 20

    /// Calls `body` with every item that may leave the device, and counts the ones left out.
    ///
    /// What stays (Apple's `SecServerCopyKeychainPlist` with the backup filter): the
    /// `…ThisDeviceOnly` items, token keys; here also items bound to the enrolled set of fingers,
    /// and items whose access control `credentials` do not satisfy, or that need an application
    /// password (which no other keychain could ask for). Every access group's items are read: only
    /// the user's own programs may ask for a backup. The table is read in pages, each in a
    /// transaction of its own, and `body` called between them: an item added or deleted meanwhile
    /// may or may not be in the backup.
    ///
    /// - Parameters:
    ///   - credentials: What the backup's authentication context earned (the passcode).
    ///   - visited: Called after each page with the number of rows seen so far.
    ///   - body: Receives each item; returns `false` to leave it out as too large.
    /// - Returns: What was written and what was left out, by reason.
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` while the keychain is locked; what
    ///   `body` throws.
    func forEachItemLeavingTheDevice(
        credentials: AuthenticationCredentials,
        visited: (Int) -> Void,
        _ body: (BackupItem) throws(KeychainError) -> Bool
    ) throws(KeychainError) -> BackupSummary {
        var summary = BackupSummary()
        var seen = 0
        for itemClass in Self.backedUpClasses {
            var after: Int64 = 0
            while true {
                let (page, last) = try store.read { db throws(KeychainError) -> ([BackupCandidate], Int64?) in
                    let tiers = try refreshLookupTiers(in: db)
                    guard keybag.classKey(.whenUnlocked) != nil else {
                        throw KeychainError(.interactionNotAllowed, "unlock the keychain to back it up")
                    }
                    let read = try ItemTable(itemClass).page(
                        after: after,
                        limit: Self.backupPage,
                        maximumBytes: Self.backupPageBytes,
                        in: db
                    )
                    var candidates = try read.rows.map { row throws(KeychainError) in
                        try candidate(row, itemClass: itemClass, tiers: tiers, credentials: credentials, in: db)
                    }
                    candidates += Array(repeating: .omitted(.undecryptable), count: read.unreadable)
                    return (candidates, read.last)
                }
                guard let last else { break }
                after = last
                for candidate in page {
                    switch candidate {
                    case .item(let item):
                        if try body(item) { summary.written += 1 } else { summary.omitted[.tooLarge, default: 0] += 1 }
                    case .omitted(let omission):
                        summary.omitted[omission, default: 0] += 1
                    }
                }
                seen += page.count
                visited(seen)
            }
        }
        return summary
    }

    /// Why a backup leaves an item with this access control and these attributes on the device.
    ///
    /// `nil` when it may leave (if its secret can be opened). A restore never replaces such an item either.
    static func omission(of accessControl: AccessControl, attributes: [String: AttributeValue]) -> BackupOmission? {
        if accessControl.protection.isThisDeviceOnly { return .thisDeviceOnly }
        if attributes[QueryKey.tokenID] != nil { return .enclaveKey }
        if accessControl.flags & AccessControl.biometryCurrentSet != 0 { return .biometrySetBound }
        // Another keychain could re-create the access control only by asking for the password.
        if accessControl.flags & AccessControl.applicationPassword != 0 { return .needsAuthentication }
        return nil
    }

    /// The item a row holds, as a backup keeps it, or why it stays on the device.
    private func candidate(
        _ row: ItemRow,
        itemClass: ItemClass,
        tiers: LookupTiers,
        credentials: AuthenticationCredentials,
        in db: Database
    ) throws(KeychainError) -> BackupCandidate {
        let item: StoredItem
        let metadata = Result { () throws(KeychainError) in
            try codec.openMetadata(row, itemClass: itemClass, tiers: tiers)
        }
        switch metadata {
        case .success(let opened): item = opened
        case .failure(let error) where error.code == .itemInvalidated: return .omitted(.thisDeviceOnly)
        case .failure(let error) where error.code == .decode: return .omitted(.undecryptable)
        case .failure(let error): throw error
        }
        if let omission = Self.omission(of: item.accessControl, attributes: item.attributes) {
            return .omitted(omission)
        }
        let opened = Result { () throws(KeychainError) in
            try codec.openSecret(
                row,
                item: item,
                credentials: credentials,
                operation: .useItem,
                currentConstraints: { () throws(KeychainError) in try keybagService.constraints(in: db) }
            )
        }
        switch opened {
        case .success(let secret):
            var attributes = item.attributes
            attributes[StoredItem.publicKeyMark] = nil
            return .item(
                BackupItem(
                    itemClass: itemClass,
                    identifier: item.identifier,
                    accessControl: item.accessControl,
                    attributes: attributes,
                    secret: secret
                )
            )
        case .failure(let error) where error.code == .authenticationNeeded || error.code == .authenticationFailed:
            return .omitted(.needsAuthentication)
        case .failure(let error) where error.code == .decode || error.code == .itemInvalidated:
            return .omitted(.undecryptable)
        case .failure(let error):
            throw error
        }
    }
}
