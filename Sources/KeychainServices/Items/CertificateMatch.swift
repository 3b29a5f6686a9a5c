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
import KeychainCrypto

/// The `kSecMatch…` options that filter certificates (and identities, by their certificate) in a
/// search, as Apple's securityd applies them (`SecItemServer.c` `SecServerMatch_Item`), after the
/// attributes match and before the match limit counts.
///
/// - `kSecMatchIssuers`: DER names; the certificate's issuer, or the issuer of an authority above
///   it in the keychain (by name, up to 10 levels), is one of them (stricter than Apple's, which
///   filters nothing when no name can be read).
/// - `kSecMatchPolicy`: the certificate alone satisfies the policy on `kSecMatchValidOnDate` (or
///   now): its own checks only, but a whole chain to an anchor for the basic and revocation policies.
/// - `kSecMatchValidOnDate`: the date (`kCFNull`: now) is within the validity, ends included.
/// - `kSecMatchTrustedOnly`: the certificate chains to a trusted anchor now (basic policy).
/// - `kSecMatchEmailAddressIfPresent`: one of its e-mail addresses is this one, in any case; a
///   certificate without one is left out, as Apple's is despite the name.
/// - `kSecMatchSubjectContains`, `…StartsWith`, `…EndsWith`, `…WholeString`: its last common name,
///   compared with regard to case unless `kSecMatchCaseInsensitive` (macOS's file keychain; iOS
///   ignores them).
struct CertificateMatch {
    private var issuers: [Data] = []
    /// Whether `kSecMatchIssuers` named no readable issuer: nothing matches.
    private var matchesNoIssuer = false
    private var policy: SecPolicy?
    private var validOnDate: Date?
    private var trustedOnly = false
    private var emailAddress: String?
    private var subject: (kind: String, text: String)?
    private var caseInsensitive = false

    /// The subject options, by key.
    private static let subjectKeys = [
        "m_SubjectContains", "m_SubjectStartsWith", "m_SubjectEndsWith", "m_SubjectWholeString",
    ]

    /// The filter a search's query asks for, or `nil` when it asks for none or its class has no certificates.
    ///
    /// - Parameters:
    ///   - values: The query.
    ///   - itemClass: The class searched.
    /// - Returns: The filter, or `nil` when there is nothing to filter.
    /// - Throws: `invalidParameter` for a value of the wrong type, `unimplemented` for a policy or
    ///   issuers on a class without certificates (Apple's `errSecUnsupportedOperation`).
    static func parse(_ values: [String: Any], itemClass: ItemClass) throws(KeychainError) -> CertificateMatch? {
        var match = CertificateMatch()
        if let value = values["m_Issuers"] {
            // Apple ignores a value that is not an array and entries that are not names — and then
            // filters nothing. A filter that fails open hands out what nobody asked for (an identity
            // for a server that named its issuers): here a wrong type is refused, and a list with no
            // readable name matches nothing.
            guard let issuers = value as? [Any] else { throw invalid("kSecMatchIssuers must be an array of names") }
            match.issuers = issuers.compactMap {
                ($0 as? Data).flatMap(CertificateAttributes.normalizedNameContent(ofDER:))
            }
            match.matchesNoIssuer = match.issuers.isEmpty
        }
        if let policy = values["m_Policy"] {
            guard let policy = policy as? SecPolicy else { throw invalid("kSecMatchPolicy must be a SecPolicy") }
            match.policy = policy
        }
        switch values["m_ValidOnDate"] {
        case nil: break
        case let date as Date: match.validOnDate = date
        case is NSNull: match.validOnDate = Date()
        default: throw invalid("kSecMatchValidOnDate must be a date or kCFNull")
        }
        if let trusted = values["m_TrustedOnly"] {
            guard let value = trusted as? Bool else { throw invalid("kSecMatchTrustedOnly must be a Boolean") }
            match.trustedOnly = value
        }
        if let email = values["m_EmailAddressIfPresent"] {
            guard let address = email as? String else {
                throw invalid("kSecMatchEmailAddressIfPresent must be a string")
            }
            match.emailAddress = address
        }
        for key in subjectKeys {
            guard let text = values[key] else { continue }
            guard let string = text as? String else { throw invalid("\(key) must be a string") }
            match.subject = (key, string)
        }
        match.caseInsensitive = (values["m_CaseInsensitive"] as? Bool) ?? false
        guard itemClass == .certificate || itemClass == .identity else {
            if match.policy != nil || !match.issuers.isEmpty || match.matchesNoIssuer {
                throw KeychainError(.unimplemented, "kSecMatchPolicy and kSecMatchIssuers apply to certificates only")
            }
            return nil
        }
        guard match.filters else { return nil }
        return match
    }

    private static func invalid(_ message: String) -> KeychainError {
        KeychainError(.invalidParameter, message)
    }

    /// Whether any option filters.
    private var filters: Bool {
        !issuers.isEmpty || matchesNoIssuer || policy != nil || validOnDate != nil || trustedOnly || emailAddress != nil
            || subject != nil
    }

    /// The query the engine runs: every match, with the certificate's DER, so that the filter sees
    /// all candidates before the limit counts.
    func widen(_ query: ItemQuery) -> ItemQuery {
        var query = query
        query.matchLimit = .all
        query.returnTypes.insert(.data)
        return query
    }

    /// The items that pass, at most `limit`, without the data the caller did not ask for.
    func select(_ items: [ItemResult], limit: MatchLimit, returnTypes: ReturnTypes) -> [ItemResult] {
        var parents: [(subject: Data, issuer: Data)]?
        var selected: [ItemResult] = []
        for item in items {
            if let maximum = limit.maximum, selected.count >= maximum { break }
            guard let der = item.data, let certificate = SecCertificateCreateWithData(nil, der as NSData),
                admits(certificate, parents: &parents)
            else { continue }
            var kept = item
            if !returnTypes.contains(.data), !returnTypes.contains(.reference) { kept.data = nil }
            selected.append(kept)
        }
        return selected
    }

    /// Whether `certificate` passes every option, in Apple's order.
    private func admits(_ certificate: SecCertificate, parents: inout [(subject: Data, issuer: Data)]?) -> Bool {
        if matchesNoIssuer { return false }
        if !issuers.isEmpty, !chainsToIssuer(certificate, parents: &parents) { return false }
        if let policy, !satisfies(certificate, policy) { return false }
        if let validOnDate {
            guard let validity = CertificateValidity(certificate),
                validity.notBefore < validity.notAfter,
                validity.notBefore <= validOnDate, validOnDate <= validity.notAfter
            else { return false }
        }
        if trustedOnly, !isTrusted(certificate) { return false }
        if let emailAddress {
            var addresses: CFArray?
            SecCertificateCopyEmailAddresses(certificate, &addresses)
            let wanted = emailAddress.lowercased()
            guard ((addresses as? [String]) ?? []).contains(where: { $0.lowercased() == wanted }) else { return false }
        }
        if let subject, !subjectMatches(certificate, subject.kind, subject.text) { return false }
        return true
    }

    /// Apple's `_FilterWithPolicy`: the certificate alone, leaf checks only unless the policy is
    /// the basic or revocation policy.
    private func satisfies(_ certificate: SecCertificate, _ policy: SecPolicy) -> Bool {
        guard let evaluator = LinkedTrustEvaluator.evaluator else { return false }
        var request = TrustRequest(certificates: [certificate.der])
        request.policies = [policy.trustPolicy]
        request.date = validOnDate ?? Date()
        request.leafOnly = !policy.evaluatesChainInSearches
        return evaluator.evaluate(request).failures.isEmpty
    }

    /// Apple's `_FilterWithTrust`: the certificate alone chains to a trusted anchor now.
    private func isTrusted(_ certificate: SecCertificate) -> Bool {
        guard let evaluator = LinkedTrustEvaluator.evaluator else { return false }
        var request = TrustRequest(certificates: [certificate.der])
        request.policies = [TrustPolicy(.basic)]
        return evaluator.evaluate(request).failures.isEmpty
    }

    /// Apple's `items_matching_issuer_parent`: the issuer is wanted, or an authority in the
    /// keychain with that name (not self-issued) has a wanted issuer, 10 tries at most.
    private func chainsToIssuer(_ certificate: SecCertificate, parents: inout [(subject: Data, issuer: Data)]?) -> Bool
    {
        guard case .data(let issuer)? = try? CertificateAttributes.attributes(ofDER: certificate.der)["issr"] else {
            return false
        }
        if issuers.contains(issuer) { return true }
        let known = parents ?? Self.keychainNames()
        parents = known
        var budget = 10
        var pending = [issuer]
        var visited: Set<Data> = []
        while let name = pending.popLast(), budget > 0 {
            guard visited.insert(name).inserted else { continue }
            for parent in known where parent.subject == name && parent.issuer != parent.subject {
                budget -= 1
                if issuers.contains(parent.issuer) { return true }
                pending.append(parent.issuer)
                if budget == 0 { break }
            }
        }
        return false
    }

    /// The subject and issuer of every certificate in the caller's keychain.
    private static func keychainNames() -> [(subject: Data, issuer: Data)] {
        KeychainCertificates.all(returning: kSecReturnAttributes).compactMap { found in
            guard let attributes = found as? [String: Any] else { return nil }
            guard let subject = attributes["subj"] as? Data, let issuer = attributes["issr"] as? Data else {
                return nil
            }
            return (subject, issuer)
        }
    }

    /// macOS's subject options: the last common name contains, starts with, ends with or is the text.
    private func subjectMatches(_ certificate: SecCertificate, _ kind: String, _ text: String) -> Bool {
        var commonName: CFString?
        guard SecCertificateCopyCommonName(certificate, &commonName) == errSecSuccess,
            var name = commonName as String?
        else { return false }
        var wanted = text
        if caseInsensitive {
            name = name.lowercased()
            wanted = wanted.lowercased()
        }
        switch kind {
        case "m_SubjectStartsWith": return name.hasPrefix(wanted)
        case "m_SubjectEndsWith": return name.hasSuffix(wanted)
        case "m_SubjectWholeString": return name == wanted
        default: return name.contains(wanted)
        }
    }
}
#endif
