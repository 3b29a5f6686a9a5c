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
import KeychainCore

// The compact forms of what item requests and replies carry. Each writes its fields in one fixed
// order and reads them back in that order; `CompactFormTests` checks that every field survives by
// comparing with the general format, so a field added to a type must be added here too.

extension CompactWriter {
    mutating func attributes(_ attributes: [String: AttributeValue]) {
        array(attributes) { writer, pair in
            writer.string(pair.key)
            writer.attributeValue(pair.value)
        }
    }

    mutating func attributeValue(_ value: AttributeValue) {
        switch value {
        case .string(let string):
            byte(0)
            self.string(string)
        case .data(let data):
            byte(1)
            self.data(data)
        case .number(let number):
            byte(2)
            signed(number)
        case .bool(let bool):
            byte(3)
            self.bool(bool)
        case .date(let date):
            byte(4)
            double(date.timeIntervalSinceReferenceDate)
        }
    }

    mutating func accessControl(_ accessControl: AccessControl) {
        string(accessControl.protection.rawValue)
        unsigned(UInt64(accessControl.flags))
    }

    mutating func persistentReference(_ reference: PersistentReference) {
        string(reference.itemClass.rawValue)
        data(reference.identifier)
    }

    mutating func query(_ query: ItemQuery) {
        string(query.itemClass.rawValue)
        attributes(query.attributes)
        bool(query.matchesAnySynchronizable)
        optional(query.protection) { $0.string($1.rawValue) }
        optional(query.accessControl) { $0.accessControl($1) }
        optional(query.valueData) { $0.data($1) }
        optional(query.persistentReference) { $0.persistentReference($1) }
        switch query.matchLimit {
        case .one: byte(0)
        case .all: byte(1)
        case .count(let count):
            byte(2)
            signed(Int64(count))
        }
        byte(query.returnTypes.rawValue)
        string(query.authenticationUI.rawValue)
        optional(query.operationPrompt) { $0.string($1) }
        optional(query.credentialReference) { $0.data($1.data) }
        optional(query.accessGroups) { writer, groups in
            writer.array(groups.groups) { $0.string($1) }
            writer.array(groups.excluded) { $0.string($1) }
        }
        optional(query.hostOrSubdomainOf) { $0.string($1) }
        optional(query.keyOperation) { writer, operation in
            switch operation {
            case .generate:
                writer.byte(0)
            case .sign(let digest):
                writer.byte(1)
                writer.data(digest)
            case .keyExchange(let publicKey):
                writer.byte(2)
                writer.data(publicKey)
            case .generateWrapped(let compactRepresentable):
                writer.byte(3)
                writer.byte(compactRepresentable ? 1 : 0)
            case .publicKeyOfWrapped(let blob):
                writer.byte(4)
                writer.data(blob)
            case .signWrapped(let blob, let digest):
                writer.byte(5)
                writer.data(blob)
                writer.data(digest)
            case .keyExchangeWrapped(let blob, let publicKey):
                writer.byte(6)
                writer.data(blob)
                writer.data(publicKey)
            }
        }
    }

    mutating func update(_ update: ItemUpdate) {
        attributes(update.attributes)
        optional(update.protection) { $0.string($1.rawValue) }
        optional(update.accessControl) { $0.accessControl($1) }
        optional(update.valueData) { $0.data($1) }
    }

    mutating func result(_ result: ItemResult) {
        string(result.itemClass.rawValue)
        attributes(result.attributes)
        accessControl(result.accessControl)
        optional(result.data) { $0.data($1) }
        persistentReference(result.persistentReference)
    }

    mutating func error(_ error: KeychainError) {
        string(error.code.kind.rawValue)
        string(error.message)
        optional(error.cause.map { String(describing: $0) }) { $0.string($1) }
        string(error.location.file)
        signed(Int64(error.location.line))
        optional(error.authenticationRequest) { writer, request in
            writer.accessControl(request.accessControl)
            writer.signed(Int64(request.operation.rawValue))
            writer.array(request.missingAlternatives) { writer, alternative in
                writer.array(alternative.map(\.rawValue).sorted()) { $0.byte($1) }
            }
        }
    }
}

extension CompactReader {
    mutating func attributes() throws(WireValue.Malformed) -> [String: AttributeValue] {
        // A key's length and a value's tag: two bytes at least. A key given twice is refused.
        let pairs = try array(elementsAtLeast: 2) { reader throws(WireValue.Malformed) in
            (try reader.string(), try reader.attributeValue())
        }
        var attributes: [String: AttributeValue] = [:]
        attributes.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            guard attributes.updateValue(value, forKey: key) == nil else { throw WireValue.Malformed() }
        }
        return attributes
    }

    mutating func attributeValue() throws(WireValue.Malformed) -> AttributeValue {
        switch try byte() {
        case 0: .string(try string())
        case 1: .data(try data())
        case 2: .number(try signed())
        case 3: .bool(try bool())
        case 4: .date(Date(timeIntervalSinceReferenceDate: try double()))
        default: throw WireValue.Malformed()
        }
    }

    mutating func accessControl() throws(WireValue.Malformed) -> AccessControl {
        let protection = try named(ProtectionClass.init(rawValue:))
        guard let flags = UInt(exactly: try unsigned()) else { throw WireValue.Malformed() }
        return AccessControl(protection: protection, flags: flags)
    }

    mutating func persistentReference() throws(WireValue.Malformed) -> PersistentReference {
        PersistentReference(itemClass: try named(ItemClass.init(rawValue:)), identifier: try data())
    }

    mutating func query() throws(WireValue.Malformed) -> ItemQuery {
        var query = ItemQuery(itemClass: try named(ItemClass.init(rawValue:)))
        query.attributes = try attributes()
        query.matchesAnySynchronizable = try bool()
        query.protection = try optional { reader throws(WireValue.Malformed) in
            try reader.named(ProtectionClass.init(rawValue:))
        }
        query.accessControl = try optional { reader throws(WireValue.Malformed) in try reader.accessControl() }
        query.valueData = try optional { reader throws(WireValue.Malformed) in try reader.data() }
        query.persistentReference = try optional { reader throws(WireValue.Malformed) in
            try reader.persistentReference()
        }
        switch try byte() {
        case 0: query.matchLimit = .one
        case 1: query.matchLimit = .all
        case 2: query.matchLimit = .count(try int())
        default: throw WireValue.Malformed()
        }
        query.returnTypes = ReturnTypes(rawValue: try byte())
        query.authenticationUI = try named(AuthenticationUI.init(rawValue:))
        query.operationPrompt = try optional { reader throws(WireValue.Malformed) in try reader.string() }
        query.credentialReference = try optional { reader throws(WireValue.Malformed) in
            guard let reference = ContextReference(try reader.data()) else { throw WireValue.Malformed() }
            return reference
        }
        query.accessGroups = try optional { reader throws(WireValue.Malformed) in
            let groups = try reader.array { reader throws(WireValue.Malformed) in try reader.string() }
            let excluded = try reader.array { reader throws(WireValue.Malformed) in try reader.string() }
            return AccessGroups(groups, excluding: excluded)
        }
        query.hostOrSubdomainOf = try optional { reader throws(WireValue.Malformed) in try reader.string() }
        query.keyOperation = try optional { reader throws(WireValue.Malformed) -> KeyOperation in
            switch try reader.byte() {
            case 0: .generate
            case 1: .sign(digest: try reader.data())
            case 2: .keyExchange(publicKey: try reader.data())
            case 3:
                switch try reader.byte() {
                case 0: .generateWrapped(compactRepresentable: false)
                case 1: .generateWrapped(compactRepresentable: true)
                default: throw WireValue.Malformed()
                }
            case 4: .publicKeyOfWrapped(blob: try reader.data())
            case 5: .signWrapped(blob: try reader.data(), digest: try reader.data())
            case 6: .keyExchangeWrapped(blob: try reader.data(), publicKey: try reader.data())
            default: throw WireValue.Malformed()
            }
        }
        return query
    }

    mutating func update() throws(WireValue.Malformed) -> ItemUpdate {
        var update = ItemUpdate()
        update.attributes = try attributes()
        update.protection = try optional { reader throws(WireValue.Malformed) in
            try reader.named(ProtectionClass.init(rawValue:))
        }
        update.accessControl = try optional { reader throws(WireValue.Malformed) in try reader.accessControl() }
        update.valueData = try optional { reader throws(WireValue.Malformed) in try reader.data() }
        return update
    }

    mutating func result() throws(WireValue.Malformed) -> ItemResult {
        ItemResult(
            itemClass: try named(ItemClass.init(rawValue:)),
            attributes: try attributes(),
            accessControl: try accessControl(),
            data: try optional { reader throws(WireValue.Malformed) in try reader.data() },
            persistentReference: try persistentReference()
        )
    }

    mutating func error() throws(WireValue.Malformed) -> KeychainError {
        let kind = try named(KeychainError.Code.Kind.init(rawValue:))
        let message = try string()
        let cause = try optional { reader throws(WireValue.Malformed) in try reader.string() }
        var error = KeychainError(
            KeychainError.Code(kind),
            message,
            cause: cause.map(DescribedError.init),
            file: try string(),
            line: try int()
        )
        error.authenticationRequest = try optional { reader throws(WireValue.Malformed) in
            let accessControl = try reader.accessControl()
            guard let operation = AccessOperation(rawValue: try reader.int()) else { throw WireValue.Malformed() }
            let missing = try reader.array { reader throws(WireValue.Malformed) in
                Set(
                    try reader.array { reader throws(WireValue.Malformed) in
                        guard let constraint = AccessPolicy.Constraint(rawValue: try reader.byte()) else {
                            throw WireValue.Malformed()
                        }
                        return constraint
                    }
                )
            }
            return AuthenticationRequest(
                accessControl: accessControl,
                operation: operation,
                missingAlternatives: missing
            )
        }
        return error
    }
}
