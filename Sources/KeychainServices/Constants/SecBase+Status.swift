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

// Result codes of the Security framework, in the order of Apple's SecBase.h, followed by the
// private (SPI) codes this implementation returns. One row per code: the message that
// `SecCopyErrorMessageString` gives is the doc comment, and `Scripts/status-messages.py` writes
// SecBase+Messages.swift from these rows (StatusTableTests checks that the two agree). A message is
// Apple's text verbatim on one line, so a row whose message is not a single sentence ending in a
// period carries `swift-format-ignore: BeginDocumentationCommentWithOneLineSummary`.

// MARK: - Success

// The status returned when an operation succeeds.

/// No error.
public var errSecSuccess: OSStatus { 0 }

/// Another name for ``errSecSuccess``: the classic Mac OS name for success.
public var noErr: OSStatus { 0 }

// MARK: - General status codes

// Status codes shared with the classic Mac OS error space.

/// Function or operation not implemented.
public var errSecUnimplemented: OSStatus { -4 }
/// The disk is full.
public var errSecDiskFull: OSStatus { -34 }
/// Another name for ``errSecDiskFull``.
@available(*, deprecated, renamed: "errSecDiskFull")
public var errSecDskFull: OSStatus { -34 }
/// I/O error.
public var errSecIO: OSStatus { -36 }
/// File already open with write permission.
public var errSecOpWr: OSStatus { -49 }
/// One or more parameters passed to a function were not valid.
public var errSecParam: OSStatus { -50 }
/// Write permissions error.
public var errSecWrPerm: OSStatus { -61 }
/// Failed to allocate memory.
public var errSecAllocate: OSStatus { -108 }
/// User canceled the operation.
public var errSecUserCanceled: OSStatus { -128 }
/// Bad parameter or invalid state for operation.
public var errSecBadReq: OSStatus { -909 }
/// An internal component failed. (Apple gives no message for this code.)
public var errSecInternalComponent: OSStatus { -2070 }
/// An unknown Core Foundation error occurred. (Apple gives no message for this code.)
public var errSecCoreFoundationUnknown: OSStatus { -4960 }

// MARK: - Entitlements and restrictions

// Status codes for callers that lack an entitlement or are restricted.

/// A required entitlement isn't present.
public var errSecMissingEntitlement: OSStatus { -34018 }
/// Client is restricted and is not permitted to perform this operation.
public var errSecRestrictedAPI: OSStatus { -34020 }

// MARK: - Keychain status codes

// Status codes from keychain and item operations.

// swift-format-ignore: BeginDocumentationCommentWithOneLineSummary
/// No keychain is available. You may need to restart your computer.
public var errSecNotAvailable: OSStatus { -25291 }
/// This keychain cannot be modified.
public var errSecReadOnly: OSStatus { -25292 }
/// The user name or passphrase you entered is not correct.
public var errSecAuthFailed: OSStatus { -25293 }
/// The specified keychain could not be found.
public var errSecNoSuchKeychain: OSStatus { -25294 }
/// The specified keychain is not a valid keychain file.
public var errSecInvalidKeychain: OSStatus { -25295 }
/// A keychain with the same name already exists.
public var errSecDuplicateKeychain: OSStatus { -25296 }
/// The specified callback function is already installed.
public var errSecDuplicateCallback: OSStatus { -25297 }
/// The specified callback function is not valid.
public var errSecInvalidCallback: OSStatus { -25298 }
/// The specified item already exists in the keychain.
public var errSecDuplicateItem: OSStatus { -25299 }
/// The specified item could not be found in the keychain.
public var errSecItemNotFound: OSStatus { -25300 }
/// There is not enough memory available to use the specified item.
public var errSecBufferTooSmall: OSStatus { -25301 }
/// This item contains information which is too large or in a format that cannot be displayed.
public var errSecDataTooLarge: OSStatus { -25302 }
/// The specified attribute does not exist.
public var errSecNoSuchAttr: OSStatus { -25303 }
// swift-format-ignore: BeginDocumentationCommentWithOneLineSummary
/// The specified item is no longer valid. It may have been deleted from the keychain.
public var errSecInvalidItemRef: OSStatus { -25304 }
/// Unable to search the current keychain.
public var errSecInvalidSearchRef: OSStatus { -25305 }
/// The specified item does not appear to be a valid keychain item.
public var errSecNoSuchClass: OSStatus { -25306 }
/// A default keychain could not be found.
public var errSecNoDefaultKeychain: OSStatus { -25307 }
/// User interaction is not allowed.
public var errSecInteractionNotAllowed: OSStatus { -25308 }
/// The specified attribute could not be modified.
public var errSecReadOnlyAttr: OSStatus { -25309 }
/// This keychain was created by a different version of the system software and cannot be opened.
public var errSecWrongSecVersion: OSStatus { -25310 }
/// This item specifies a key size which is too large or too small.
public var errSecKeySizeNotAllowed: OSStatus { -25311 }
// swift-format-ignore: BeginDocumentationCommentWithOneLineSummary
/// A required component (data storage module) could not be loaded. You may need to restart your computer.
public var errSecNoStorageModule: OSStatus { -25312 }
// swift-format-ignore: BeginDocumentationCommentWithOneLineSummary
/// A required component (certificate module) could not be loaded. You may need to restart your computer.
public var errSecNoCertificateModule: OSStatus { -25313 }
// swift-format-ignore: BeginDocumentationCommentWithOneLineSummary
/// A required component (policy module) could not be loaded. You may need to restart your computer.
public var errSecNoPolicyModule: OSStatus { -25314 }
/// User interaction is required, but is currently not allowed.
public var errSecInteractionRequired: OSStatus { -25315 }
/// The contents of this item cannot be retrieved.
public var errSecDataNotAvailable: OSStatus { -25316 }
/// The contents of this item cannot be modified.
public var errSecDataNotModifiable: OSStatus { -25317 }
/// One or more certificates required to validate this certificate cannot be found.
public var errSecCreateChainFailed: OSStatus { -25318 }
/// The specified preferences domain is not valid.
public var errSecInvalidPrefsDomain: OSStatus { -25319 }
// swift-format-ignore: BeginDocumentationCommentWithOneLineSummary
/// In dark wake, no UI possible
public var errSecInDarkWake: OSStatus { -25320 }

// MARK: - Access control, trust settings and import/export

// Status codes from ACLs, trust settings, and item import and export.

/// The specified access control list is not in standard (simple) form.
public var errSecACLNotSimple: OSStatus { -25240 }
/// The specified policy cannot be found.
public var errSecPolicyNotFound: OSStatus { -25241 }
/// The specified trust setting is invalid.
public var errSecInvalidTrustSetting: OSStatus { -25242 }
/// The specified item has no access control.
public var errSecNoAccessForItem: OSStatus { -25243 }
/// Invalid attempt to change the owner of this item.
public var errSecInvalidOwnerEdit: OSStatus { -25244 }
/// No trust results are available.
public var errSecTrustNotAvailable: OSStatus { -25245 }
/// Import/Export format unsupported.
public var errSecUnsupportedFormat: OSStatus { -25256 }
/// Unknown format in import.
public var errSecUnknownFormat: OSStatus { -25257 }
/// Key material must be wrapped for export.
public var errSecKeyIsSensitive: OSStatus { -25258 }
/// An attempt was made to import multiple private keys.
public var errSecMultiplePrivKeys: OSStatus { -25259 }
/// Passphrase is required for import/export.
public var errSecPassphraseRequired: OSStatus { -25260 }
/// The password reference was invalid.
public var errSecInvalidPasswordRef: OSStatus { -25261 }
/// The Trust Settings Record was corrupted.
public var errSecInvalidTrustSettings: OSStatus { -25262 }
/// No Trust Settings were found.
public var errSecNoTrustSettings: OSStatus { -25263 }
// swift-format-ignore: BeginDocumentationCommentWithOneLineSummary
/// MAC verification failed during PKCS12 import (wrong password?)
public var errSecPkcs12VerifyFailure: OSStatus { -25264 }

// MARK: - Certificate signing and decoding

// Status codes from certificate and key decoding.

/// A certificate was not signed by its proposed parent.
public var errSecNotSigner: OSStatus { -26267 }
/// Unable to decode the provided data.
public var errSecDecode: OSStatus { -26275 }

// MARK: - CSSM-era status codes

// Status codes inherited from the CSSM layer of macOS, kept for compatibility.

/// The required service is not available.
public var errSecServiceNotAvailable: OSStatus { -67585 }
/// The client ID is not correct.
public var errSecInsufficientClientID: OSStatus { -67586 }
/// A device reset has occurred.
public var errSecDeviceReset: OSStatus { -67587 }
/// A device failure has occurred.
public var errSecDeviceFailed: OSStatus { -67588 }
/// Adding an application ACL subject failed.
public var errSecAppleAddAppACLSubject: OSStatus { -67589 }
/// The public key is incomplete.
public var errSecApplePublicKeyIncomplete: OSStatus { -67590 }
/// A signature mismatch has occurred.
public var errSecAppleSignatureMismatch: OSStatus { -67591 }
/// The specified key has an invalid start date.
public var errSecAppleInvalidKeyStartDate: OSStatus { -67592 }
/// The specified key has an invalid end date.
public var errSecAppleInvalidKeyEndDate: OSStatus { -67593 }
/// A conversion error has occurred.
public var errSecConversionError: OSStatus { -67594 }
/// A SSLv2 rollback error has occurred.
public var errSecAppleSSLv2Rollback: OSStatus { -67595 }
/// The quota was exceeded.
public var errSecQuotaExceeded: OSStatus { -67596 }
/// The file is too big.
public var errSecFileTooBig: OSStatus { -67597 }
/// The specified database has an invalid blob.
public var errSecInvalidDatabaseBlob: OSStatus { -67598 }
/// The specified database has an invalid key blob.
public var errSecInvalidKeyBlob: OSStatus { -67599 }
/// The specified database has an incompatible blob.
public var errSecIncompatibleDatabaseBlob: OSStatus { -67600 }
/// The specified database has an incompatible key blob.
public var errSecIncompatibleKeyBlob: OSStatus { -67601 }
/// A host name mismatch has occurred.
public var errSecHostNameMismatch: OSStatus { -67602 }
/// There is an unknown critical extension flag.
public var errSecUnknownCriticalExtensionFlag: OSStatus { -67603 }
/// No basic constraints were found.
public var errSecNoBasicConstraints: OSStatus { -67604 }
/// No basic CA constraints were found.
public var errSecNoBasicConstraintsCA: OSStatus { -67605 }
/// The authority key ID is not valid.
public var errSecInvalidAuthorityKeyID: OSStatus { -67606 }
/// The subject key ID is not valid.
public var errSecInvalidSubjectKeyID: OSStatus { -67607 }
/// The key usage is not valid for the specified policy.
public var errSecInvalidKeyUsageForPolicy: OSStatus { -67608 }
/// The extended key usage is not valid.
public var errSecInvalidExtendedKeyUsage: OSStatus { -67609 }
/// The ID linkage is not valid.
public var errSecInvalidIDLinkage: OSStatus { -67610 }
/// The path length constraint was exceeded.
public var errSecPathLengthConstraintExceeded: OSStatus { -67611 }
/// The root or anchor certificate is not valid.
public var errSecInvalidRoot: OSStatus { -67612 }
/// The CRL has expired.
public var errSecCRLExpired: OSStatus { -67613 }
/// The CRL is not yet valid.
public var errSecCRLNotValidYet: OSStatus { -67614 }
/// The CRL was not found.
public var errSecCRLNotFound: OSStatus { -67615 }
/// The CRL server is down.
public var errSecCRLServerDown: OSStatus { -67616 }
/// The CRL has a bad Uniform Resource Identifier.
public var errSecCRLBadURI: OSStatus { -67617 }
/// An unknown certificate extension was encountered.
public var errSecUnknownCertExtension: OSStatus { -67618 }
/// An unknown CRL extension was encountered.
public var errSecUnknownCRLExtension: OSStatus { -67619 }
/// The CRL is not trusted.
public var errSecCRLNotTrusted: OSStatus { -67620 }
/// The CRL policy failed.
public var errSecCRLPolicyFailed: OSStatus { -67621 }
/// The issuing distribution point was not valid.
public var errSecIDPFailure: OSStatus { -67622 }
/// An email address mismatch was encountered.
public var errSecSMIMEEmailAddressesNotFound: OSStatus { -67623 }
/// The appropriate extended key usage for SMIME was not found.
public var errSecSMIMEBadExtendedKeyUsage: OSStatus { -67624 }
/// The key usage is not compatible with SMIME.
public var errSecSMIMEBadKeyUsage: OSStatus { -67625 }
/// The key usage extension is not marked as critical.
public var errSecSMIMEKeyUsageNotCritical: OSStatus { -67626 }
/// No email address was found in the certificate.
public var errSecSMIMENoEmailAddress: OSStatus { -67627 }
/// The subject alternative name extension is not marked as critical.
public var errSecSMIMESubjAltNameNotCritical: OSStatus { -67628 }
/// The appropriate extended key usage for SSL was not found.
public var errSecSSLBadExtendedKeyUsage: OSStatus { -67629 }
/// The OCSP response was incorrect or could not be parsed.
public var errSecOCSPBadResponse: OSStatus { -67630 }
/// The OCSP request was incorrect or could not be parsed.
public var errSecOCSPBadRequest: OSStatus { -67631 }
/// OCSP service is unavailable.
public var errSecOCSPUnavailable: OSStatus { -67632 }
/// The OCSP server did not recognize this certificate.
public var errSecOCSPStatusUnrecognized: OSStatus { -67633 }
/// An end-of-data was detected.
public var errSecEndOfData: OSStatus { -67634 }
/// An incomplete certificate revocation check occurred.
public var errSecIncompleteCertRevocationCheck: OSStatus { -67635 }
/// A network failure occurred.
public var errSecNetworkFailure: OSStatus { -67636 }
/// The OCSP response was not trusted to a root or anchor certificate.
public var errSecOCSPNotTrustedToAnchor: OSStatus { -67637 }
/// The record was modified.
public var errSecRecordModified: OSStatus { -67638 }
/// The OCSP response had an invalid signature.
public var errSecOCSPSignatureError: OSStatus { -67639 }
/// The OCSP response had no signer.
public var errSecOCSPNoSigner: OSStatus { -67640 }
/// The OCSP responder was given a malformed request.
public var errSecOCSPResponderMalformedReq: OSStatus { -67641 }
/// The OCSP responder encountered an internal error.
public var errSecOCSPResponderInternalError: OSStatus { -67642 }
/// The OCSP responder is busy, try again later.
public var errSecOCSPResponderTryLater: OSStatus { -67643 }
/// The OCSP responder requires a signature.
public var errSecOCSPResponderSignatureRequired: OSStatus { -67644 }
/// The OCSP responder rejected this request as unauthorized.
public var errSecOCSPResponderUnauthorized: OSStatus { -67645 }
/// The OCSP response nonce did not match the request.
public var errSecOCSPResponseNonceMismatch: OSStatus { -67646 }
/// Code signing encountered an incorrect certificate chain length.
public var errSecCodeSigningBadCertChainLength: OSStatus { -67647 }
/// Code signing found no basic constraints.
public var errSecCodeSigningNoBasicConstraints: OSStatus { -67648 }
/// Code signing encountered an incorrect path length constraint.
public var errSecCodeSigningBadPathLengthConstraint: OSStatus { -67649 }
/// Code signing found no extended key usage.
public var errSecCodeSigningNoExtendedKeyUsage: OSStatus { -67650 }
/// Code signing indicated use of a development-only certificate.
public var errSecCodeSigningDevelopment: OSStatus { -67651 }
/// Resource signing has encountered an incorrect certificate chain length.
public var errSecResourceSignBadCertChainLength: OSStatus { -67652 }
/// Resource signing has encountered an error in the extended key usage.
public var errSecResourceSignBadExtKeyUsage: OSStatus { -67653 }
/// The trust setting for this policy was set to Deny.
public var errSecTrustSettingDeny: OSStatus { -67654 }
/// An invalid certificate subject name was encountered.
public var errSecInvalidSubjectName: OSStatus { -67655 }
/// An unknown qualified certificate statement was encountered.
public var errSecUnknownQualifiedCertStatement: OSStatus { -67656 }
/// A MobileMe request will be sent during the next connection. (Apple gives no message for this code.)
public var errSecMobileMeRequestQueued: OSStatus { -67657 }
/// A MobileMe request was redirected. (Apple gives no message for this code.)
public var errSecMobileMeRequestRedirected: OSStatus { -67658 }
/// A MobileMe server error occurred. (Apple gives no message for this code.)
public var errSecMobileMeServerError: OSStatus { -67659 }
/// The MobileMe server is not available. (Apple gives no message for this code.)
public var errSecMobileMeServerNotAvailable: OSStatus { -67660 }
/// The MobileMe server already has an item by that name. (Apple gives no message for this code.)
public var errSecMobileMeServerAlreadyExists: OSStatus { -67661 }
/// A MobileMe service error occurred. (Apple gives no message for this code.)
public var errSecMobileMeServerServiceErr: OSStatus { -67662 }
/// A MobileMe request is already pending. (Apple gives no message for this code.)
public var errSecMobileMeRequestAlreadyPending: OSStatus { -67663 }
/// No MobileMe request is pending. (Apple gives no message for this code.)
public var errSecMobileMeNoRequestPending: OSStatus { -67664 }
/// A MobileMe certificate signing request failed verification. (Apple gives no message for this code.)
public var errSecMobileMeCSRVerifyFailure: OSStatus { -67665 }
/// A MobileMe consistency check failed. (Apple gives no message for this code.)
public var errSecMobileMeFailedConsistencyCheck: OSStatus { -67666 }
/// A function was called without initializing CSSM.
public var errSecNotInitialized: OSStatus { -67667 }
/// The CSSM handle does not match with the service type.
public var errSecInvalidHandleUsage: OSStatus { -67668 }
/// A reference to the calling module was not found in the list of authorized callers.
public var errSecPVCReferentNotFound: OSStatus { -67669 }
/// A function address was not within the verified module.
public var errSecFunctionIntegrityFail: OSStatus { -67670 }
/// An internal error has occurred.
public var errSecInternalError: OSStatus { -67671 }
/// A memory error has occurred.
public var errSecMemoryError: OSStatus { -67672 }
/// Invalid data was encountered.
public var errSecInvalidData: OSStatus { -67673 }
/// A Module Directory Service error has occurred.
public var errSecMDSError: OSStatus { -67674 }
/// An invalid pointer was encountered.
public var errSecInvalidPointer: OSStatus { -67675 }
/// Self-check has failed.
public var errSecSelfCheckFailed: OSStatus { -67676 }
/// A function has failed.
public var errSecFunctionFailed: OSStatus { -67677 }
/// A module manifest verification failure has occurred.
public var errSecModuleManifestVerifyFailed: OSStatus { -67678 }
/// An invalid GUID was encountered.
public var errSecInvalidGUID: OSStatus { -67679 }
/// An invalid handle was encountered.
public var errSecInvalidHandle: OSStatus { -67680 }
/// An invalid DB list was encountered.
public var errSecInvalidDBList: OSStatus { -67681 }
/// An invalid passthrough ID was encountered.
public var errSecInvalidPassthroughID: OSStatus { -67682 }
/// An invalid network address was encountered.
public var errSecInvalidNetworkAddress: OSStatus { -67683 }
/// The certificate revocation list is already signed.
public var errSecCRLAlreadySigned: OSStatus { -67684 }
/// An invalid number of fields were encountered.
public var errSecInvalidNumberOfFields: OSStatus { -67685 }
/// A verification failure occurred.
public var errSecVerificationFailure: OSStatus { -67686 }
/// An unknown tag was encountered.
public var errSecUnknownTag: OSStatus { -67687 }
/// An invalid signature was encountered.
public var errSecInvalidSignature: OSStatus { -67688 }
/// An invalid name was encountered.
public var errSecInvalidName: OSStatus { -67689 }
/// An invalid certificate reference was encountered.
public var errSecInvalidCertificateRef: OSStatus { -67690 }
/// An invalid certificate group was encountered.
public var errSecInvalidCertificateGroup: OSStatus { -67691 }
/// The specified tag was not found.
public var errSecTagNotFound: OSStatus { -67692 }
/// The specified query was not valid.
public var errSecInvalidQuery: OSStatus { -67693 }
/// An invalid value was detected.
public var errSecInvalidValue: OSStatus { -67694 }
/// A callback has failed.
public var errSecCallbackFailed: OSStatus { -67695 }
/// An ACL delete operation has failed.
public var errSecACLDeleteFailed: OSStatus { -67696 }
/// An ACL replace operation has failed.
public var errSecACLReplaceFailed: OSStatus { -67697 }
/// An ACL add operation has failed.
public var errSecACLAddFailed: OSStatus { -67698 }
/// An ACL change operation has failed.
public var errSecACLChangeFailed: OSStatus { -67699 }
/// Invalid access credentials were encountered.
public var errSecInvalidAccessCredentials: OSStatus { -67700 }
/// An invalid record was encountered.
public var errSecInvalidRecord: OSStatus { -67701 }
/// An invalid ACL was encountered.
public var errSecInvalidACL: OSStatus { -67702 }
/// An invalid sample value was encountered.
public var errSecInvalidSampleValue: OSStatus { -67703 }
/// An incompatible version was encountered.
public var errSecIncompatibleVersion: OSStatus { -67704 }
/// The privilege was not granted.
public var errSecPrivilegeNotGranted: OSStatus { -67705 }
/// An invalid scope was encountered.
public var errSecInvalidScope: OSStatus { -67706 }
/// The PVC is already configured.
public var errSecPVCAlreadyConfigured: OSStatus { -67707 }
/// An invalid PVC was encountered.
public var errSecInvalidPVC: OSStatus { -67708 }
/// The EMM load has failed.
public var errSecEMMLoadFailed: OSStatus { -67709 }
/// The EMM unload has failed.
public var errSecEMMUnloadFailed: OSStatus { -67710 }
/// The add-in load operation has failed.
public var errSecAddinLoadFailed: OSStatus { -67711 }
/// An invalid key was encountered.
public var errSecInvalidKeyRef: OSStatus { -67712 }
/// An invalid key hierarchy was encountered.
public var errSecInvalidKeyHierarchy: OSStatus { -67713 }
/// The add-in unload operation has failed.
public var errSecAddinUnloadFailed: OSStatus { -67714 }
/// A library reference was not found.
public var errSecLibraryReferenceNotFound: OSStatus { -67715 }
/// An invalid add-in function table was encountered.
public var errSecInvalidAddinFunctionTable: OSStatus { -67716 }
/// An invalid service mask was encountered.
public var errSecInvalidServiceMask: OSStatus { -67717 }
/// A module was not loaded.
public var errSecModuleNotLoaded: OSStatus { -67718 }
/// An invalid subservice ID was encountered.
public var errSecInvalidSubServiceID: OSStatus { -67719 }
/// An attribute was not in the context.
public var errSecAttributeNotInContext: OSStatus { -67720 }
/// A module failed to initialize.
public var errSecModuleManagerInitializeFailed: OSStatus { -67721 }
/// A module was not found.
public var errSecModuleManagerNotFound: OSStatus { -67722 }
/// An event notification callback was not found.
public var errSecEventNotificationCallbackNotFound: OSStatus { -67723 }
/// An input length error was encountered.
public var errSecInputLengthError: OSStatus { -67724 }
/// An output length error was encountered.
public var errSecOutputLengthError: OSStatus { -67725 }
/// The privilege is not supported.
public var errSecPrivilegeNotSupported: OSStatus { -67726 }
/// A device error was encountered.
public var errSecDeviceError: OSStatus { -67727 }
/// The CSP handle was busy.
public var errSecAttachHandleBusy: OSStatus { -67728 }
/// You are not logged in.
public var errSecNotLoggedIn: OSStatus { -67729 }
/// An algorithm mismatch was encountered.
public var errSecAlgorithmMismatch: OSStatus { -67730 }
/// The key usage is incorrect.
public var errSecKeyUsageIncorrect: OSStatus { -67731 }
/// The key blob type is incorrect.
public var errSecKeyBlobTypeIncorrect: OSStatus { -67732 }
/// The key header is inconsistent.
public var errSecKeyHeaderInconsistent: OSStatus { -67733 }
/// The key header format is not supported.
public var errSecUnsupportedKeyFormat: OSStatus { -67734 }
/// The key size is not supported.
public var errSecUnsupportedKeySize: OSStatus { -67735 }
/// The key usage mask is not valid.
public var errSecInvalidKeyUsageMask: OSStatus { -67736 }
/// The key usage mask is not supported.
public var errSecUnsupportedKeyUsageMask: OSStatus { -67737 }
/// The key attribute mask is not valid.
public var errSecInvalidKeyAttributeMask: OSStatus { -67738 }
/// The key attribute mask is not supported.
public var errSecUnsupportedKeyAttributeMask: OSStatus { -67739 }
/// The key label is not valid.
public var errSecInvalidKeyLabel: OSStatus { -67740 }
/// The key label is not supported.
public var errSecUnsupportedKeyLabel: OSStatus { -67741 }
/// The key format is not valid.
public var errSecInvalidKeyFormat: OSStatus { -67742 }
/// The vector of buffers is not supported.
public var errSecUnsupportedVectorOfBuffers: OSStatus { -67743 }
/// The input vector is not valid.
public var errSecInvalidInputVector: OSStatus { -67744 }
/// The output vector is not valid.
public var errSecInvalidOutputVector: OSStatus { -67745 }
/// An invalid context was encountered.
public var errSecInvalidContext: OSStatus { -67746 }
/// An invalid algorithm was encountered.
public var errSecInvalidAlgorithm: OSStatus { -67747 }
/// A key attribute was not valid.
public var errSecInvalidAttributeKey: OSStatus { -67748 }
/// A key attribute was missing.
public var errSecMissingAttributeKey: OSStatus { -67749 }
/// An init vector attribute was not valid.
public var errSecInvalidAttributeInitVector: OSStatus { -67750 }
/// An init vector attribute was missing.
public var errSecMissingAttributeInitVector: OSStatus { -67751 }
/// A salt attribute was not valid.
public var errSecInvalidAttributeSalt: OSStatus { -67752 }
/// A salt attribute was missing.
public var errSecMissingAttributeSalt: OSStatus { -67753 }
/// A padding attribute was not valid.
public var errSecInvalidAttributePadding: OSStatus { -67754 }
/// A padding attribute was missing.
public var errSecMissingAttributePadding: OSStatus { -67755 }
/// A random number attribute was not valid.
public var errSecInvalidAttributeRandom: OSStatus { -67756 }
/// A random number attribute was missing.
public var errSecMissingAttributeRandom: OSStatus { -67757 }
/// A seed attribute was not valid.
public var errSecInvalidAttributeSeed: OSStatus { -67758 }
/// A seed attribute was missing.
public var errSecMissingAttributeSeed: OSStatus { -67759 }
/// A passphrase attribute was not valid.
public var errSecInvalidAttributePassphrase: OSStatus { -67760 }
/// A passphrase attribute was missing.
public var errSecMissingAttributePassphrase: OSStatus { -67761 }
/// A key length attribute was not valid.
public var errSecInvalidAttributeKeyLength: OSStatus { -67762 }
/// A key length attribute was missing.
public var errSecMissingAttributeKeyLength: OSStatus { -67763 }
/// A block size attribute was not valid.
public var errSecInvalidAttributeBlockSize: OSStatus { -67764 }
/// A block size attribute was missing.
public var errSecMissingAttributeBlockSize: OSStatus { -67765 }
/// An output size attribute was not valid.
public var errSecInvalidAttributeOutputSize: OSStatus { -67766 }
/// An output size attribute was missing.
public var errSecMissingAttributeOutputSize: OSStatus { -67767 }
/// The number of rounds attribute was not valid.
public var errSecInvalidAttributeRounds: OSStatus { -67768 }
/// The number of rounds attribute was missing.
public var errSecMissingAttributeRounds: OSStatus { -67769 }
/// An algorithm parameters attribute was not valid.
public var errSecInvalidAlgorithmParms: OSStatus { -67770 }
/// An algorithm parameters attribute was missing.
public var errSecMissingAlgorithmParms: OSStatus { -67771 }
/// A label attribute was not valid.
public var errSecInvalidAttributeLabel: OSStatus { -67772 }
/// A label attribute was missing.
public var errSecMissingAttributeLabel: OSStatus { -67773 }
/// A key type attribute was not valid.
public var errSecInvalidAttributeKeyType: OSStatus { -67774 }
/// A key type attribute was missing.
public var errSecMissingAttributeKeyType: OSStatus { -67775 }
/// A mode attribute was not valid.
public var errSecInvalidAttributeMode: OSStatus { -67776 }
/// A mode attribute was missing.
public var errSecMissingAttributeMode: OSStatus { -67777 }
/// An effective bits attribute was not valid.
public var errSecInvalidAttributeEffectiveBits: OSStatus { -67778 }
/// An effective bits attribute was missing.
public var errSecMissingAttributeEffectiveBits: OSStatus { -67779 }
/// A start date attribute was not valid.
public var errSecInvalidAttributeStartDate: OSStatus { -67780 }
/// A start date attribute was missing.
public var errSecMissingAttributeStartDate: OSStatus { -67781 }
/// An end date attribute was not valid.
public var errSecInvalidAttributeEndDate: OSStatus { -67782 }
/// An end date attribute was missing.
public var errSecMissingAttributeEndDate: OSStatus { -67783 }
/// A version attribute was not valid.
public var errSecInvalidAttributeVersion: OSStatus { -67784 }
/// A version attribute was missing.
public var errSecMissingAttributeVersion: OSStatus { -67785 }
/// A prime attribute was not valid.
public var errSecInvalidAttributePrime: OSStatus { -67786 }
/// A prime attribute was missing.
public var errSecMissingAttributePrime: OSStatus { -67787 }
/// A base attribute was not valid.
public var errSecInvalidAttributeBase: OSStatus { -67788 }
/// A base attribute was missing.
public var errSecMissingAttributeBase: OSStatus { -67789 }
/// A subprime attribute was not valid.
public var errSecInvalidAttributeSubprime: OSStatus { -67790 }
/// A subprime attribute was missing.
public var errSecMissingAttributeSubprime: OSStatus { -67791 }
/// An iteration count attribute was not valid.
public var errSecInvalidAttributeIterationCount: OSStatus { -67792 }
/// An iteration count attribute was missing.
public var errSecMissingAttributeIterationCount: OSStatus { -67793 }
/// A database handle attribute was not valid.
public var errSecInvalidAttributeDLDBHandle: OSStatus { -67794 }
/// A database handle attribute was missing.
public var errSecMissingAttributeDLDBHandle: OSStatus { -67795 }
/// An access credentials attribute was not valid.
public var errSecInvalidAttributeAccessCredentials: OSStatus { -67796 }
/// An access credentials attribute was missing.
public var errSecMissingAttributeAccessCredentials: OSStatus { -67797 }
/// A public key format attribute was not valid.
public var errSecInvalidAttributePublicKeyFormat: OSStatus { -67798 }
/// A public key format attribute was missing.
public var errSecMissingAttributePublicKeyFormat: OSStatus { -67799 }
/// A private key format attribute was not valid.
public var errSecInvalidAttributePrivateKeyFormat: OSStatus { -67800 }
/// A private key format attribute was missing.
public var errSecMissingAttributePrivateKeyFormat: OSStatus { -67801 }
/// A symmetric key format attribute was not valid.
public var errSecInvalidAttributeSymmetricKeyFormat: OSStatus { -67802 }
/// A symmetric key format attribute was missing.
public var errSecMissingAttributeSymmetricKeyFormat: OSStatus { -67803 }
/// A wrapped key format attribute was not valid.
public var errSecInvalidAttributeWrappedKeyFormat: OSStatus { -67804 }
/// A wrapped key format attribute was missing.
public var errSecMissingAttributeWrappedKeyFormat: OSStatus { -67805 }
/// A staged operation is in progress.
public var errSecStagedOperationInProgress: OSStatus { -67806 }
/// A staged operation was not started.
public var errSecStagedOperationNotStarted: OSStatus { -67807 }
/// A cryptographic verification failure has occurred.
public var errSecVerifyFailed: OSStatus { -67808 }
/// The query size is unknown.
public var errSecQuerySizeUnknown: OSStatus { -67809 }
/// A block size mismatch occurred.
public var errSecBlockSizeMismatch: OSStatus { -67810 }
/// The public key was inconsistent.
public var errSecPublicKeyInconsistent: OSStatus { -67811 }
/// A device verification failure has occurred.
public var errSecDeviceVerifyFailed: OSStatus { -67812 }
/// An invalid login name was detected.
public var errSecInvalidLoginName: OSStatus { -67813 }
/// The user is already logged in.
public var errSecAlreadyLoggedIn: OSStatus { -67814 }
/// An invalid digest algorithm was detected.
public var errSecInvalidDigestAlgorithm: OSStatus { -67815 }
/// An invalid CRL group was detected.
public var errSecInvalidCRLGroup: OSStatus { -67816 }
/// The certificate cannot operate.
public var errSecCertificateCannotOperate: OSStatus { -67817 }
/// An expired certificate was detected.
public var errSecCertificateExpired: OSStatus { -67818 }
/// The certificate is not yet valid.
public var errSecCertificateNotValidYet: OSStatus { -67819 }
/// The certificate was revoked.
public var errSecCertificateRevoked: OSStatus { -67820 }
/// The certificate was suspended.
public var errSecCertificateSuspended: OSStatus { -67821 }
/// Insufficient credentials were detected.
public var errSecInsufficientCredentials: OSStatus { -67822 }
/// The action was not valid.
public var errSecInvalidAction: OSStatus { -67823 }
/// The authority was not valid.
public var errSecInvalidAuthority: OSStatus { -67824 }
/// A verify action has failed.
public var errSecVerifyActionFailed: OSStatus { -67825 }
/// The certificate authority was not valid.
public var errSecInvalidCertAuthority: OSStatus { -67826 }
/// The CRL authority was not valid.
public var errSecInvalidCRLAuthority: OSStatus { -67827 }
/// Another name for ``errSecInvalidCRLAuthority``.
@available(*, deprecated, renamed: "errSecInvalidCRLAuthority")
public var errSecInvaldCRLAuthority: OSStatus { -67827 }
/// The CRL encoding was not valid.
public var errSecInvalidCRLEncoding: OSStatus { -67828 }
/// The CRL type was not valid.
public var errSecInvalidCRLType: OSStatus { -67829 }
/// The CRL was not valid.
public var errSecInvalidCRL: OSStatus { -67830 }
/// The form type was not valid.
public var errSecInvalidFormType: OSStatus { -67831 }
/// The ID was not valid.
public var errSecInvalidID: OSStatus { -67832 }
/// The identifier was not valid.
public var errSecInvalidIdentifier: OSStatus { -67833 }
/// The index was not valid.
public var errSecInvalidIndex: OSStatus { -67834 }
/// The policy identifiers are not valid.
public var errSecInvalidPolicyIdentifiers: OSStatus { -67835 }
/// The time specified was not valid.
public var errSecInvalidTimeString: OSStatus { -67836 }
/// The trust policy reason was not valid.
public var errSecInvalidReason: OSStatus { -67837 }
/// The request inputs are not valid.
public var errSecInvalidRequestInputs: OSStatus { -67838 }
/// The response vector was not valid.
public var errSecInvalidResponseVector: OSStatus { -67839 }
/// The stop-on policy was not valid.
public var errSecInvalidStopOnPolicy: OSStatus { -67840 }
/// The tuple was not valid.
public var errSecInvalidTuple: OSStatus { -67841 }
/// Multiple values are not supported.
public var errSecMultipleValuesUnsupported: OSStatus { -67842 }
/// The certificate was not trusted.
public var errSecNotTrusted: OSStatus { -67843 }
/// No default authority was detected.
public var errSecNoDefaultAuthority: OSStatus { -67844 }
/// The trust policy had a rejected form.
public var errSecRejectedForm: OSStatus { -67845 }
/// The request was lost.
public var errSecRequestLost: OSStatus { -67846 }
/// The request was rejected.
public var errSecRequestRejected: OSStatus { -67847 }
/// The address type is not supported.
public var errSecUnsupportedAddressType: OSStatus { -67848 }
/// The service is not supported.
public var errSecUnsupportedService: OSStatus { -67849 }
/// The tuple group was not valid.
public var errSecInvalidTupleGroup: OSStatus { -67850 }
/// The base ACLs are not valid.
public var errSecInvalidBaseACLs: OSStatus { -67851 }
/// The tuple credentials are not valid.
public var errSecInvalidTupleCredentials: OSStatus { -67852 }
/// Another name for ``errSecInvalidTupleCredentials``.
@available(*, deprecated, renamed: "errSecInvalidTupleCredentials")
public var errSecInvalidTupleCredendtials: OSStatus { -67852 }
/// The encoding was not valid.
public var errSecInvalidEncoding: OSStatus { -67853 }
/// The validity period was not valid.
public var errSecInvalidValidityPeriod: OSStatus { -67854 }
/// The requestor was not valid.
public var errSecInvalidRequestor: OSStatus { -67855 }
/// The request descriptor was not valid.
public var errSecRequestDescriptor: OSStatus { -67856 }
/// The bundle information was not valid.
public var errSecInvalidBundleInfo: OSStatus { -67857 }
/// The CRL index was not valid.
public var errSecInvalidCRLIndex: OSStatus { -67858 }
/// No field values were detected.
public var errSecNoFieldValues: OSStatus { -67859 }
/// The field format is not supported.
public var errSecUnsupportedFieldFormat: OSStatus { -67860 }
/// The index information is not supported.
public var errSecUnsupportedIndexInfo: OSStatus { -67861 }
/// The locality is not supported.
public var errSecUnsupportedLocality: OSStatus { -67862 }
/// The number of attributes is not supported.
public var errSecUnsupportedNumAttributes: OSStatus { -67863 }
/// The number of indexes is not supported.
public var errSecUnsupportedNumIndexes: OSStatus { -67864 }
/// The number of record types is not supported.
public var errSecUnsupportedNumRecordTypes: OSStatus { -67865 }
/// Too many fields were specified.
public var errSecFieldSpecifiedMultiple: OSStatus { -67866 }
/// The field format was incompatible.
public var errSecIncompatibleFieldFormat: OSStatus { -67867 }
/// The parsing module was not valid.
public var errSecInvalidParsingModule: OSStatus { -67868 }
/// The database is locked.
public var errSecDatabaseLocked: OSStatus { -67869 }
/// The data store is open.
public var errSecDatastoreIsOpen: OSStatus { -67870 }
/// A missing value was detected.
public var errSecMissingValue: OSStatus { -67871 }
/// The query limits are not supported.
public var errSecUnsupportedQueryLimits: OSStatus { -67872 }
/// The number of selection predicates is not supported.
public var errSecUnsupportedNumSelectionPreds: OSStatus { -67873 }
/// The operator is not supported.
public var errSecUnsupportedOperator: OSStatus { -67874 }
/// The database location is not valid.
public var errSecInvalidDBLocation: OSStatus { -67875 }
/// The access request is not valid.
public var errSecInvalidAccessRequest: OSStatus { -67876 }
/// The index information is not valid.
public var errSecInvalidIndexInfo: OSStatus { -67877 }
/// The new owner is not valid.
public var errSecInvalidNewOwner: OSStatus { -67878 }
/// The modify mode is not valid.
public var errSecInvalidModifyMode: OSStatus { -67879 }
/// A required certificate extension is missing.
public var errSecMissingRequiredExtension: OSStatus { -67880 }
/// The extended key usage extension was not marked critical.
public var errSecExtendedKeyUsageNotCritical: OSStatus { -67881 }
/// A timestamp was expected but was not found.
public var errSecTimestampMissing: OSStatus { -67882 }
/// The timestamp was not valid.
public var errSecTimestampInvalid: OSStatus { -67883 }
/// The timestamp was not trusted.
public var errSecTimestampNotTrusted: OSStatus { -67884 }
/// The timestamp service is not available.
public var errSecTimestampServiceNotAvailable: OSStatus { -67885 }
/// An unrecognized or unsupported Algorithm Identifier in timestamp.
public var errSecTimestampBadAlg: OSStatus { -67886 }
/// The timestamp transaction is not permitted or supported.
public var errSecTimestampBadRequest: OSStatus { -67887 }
/// The timestamp data submitted has the wrong format.
public var errSecTimestampBadDataFormat: OSStatus { -67888 }
/// The time source for the Timestamp Authority is not available.
public var errSecTimestampTimeNotAvailable: OSStatus { -67889 }
/// The requested policy is not supported by the Timestamp Authority.
public var errSecTimestampUnacceptedPolicy: OSStatus { -67890 }
/// The requested extension is not supported by the Timestamp Authority.
public var errSecTimestampUnacceptedExtension: OSStatus { -67891 }
/// The additional information requested is not available.
public var errSecTimestampAddInfoNotAvailable: OSStatus { -67892 }
/// The timestamp request cannot be handled due to system failure.
public var errSecTimestampSystemFailure: OSStatus { -67893 }
/// A signing time was expected but was not found.
public var errSecSigningTimeMissing: OSStatus { -67894 }
/// A timestamp transaction was rejected.
public var errSecTimestampRejection: OSStatus { -67895 }
/// A timestamp transaction is waiting.
public var errSecTimestampWaiting: OSStatus { -67896 }
/// A timestamp authority revocation warning was issued.
public var errSecTimestampRevocationWarning: OSStatus { -67897 }
/// A timestamp authority revocation notification was issued.
public var errSecTimestampRevocationNotification: OSStatus { -67898 }
/// The requested policy is not allowed for this certificate.
public var errSecCertificatePolicyNotAllowed: OSStatus { -67899 }
/// The requested name is not allowed for this certificate.
public var errSecCertificateNameNotAllowed: OSStatus { -67900 }
/// The validity period in the certificate exceeds the maximum allowed.
public var errSecCertificateValidityPeriodTooLong: OSStatus { -67901 }
// swift-format-ignore: BeginDocumentationCommentWithOneLineSummary
/// The verified certificate is a CA rather than an end-entity
public var errSecCertificateIsCA: OSStatus { -67902 }
/// The certificate contains multiple extensions with the same extension ID.
public var errSecCertificateDuplicateExtension: OSStatus { -67903 }

// MARK: - Private (SPI) status codes

// Status codes from Apple's private SecBasePriv.h that this implementation returns.

/// Auth is needed before the requested action can be performed.
public var errSecAuthNeeded: OSStatus { -25330 }
/// An internal error occured in the Security framework.
public var errSecInternal: OSStatus { -26276 }
/// Error returned if keychain database needs a schema migration but the device is locked, clients should wait for a device unlock notification and retry the command.
public var errSecUpgradePending: OSStatus { -34019 }

#endif
