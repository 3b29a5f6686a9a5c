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

import GRDB
import KeychainCore

extension SQLiteItemStore {
    /// The schema, as named, append-only migrations.
    ///
    /// Never edit a shipped migration: add one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("v1-keybag") { db in
            // The keybag: salts, passcode KDF parameters, and the look-up key sealed under the device key.
            try db.execute(
                sql: """
                    CREATE TABLE keybag (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        version INTEGER NOT NULL,
                        device_salt BLOB NOT NULL,
                        passcode_salt BLOB,
                        kdf_rounds INTEGER NOT NULL,
                        kdf_block_size INTEGER NOT NULL,
                        kdf_parallelism INTEGER NOT NULL,
                        has_passcode INTEGER NOT NULL,
                        lookup_key BLOB NOT NULL
                    );
                    CREATE TABLE class_key (
                        pdmn TEXT PRIMARY KEY NOT NULL,
                        wrapped BLOB NOT NULL
                    );
                    CREATE TABLE passcode_attempts (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        failures INTEGER NOT NULL,
                        last_failure REAL
                    );
                    """
            )
        }

        migrator.registerMigration("v1-items") { db in
            for itemClass in ItemClass.storedClasses {
                let table = itemClass.tableName
                let keyColumns = ItemSchema.of(itemClass).primaryKey.map { "\($0.code) BLOB NOT NULL" }
                try db.execute(
                    sql: """
                        CREATE TABLE \(table) (
                            rowid INTEGER PRIMARY KEY,
                            uuid BLOB NOT NULL UNIQUE,
                            pdmn BLOB NOT NULL,
                            pkey BLOB NOT NULL UNIQUE,
                            \(keyColumns.joined(separator: ",\n    ")),
                            mkey BLOB NOT NULL,
                            data BLOB NOT NULL,
                            skey BLOB NOT NULL,
                            v_Data BLOB NOT NULL
                        )
                        """
                )
            }
            try db.execute(
                sql: """
                    CREATE INDEX genp_svce_acct ON genp (svce, acct);
                    CREATE INDEX genp_acct ON genp (acct);
                    CREATE INDEX inet_srvr_acct ON inet (srvr, acct);
                    CREATE INDEX inet_acct ON inet (acct);
                    CREATE INDEX cert_issr_slnr ON cert (issr, slnr);
                    CREATE INDEX keys_klbl ON keys (klbl);
                    CREATE INDEX keys_atag ON keys (atag);
                    """
            )
        }

        migrator.registerMigration("v2-access-control") { db in
            // Locks: key pairs that access-controlled items are sealed to (passcode, biometry).
            // Biometric failures count across processes; the simulated sensor keeps its state here
            // so that separate processes can script it.
            try db.execute(
                sql: """
                    CREATE TABLE lock_key (
                        kind INTEGER PRIMARY KEY NOT NULL,
                        key_id BLOB NOT NULL,
                        public_key BLOB NOT NULL,
                        wrapped_private BLOB NOT NULL,
                        domain_hash BLOB
                    );
                    CREATE TABLE biometry_attempts (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        failures INTEGER NOT NULL
                    );
                    CREATE TABLE simulated_sensor (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        biometry_type INTEGER NOT NULL
                    );
                    CREATE TABLE simulated_enrolment (
                        name TEXT PRIMARY KEY NOT NULL,
                        enrolled REAL NOT NULL
                    );
                    CREATE TABLE simulated_outcome (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        outcome TEXT NOT NULL
                    );
                    """
            )
        }

        migrator.registerMigration("v3-lock-key-integrity") { db in
            // An integrity code per lock row, so that a damaged lock is not taken for a replaced one.
            try db.execute(sql: "ALTER TABLE lock_key ADD COLUMN mac BLOB")
        }

        migrator.registerMigration("v4-protected-lookup-key") { db in
            // The look-up key of the passcode-protected classes, sealed by the cku class key. Existing
            // rows are re-hashed under it at the first unlock (Keychain.separateLookupTiers).
            try db.execute(sql: "ALTER TABLE keybag ADD COLUMN protected_lookup_key BLOB")
        }

        migrator.registerMigration("v5-sealed-keybag") { db in
            // The keybag as one box sealed under the device secret and the keybag secret (keybag.key),
            // replaced with a new secret on every write. The keybag, class_key and lock_key tables of
            // older keychains are emptied when the keychain is converted (Keychain+Conversion.swift).
            try db.execute(
                sql: """
                    CREATE TABLE sealed_keybag (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        generation INTEGER NOT NULL,
                        secret_id BLOB NOT NULL,
                        sealed BLOB NOT NULL
                    );
                    """
            )
        }

        migrator.registerMigration("v6-passcode-attempts-in-flight") { db in
            // Passcode attempts whose KDF is running: reserved before it runs, so that guesses made
            // in parallel count against the back-off (Keychain.verify).
            try db.execute(
                sql: """
                    CREATE TABLE passcode_attempt_in_flight (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        started REAL NOT NULL,
                        pid INTEGER NOT NULL
                    );
                    """
            )
        }

        migrator.registerMigration("v7-sensor-source") { db in
            // Which sensor matches fingers (simulated, fprintd, auto), and the random epoch that an
            // enrolment through the keychain's own tool rotates (fprintd does not tell a finger
            // enrolled again from the one it replaced).
            try db.execute(
                sql: """
                    CREATE TABLE sensor_source (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        source TEXT NOT NULL,
                        reader_epoch BLOB
                    );
                    """
            )
        }

        migrator.registerMigration("v8-sync") { db in
            // Synchronisation (see Keychain+SyncJournal.swift): the device's id in its circle, when
            // there is one, and where it is in the server's stream; the changes of synchronizable items not yet pushed, by row identifier,
            // with the version each was given; and every item of the circle this device knows, by
            // the circle's name for it, with its local row (none once deleted) and version.
            try db.execute(
                sql: """
                    CREATE TABLE sync_device (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        device BLOB NOT NULL,
                        cursor TEXT
                    );
                    CREATE TABLE sync_journal (
                        tbl TEXT NOT NULL,
                        uuid BLOB NOT NULL,
                        version BLOB NOT NULL,
                        PRIMARY KEY (tbl, uuid)
                    );
                    CREATE TABLE sync_items (
                        item BLOB PRIMARY KEY NOT NULL,
                        tbl TEXT NOT NULL,
                        uuid BLOB,
                        version BLOB NOT NULL,
                        deleted INTEGER NOT NULL
                    );
                    CREATE INDEX sync_items_uuid ON sync_items (tbl, uuid);
                    """
            )
        }

        return migrator
    }
}
