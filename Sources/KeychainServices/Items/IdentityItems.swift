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
import KeychainCore

/// `kSecClassIdentity` items, as Apple's client and `SecItemDb.c` make them: there is no identity
/// table; an identity is a certificate and a private key whose application label (`klbl`) is the
/// certificate's public-key hash (`pkhh`).
///
/// A query's certificate attributes (label, issuer, serial number, subject and subject key ID)
/// match the certificate, every other attribute the key, the access group both.
///
/// Differences from Apple, on purpose: only private keys pair with a certificate (Apple joins on
/// `priv`, which its software public keys also carry), and deleting or updating identities acts on
/// the pairs found, not on every certificate and every key that match each half of the query.
enum IdentityItems {
    /// The attributes that match the certificate.
    private static let certificateAttributes: Set<String> = [
        "labl", "issr", "slnr", "skid", "subj", "ctyp", "cenc", "pkhh", "alis",
    ]
    /// The keys that are not attributes: how to search, what to return, how to authenticate.
    private static let sharedKeys: Set<String> = [
        QueryKey.authenticationUI, QueryKey.noAuthenticationUI, QueryKey.operationPrompt,
        QueryKey.authenticationContext,
        QueryKey.credentialReference, QueryKey.dataProtectionKeychain, QueryKey.synchronizable, QueryKey.accessGroup,
    ]
    /// The `kSecMatch…` options that filter certificates (``CertificateMatch``).
    private static let certificateMatchKeys: Set<String> = [
        "m_Issuers", "m_Policy", "m_ValidOnDate", "m_TrustedOnly", "m_EmailAddressIfPresent",
        "m_SubjectContains", "m_SubjectStartsWith", "m_SubjectEndsWith", "m_SubjectWholeString", "m_CaseInsensitive",
    ]
    private static let identityReferencePrefix = Data(ItemClass.identity.rawValue.utf8)

    /// The dictionary of a `SecItem*` call when it is an identity operation (its class is
    /// `kSecClassIdentity`, or it names a `SecIdentity`), its objects as they are; `nil` for any other
    /// call, which is told apart by two look-ups without copying the dictionary (every call asks).
    static func identityValues(of dictionary: CFDictionary) -> [String: Any]? {
        let isIdentity =
            dictionary[QueryKey.itemClass] as? String == ItemClass.identity.rawValue
            || dictionary[QueryKey.valueReference] is SecIdentity
            || (dictionary[QueryKey.valuePersistentReference] as? Data)?.starts(with: identityReferencePrefix) == true
        return isIdentity ? values(of: dictionary) : nil
    }

    /// The dictionary of a `SecItem*` call, its objects as they are (a distinguished name under
    /// `kSecAttrIssuer` normalized, as Apple's client does); `nil` when a key is not a string.
    static func values(of dictionary: CFDictionary) -> [String: Any]? {
        guard var values = dictionary as? [String: Any] else { return nil }
        IssuerNormalization.apply(to: &values)
        return values
    }

    // MARK: - Operations

    static func add(_ values: [String: Any], _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
        guard let identity = values[QueryKey.valueReference] as? SecIdentity else { return errSecParam }
        let (certificateHalf, keyHalf) = split(
            values.filter { !$0.key.hasPrefix("r_") && $0.key != QueryKey.itemClass }
        )
        // Apple's client adds the caller's attributes to both halves: the label and the
        // accessibility go to the certificate and the key alike (si-42-identity 645–673).
        var certificateItem = certificateHalf
        certificateItem[QueryKey.valueReference] = identity.certificate
        certificateItem[QueryKey.accessible] = values[QueryKey.accessible]
        var keyItem = keyHalf
        keyItem[QueryKey.valueReference] = identity.privateKey
        keyItem["labl"] = values["labl"]
        let wantsReference = values[QueryKey.returnPersistentReference] as? Bool == true
        if wantsReference { certificateItem[QueryKey.returnPersistentReference] = true }
        var certificateReference: CFTypeRef?
        let certificateStatus = SecItemAdd(certificateItem as CFDictionary, &certificateReference)
        guard certificateStatus == errSecSuccess || certificateStatus == errSecDuplicateItem else {
            return certificateStatus
        }
        let keyStatus = SecItemAdd(keyItem as CFDictionary, nil)
        guard keyStatus == errSecSuccess || keyStatus == errSecDuplicateItem else { return keyStatus }
        // Apple's client: only when both halves were there already is the add a duplicate.
        if certificateStatus == errSecDuplicateItem && keyStatus == errSecDuplicateItem { return errSecDuplicateItem }
        if let result, values[QueryKey.returnReference] as? Bool == true { result.pointee = identity }
        // The identity's persistent reference is its certificate's under the identity class; a
        // certificate that was there already returns none, as Apple's (si-42-identity 583–594).
        if let result, wantsReference, let reference = certificateReference as? Data {
            result.pointee = (identityReferencePrefix + reference.dropFirst(identityReferencePrefix.count)) as NSData
        }
        return errSecSuccess
    }

    static func copyMatching(_ values: [String: Any], _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
        let found: [Pair]
        switch pairs(matching: values, keyReturns: returns(values)) {
        case .success(let pairs): found = pairs
        case .failure(let failure): return failure.status
        }
        let limit = matchLimit(values)
        let selected = limit.map { Array(found.prefix($0)) } ?? found
        guard !selected.isEmpty else { return errSecItemNotFound }
        if let result {
            let shaped = selected.map { shape($0, values) }
            result.pointee = limit == 1 ? shaped[0] : shaped as NSArray
        }
        return errSecSuccess
    }

    static func delete(_ values: [String: Any]) -> OSStatus {
        let found: [Pair]
        switch pairs(matching: values, keyReturns: [:]) {
        case .success(let pairs): found = pairs
        case .failure(let failure): return failure.status
        }
        guard !found.isEmpty else { return errSecItemNotFound }
        for pair in found {
            let status = SecItemDelete([QueryKey.valuePersistentReference: pair.certificateReference] as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { return status }
            // The key goes with its last certificate.
            let others: [String: Any] = [
                QueryKey.itemClass: ItemClass.certificate.rawValue, "pkhh": pair.label,
                QueryKey.synchronizable: QueryKey.synchronizableAny,
            ]
            if SecItemCopyMatching(others as CFDictionary, nil) == errSecItemNotFound {
                let keyStatus = SecItemDelete([QueryKey.valuePersistentReference: pair.keyReference] as CFDictionary)
                guard keyStatus == errSecSuccess || keyStatus == errSecItemNotFound else { return keyStatus }
            }
        }
        return errSecSuccess
    }

    static func update(_ values: [String: Any], _ changes: [String: Any]) -> OSStatus {
        // Apple's client sends an update by an identity's persistent reference to securityd as
        // is, where the identity class has no attributes to change: errSecInternal
        // (secitemfunctionality.m 386–396 asserts it). Update the certificate or key instead.
        if values[QueryKey.valuePersistentReference] != nil, values[QueryKey.valueReference] == nil {
            return errSecInternal
        }
        let found: [Pair]
        switch pairs(matching: values, keyReturns: [:]) {
        case .success(let pairs): found = pairs
        case .failure(let failure): return failure.status
        }
        guard !found.isEmpty else { return errSecItemNotFound }
        let (certificateChanges, keyChanges) = split(changes)
        for pair in found {
            if !certificateChanges.isEmpty {
                let status = SecItemUpdate(
                    [QueryKey.valuePersistentReference: pair.certificateReference] as CFDictionary,
                    certificateChanges as CFDictionary
                )
                guard status == errSecSuccess else { return status }
            }
            if !keyChanges.isEmpty {
                var query: [String: Any] = [QueryKey.valuePersistentReference: pair.keyReference]
                query[QueryKey.authenticationContext] = values[QueryKey.authenticationContext]
                let status = SecItemUpdate(query as CFDictionary, keyChanges as CFDictionary)
                guard status == errSecSuccess else { return status }
            }
        }
        return errSecSuccess
    }

    // MARK: - Pairs

    /// A failed search's status.
    private struct Failure: Error {
        let status: OSStatus
    }

    /// A certificate and its private key, as found.
    private struct Pair {
        var certificate: [String: Any]
        var key: [String: Any]
        var label: Data
        var certificateReference: Data
        var keyReference: Data
    }

    /// The `kSecReturn…` keys a key search needs to shape the results.
    private static func returns(_ values: [String: Any]) -> [String: Any] {
        var returns: [String: Any] = [:]
        if values[QueryKey.returnReference] as? Bool == true { returns[QueryKey.returnReference] = true }
        if values[QueryKey.returnData] as? Bool == true { returns[QueryKey.returnData] = true }
        return returns
    }

    /// The identities `values` names: its certificate half matched against certificates, its key
    /// half against private keys, joined on the public-key hash.
    private static func pairs(matching values: [String: Any], keyReturns: [String: Any]) -> Result<[Pair], Failure> {
        var query = values.filter {
            !$0.key.hasPrefix("r_") && !$0.key.hasPrefix("m_Limit") && $0.key != QueryKey.itemClass
        }
        let reference = query.removeValue(forKey: QueryKey.valueReference)
        let identity = reference as? SecIdentity
        if reference != nil, identity == nil { return .failure(Failure(status: errSecParam)) }
        var certificateReference: Data?
        if let persistent = query.removeValue(forKey: QueryKey.valuePersistentReference) {
            // An identity's persistent reference is its certificate's, under the identity class.
            guard let data = persistent as? Data, data.starts(with: identityReferencePrefix) else {
                return .failure(Failure(status: errSecParam))
            }
            certificateReference =
                Data(ItemClass.certificate.rawValue.utf8) + data.dropFirst(identityReferencePrefix.count)
        }
        var (certificateQuery, keyQuery) = split(query)
        certificateQuery[QueryKey.itemClass] = ItemClass.certificate.rawValue
        certificateQuery[QueryKey.matchLimit] = QueryKey.matchLimitAll
        certificateQuery[QueryKey.returnAttributes] = true
        certificateQuery[QueryKey.returnData] = true
        certificateQuery[QueryKey.returnPersistentReference] = true
        if let identity { certificateQuery[QueryKey.valueReference] = identity.certificate }
        if let certificateReference {
            certificateQuery = certificateQuery.filter {
                sharedKeys.contains($0.key) || $0.key.hasPrefix("r_") || $0.key.hasPrefix("m_")
            }
            certificateQuery[QueryKey.itemClass] = nil
            certificateQuery[QueryKey.valuePersistentReference] = certificateReference
        }
        keyQuery[QueryKey.itemClass] = ItemClass.key.rawValue
        keyQuery["kcls"] = 1
        keyQuery[QueryKey.matchLimit] = QueryKey.matchLimitAll
        keyQuery[QueryKey.returnAttributes] = true
        keyQuery[QueryKey.returnPersistentReference] = true
        keyQuery.merge(keyReturns) { $1 }
        if let identity { keyQuery[QueryKey.valueReference] = identity.privateKey }

        var certificates: CFTypeRef?
        let certificateStatus = SecItemCopyMatching(certificateQuery as CFDictionary, &certificates)
        guard certificateStatus == errSecSuccess else {
            return certificateStatus == errSecItemNotFound ? .success([]) : .failure(Failure(status: certificateStatus))
        }
        var byLabel: [Data: [[String: Any]]] = [:]
        for certificate in (certificates as? [[String: Any]]) ?? [] {
            guard let hash = certificate["pkhh"] as? Data else { continue }
            byLabel[hash, default: []].append(certificate)
        }
        guard !byLabel.isEmpty else { return .success([]) }
        keyQuery["klbl"] = byLabel.count == 1 ? byLabel.keys.first : nil
        var keys: CFTypeRef?
        let keyStatus = SecItemCopyMatching(keyQuery as CFDictionary, &keys)
        guard keyStatus == errSecSuccess else {
            return keyStatus == errSecItemNotFound ? .success([]) : .failure(Failure(status: keyStatus))
        }
        var pairs: [Pair] = []
        for key in (keys as? [[String: Any]]) ?? [] {
            guard let label = key["klbl"] as? Data, let keyReference = key[QueryKey.valuePersistentReference] as? Data
            else { continue }
            for certificate in byLabel[label] ?? [] {
                guard let certificateReferenceData = certificate[QueryKey.valuePersistentReference] as? Data else {
                    continue
                }
                pairs.append(
                    Pair(
                        certificate: certificate,
                        key: key,
                        label: label,
                        certificateReference: certificateReferenceData,
                        keyReference: keyReference
                    )
                )
            }
        }
        return .success(pairs)
    }

    /// A query or attribute set split into what the certificate and the key each take.
    private static func split(_ values: [String: Any]) -> (certificate: [String: Any], key: [String: Any]) {
        var certificate: [String: Any] = [:]
        var key: [String: Any] = [:]
        for (name, value) in values {
            if certificateMatchKeys.contains(name) {
                // The certificate options filter identities by their certificate (Apple's server).
                certificate[name] = value
            } else if sharedKeys.contains(name) || name.hasPrefix("m_") || name.hasPrefix("u_") {
                certificate[name] = value
                key[name] = value
            } else if certificateAttributes.contains(name) {
                certificate[name] = value
            } else {
                key[name] = value
            }
        }
        return (certificate, key)
    }

    private static func matchLimit(_ values: [String: Any]) -> Int? {
        switch values[QueryKey.matchLimit] {
        case nil: 1
        case let limit as String where limit == QueryKey.matchLimitAll: nil
        case let number as NSNumber: number.intValue
        default: 1
        }
    }

    /// One identity in the shape the `kSecReturn…` keys ask for.
    private static func shape(_ pair: Pair, _ values: [String: Any]) -> AnyObject {
        let wantsReference = values[QueryKey.returnReference] as? Bool == true
        let wantsAttributes = values[QueryKey.returnAttributes] as? Bool == true
        let wantsData = values[QueryKey.returnData] as? Bool == true
        let wantsPersistent = values[QueryKey.returnPersistentReference] as? Bool == true
        let persistent = identityReferencePrefix + pair.certificateReference.dropFirst(identityReferencePrefix.count)
        let identity = identityObject(pair)
        switch (wantsReference, wantsAttributes, wantsData, wantsPersistent) {
        case (true, false, false, false): return identity ?? NSNull()
        case (false, false, true, false): return ((pair.key[QueryKey.valueData] as? Data) ?? Data()) as NSData
        case (false, false, false, true): return persistent as NSData
        default:
            // Apple's server merges the key's attributes with the certificate's (the certificate's
            // win) and adds the certificate's DER as `certdata`.
            var dictionary: [String: Any] = [:]
            if wantsAttributes {
                dictionary = pair.key.filter { !$0.key.hasPrefix("v_") }
                dictionary.merge(pair.certificate.filter { !$0.key.hasPrefix("v_") }) { $1 }
                dictionary["certdata"] = pair.certificate[QueryKey.valueData]
            }
            if wantsReference {
                dictionary[QueryKey.valueReference] = identity
                dictionary[QueryKey.itemClass] = ItemClass.identity.rawValue
            }
            if wantsData { dictionary[QueryKey.valueData] = pair.key[QueryKey.valueData] }
            if wantsPersistent { dictionary[QueryKey.valuePersistentReference] = persistent }
            return dictionary as NSDictionary
        }
    }

    private static func identityObject(_ pair: Pair) -> SecIdentity? {
        guard let der = pair.certificate[QueryKey.valueData] as? Data,
            let certificate = SecCertificateCreateWithData(nil, der as NSData),
            let key = pair.key[QueryKey.valueReference] as? SecKey
        else { return nil }
        return SecIdentity(certificate: certificate, privateKey: key)
    }
}
#endif
