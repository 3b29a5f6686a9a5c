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
// private (SPI) codes this implementation returns. Messages live in SecBase+Messages.swift.

// MARK: - Success

// The status returned when an operation succeeds.

/// The classic Mac OS name for success.
public var noErr:                                    OSStatus { 0 }

public var errSecSuccess:                            OSStatus { 0 }

// MARK: - General status codes

// Status codes shared with the classic Mac OS error space.

public var errSecUnimplemented:                      OSStatus { -4 }
public var errSecDiskFull:                           OSStatus { -34 }
@available(*, deprecated, renamed: "errSecDiskFull")
public var errSecDskFull:                            OSStatus { -34 }
public var errSecIO:                                 OSStatus { -36 }
public var errSecOpWr:                               OSStatus { -49 }
public var errSecParam:                              OSStatus { -50 }
public var errSecWrPerm:                             OSStatus { -61 }
public var errSecAllocate:                           OSStatus { -108 }
public var errSecUserCanceled:                       OSStatus { -128 }
public var errSecBadReq:                             OSStatus { -909 }
public var errSecInternalComponent:                  OSStatus { -2070 }
public var errSecCoreFoundationUnknown:              OSStatus { -4960 }

// MARK: - Entitlements and restrictions

// Status codes for callers that lack an entitlement or are restricted.

public var errSecMissingEntitlement:                 OSStatus { -34018 }
public var errSecRestrictedAPI:                      OSStatus { -34020 }

// MARK: - Keychain status codes

// Status codes from keychain and item operations.

public var errSecNotAvailable:                       OSStatus { -25291 }
public var errSecReadOnly:                           OSStatus { -25292 }
public var errSecAuthFailed:                         OSStatus { -25293 }
public var errSecNoSuchKeychain:                     OSStatus { -25294 }
public var errSecInvalidKeychain:                    OSStatus { -25295 }
public var errSecDuplicateKeychain:                  OSStatus { -25296 }
public var errSecDuplicateCallback:                  OSStatus { -25297 }
public var errSecInvalidCallback:                    OSStatus { -25298 }
public var errSecDuplicateItem:                      OSStatus { -25299 }
public var errSecItemNotFound:                       OSStatus { -25300 }
public var errSecBufferTooSmall:                     OSStatus { -25301 }
public var errSecDataTooLarge:                       OSStatus { -25302 }
public var errSecNoSuchAttr:                         OSStatus { -25303 }
public var errSecInvalidItemRef:                     OSStatus { -25304 }
public var errSecInvalidSearchRef:                   OSStatus { -25305 }
public var errSecNoSuchClass:                        OSStatus { -25306 }
public var errSecNoDefaultKeychain:                  OSStatus { -25307 }
public var errSecInteractionNotAllowed:              OSStatus { -25308 }
public var errSecReadOnlyAttr:                       OSStatus { -25309 }
public var errSecWrongSecVersion:                    OSStatus { -25310 }
public var errSecKeySizeNotAllowed:                  OSStatus { -25311 }
public var errSecNoStorageModule:                    OSStatus { -25312 }
public var errSecNoCertificateModule:                OSStatus { -25313 }
public var errSecNoPolicyModule:                     OSStatus { -25314 }
public var errSecInteractionRequired:                OSStatus { -25315 }
public var errSecDataNotAvailable:                   OSStatus { -25316 }
public var errSecDataNotModifiable:                  OSStatus { -25317 }
public var errSecCreateChainFailed:                  OSStatus { -25318 }
public var errSecInvalidPrefsDomain:                 OSStatus { -25319 }
public var errSecInDarkWake:                         OSStatus { -25320 }

// MARK: - Access control, trust settings and import/export

// Status codes from ACLs, trust settings, and item import and export.

public var errSecACLNotSimple:                       OSStatus { -25240 }
public var errSecPolicyNotFound:                     OSStatus { -25241 }
public var errSecInvalidTrustSetting:                OSStatus { -25242 }
public var errSecNoAccessForItem:                    OSStatus { -25243 }
public var errSecInvalidOwnerEdit:                   OSStatus { -25244 }
public var errSecTrustNotAvailable:                  OSStatus { -25245 }
public var errSecUnsupportedFormat:                  OSStatus { -25256 }
public var errSecUnknownFormat:                      OSStatus { -25257 }
public var errSecKeyIsSensitive:                     OSStatus { -25258 }
public var errSecMultiplePrivKeys:                   OSStatus { -25259 }
public var errSecPassphraseRequired:                 OSStatus { -25260 }
public var errSecInvalidPasswordRef:                 OSStatus { -25261 }
public var errSecInvalidTrustSettings:               OSStatus { -25262 }
public var errSecNoTrustSettings:                    OSStatus { -25263 }
public var errSecPkcs12VerifyFailure:                OSStatus { -25264 }

// MARK: - Certificate signing and decoding

// Status codes from certificate and key decoding.

public var errSecNotSigner:                          OSStatus { -26267 }
public var errSecDecode:                             OSStatus { -26275 }

// MARK: - CSSM-era status codes

// Status codes inherited from the CSSM layer of macOS, kept for compatibility.

public var errSecServiceNotAvailable:                OSStatus { -67585 }
public var errSecInsufficientClientID:               OSStatus { -67586 }
public var errSecDeviceReset:                        OSStatus { -67587 }
public var errSecDeviceFailed:                       OSStatus { -67588 }
public var errSecAppleAddAppACLSubject:              OSStatus { -67589 }
public var errSecApplePublicKeyIncomplete:           OSStatus { -67590 }
public var errSecAppleSignatureMismatch:             OSStatus { -67591 }
public var errSecAppleInvalidKeyStartDate:           OSStatus { -67592 }
public var errSecAppleInvalidKeyEndDate:             OSStatus { -67593 }
public var errSecConversionError:                    OSStatus { -67594 }
public var errSecAppleSSLv2Rollback:                 OSStatus { -67595 }
public var errSecQuotaExceeded:                      OSStatus { -67596 }
public var errSecFileTooBig:                         OSStatus { -67597 }
public var errSecInvalidDatabaseBlob:                OSStatus { -67598 }
public var errSecInvalidKeyBlob:                     OSStatus { -67599 }
public var errSecIncompatibleDatabaseBlob:           OSStatus { -67600 }
public var errSecIncompatibleKeyBlob:                OSStatus { -67601 }
public var errSecHostNameMismatch:                   OSStatus { -67602 }
public var errSecUnknownCriticalExtensionFlag:       OSStatus { -67603 }
public var errSecNoBasicConstraints:                 OSStatus { -67604 }
public var errSecNoBasicConstraintsCA:               OSStatus { -67605 }
public var errSecInvalidAuthorityKeyID:              OSStatus { -67606 }
public var errSecInvalidSubjectKeyID:                OSStatus { -67607 }
public var errSecInvalidKeyUsageForPolicy:           OSStatus { -67608 }
public var errSecInvalidExtendedKeyUsage:            OSStatus { -67609 }
public var errSecInvalidIDLinkage:                   OSStatus { -67610 }
public var errSecPathLengthConstraintExceeded:       OSStatus { -67611 }
public var errSecInvalidRoot:                        OSStatus { -67612 }
public var errSecCRLExpired:                         OSStatus { -67613 }
public var errSecCRLNotValidYet:                     OSStatus { -67614 }
public var errSecCRLNotFound:                        OSStatus { -67615 }
public var errSecCRLServerDown:                      OSStatus { -67616 }
public var errSecCRLBadURI:                          OSStatus { -67617 }
public var errSecUnknownCertExtension:               OSStatus { -67618 }
public var errSecUnknownCRLExtension:                OSStatus { -67619 }
public var errSecCRLNotTrusted:                      OSStatus { -67620 }
public var errSecCRLPolicyFailed:                    OSStatus { -67621 }
public var errSecIDPFailure:                         OSStatus { -67622 }
public var errSecSMIMEEmailAddressesNotFound:        OSStatus { -67623 }
public var errSecSMIMEBadExtendedKeyUsage:           OSStatus { -67624 }
public var errSecSMIMEBadKeyUsage:                   OSStatus { -67625 }
public var errSecSMIMEKeyUsageNotCritical:           OSStatus { -67626 }
public var errSecSMIMENoEmailAddress:                OSStatus { -67627 }
public var errSecSMIMESubjAltNameNotCritical:        OSStatus { -67628 }
public var errSecSSLBadExtendedKeyUsage:             OSStatus { -67629 }
public var errSecOCSPBadResponse:                    OSStatus { -67630 }
public var errSecOCSPBadRequest:                     OSStatus { -67631 }
public var errSecOCSPUnavailable:                    OSStatus { -67632 }
public var errSecOCSPStatusUnrecognized:             OSStatus { -67633 }
public var errSecEndOfData:                          OSStatus { -67634 }
public var errSecIncompleteCertRevocationCheck:      OSStatus { -67635 }
public var errSecNetworkFailure:                     OSStatus { -67636 }
public var errSecOCSPNotTrustedToAnchor:             OSStatus { -67637 }
public var errSecRecordModified:                     OSStatus { -67638 }
public var errSecOCSPSignatureError:                 OSStatus { -67639 }
public var errSecOCSPNoSigner:                       OSStatus { -67640 }
public var errSecOCSPResponderMalformedReq:          OSStatus { -67641 }
public var errSecOCSPResponderInternalError:         OSStatus { -67642 }
public var errSecOCSPResponderTryLater:              OSStatus { -67643 }
public var errSecOCSPResponderSignatureRequired:     OSStatus { -67644 }
public var errSecOCSPResponderUnauthorized:          OSStatus { -67645 }
public var errSecOCSPResponseNonceMismatch:          OSStatus { -67646 }
public var errSecCodeSigningBadCertChainLength:      OSStatus { -67647 }
public var errSecCodeSigningNoBasicConstraints:      OSStatus { -67648 }
public var errSecCodeSigningBadPathLengthConstraint: OSStatus { -67649 }
public var errSecCodeSigningNoExtendedKeyUsage:      OSStatus { -67650 }
public var errSecCodeSigningDevelopment:             OSStatus { -67651 }
public var errSecResourceSignBadCertChainLength:     OSStatus { -67652 }
public var errSecResourceSignBadExtKeyUsage:         OSStatus { -67653 }
public var errSecTrustSettingDeny:                   OSStatus { -67654 }
public var errSecInvalidSubjectName:                 OSStatus { -67655 }
public var errSecUnknownQualifiedCertStatement:      OSStatus { -67656 }
public var errSecMobileMeRequestQueued:              OSStatus { -67657 }
public var errSecMobileMeRequestRedirected:          OSStatus { -67658 }
public var errSecMobileMeServerError:                OSStatus { -67659 }
public var errSecMobileMeServerNotAvailable:         OSStatus { -67660 }
public var errSecMobileMeServerAlreadyExists:        OSStatus { -67661 }
public var errSecMobileMeServerServiceErr:           OSStatus { -67662 }
public var errSecMobileMeRequestAlreadyPending:      OSStatus { -67663 }
public var errSecMobileMeNoRequestPending:           OSStatus { -67664 }
public var errSecMobileMeCSRVerifyFailure:           OSStatus { -67665 }
public var errSecMobileMeFailedConsistencyCheck:     OSStatus { -67666 }
public var errSecNotInitialized:                     OSStatus { -67667 }
public var errSecInvalidHandleUsage:                 OSStatus { -67668 }
public var errSecPVCReferentNotFound:                OSStatus { -67669 }
public var errSecFunctionIntegrityFail:              OSStatus { -67670 }
public var errSecInternalError:                      OSStatus { -67671 }
public var errSecMemoryError:                        OSStatus { -67672 }
public var errSecInvalidData:                        OSStatus { -67673 }
public var errSecMDSError:                           OSStatus { -67674 }
public var errSecInvalidPointer:                     OSStatus { -67675 }
public var errSecSelfCheckFailed:                    OSStatus { -67676 }
public var errSecFunctionFailed:                     OSStatus { -67677 }
public var errSecModuleManifestVerifyFailed:         OSStatus { -67678 }
public var errSecInvalidGUID:                        OSStatus { -67679 }
public var errSecInvalidHandle:                      OSStatus { -67680 }
public var errSecInvalidDBList:                      OSStatus { -67681 }
public var errSecInvalidPassthroughID:               OSStatus { -67682 }
public var errSecInvalidNetworkAddress:              OSStatus { -67683 }
public var errSecCRLAlreadySigned:                   OSStatus { -67684 }
public var errSecInvalidNumberOfFields:              OSStatus { -67685 }
public var errSecVerificationFailure:                OSStatus { -67686 }
public var errSecUnknownTag:                         OSStatus { -67687 }
public var errSecInvalidSignature:                   OSStatus { -67688 }
public var errSecInvalidName:                        OSStatus { -67689 }
public var errSecInvalidCertificateRef:              OSStatus { -67690 }
public var errSecInvalidCertificateGroup:            OSStatus { -67691 }
public var errSecTagNotFound:                        OSStatus { -67692 }
public var errSecInvalidQuery:                       OSStatus { -67693 }
public var errSecInvalidValue:                       OSStatus { -67694 }
public var errSecCallbackFailed:                     OSStatus { -67695 }
public var errSecACLDeleteFailed:                    OSStatus { -67696 }
public var errSecACLReplaceFailed:                   OSStatus { -67697 }
public var errSecACLAddFailed:                       OSStatus { -67698 }
public var errSecACLChangeFailed:                    OSStatus { -67699 }
public var errSecInvalidAccessCredentials:           OSStatus { -67700 }
public var errSecInvalidRecord:                      OSStatus { -67701 }
public var errSecInvalidACL:                         OSStatus { -67702 }
public var errSecInvalidSampleValue:                 OSStatus { -67703 }
public var errSecIncompatibleVersion:                OSStatus { -67704 }
public var errSecPrivilegeNotGranted:                OSStatus { -67705 }
public var errSecInvalidScope:                       OSStatus { -67706 }
public var errSecPVCAlreadyConfigured:               OSStatus { -67707 }
public var errSecInvalidPVC:                         OSStatus { -67708 }
public var errSecEMMLoadFailed:                      OSStatus { -67709 }
public var errSecEMMUnloadFailed:                    OSStatus { -67710 }
public var errSecAddinLoadFailed:                    OSStatus { -67711 }
public var errSecInvalidKeyRef:                      OSStatus { -67712 }
public var errSecInvalidKeyHierarchy:                OSStatus { -67713 }
public var errSecAddinUnloadFailed:                  OSStatus { -67714 }
public var errSecLibraryReferenceNotFound:           OSStatus { -67715 }
public var errSecInvalidAddinFunctionTable:          OSStatus { -67716 }
public var errSecInvalidServiceMask:                 OSStatus { -67717 }
public var errSecModuleNotLoaded:                    OSStatus { -67718 }
public var errSecInvalidSubServiceID:                OSStatus { -67719 }
public var errSecAttributeNotInContext:              OSStatus { -67720 }
public var errSecModuleManagerInitializeFailed:      OSStatus { -67721 }
public var errSecModuleManagerNotFound:              OSStatus { -67722 }
public var errSecEventNotificationCallbackNotFound:  OSStatus { -67723 }
public var errSecInputLengthError:                   OSStatus { -67724 }
public var errSecOutputLengthError:                  OSStatus { -67725 }
public var errSecPrivilegeNotSupported:              OSStatus { -67726 }
public var errSecDeviceError:                        OSStatus { -67727 }
public var errSecAttachHandleBusy:                   OSStatus { -67728 }
public var errSecNotLoggedIn:                        OSStatus { -67729 }
public var errSecAlgorithmMismatch:                  OSStatus { -67730 }
public var errSecKeyUsageIncorrect:                  OSStatus { -67731 }
public var errSecKeyBlobTypeIncorrect:               OSStatus { -67732 }
public var errSecKeyHeaderInconsistent:              OSStatus { -67733 }
public var errSecUnsupportedKeyFormat:               OSStatus { -67734 }
public var errSecUnsupportedKeySize:                 OSStatus { -67735 }
public var errSecInvalidKeyUsageMask:                OSStatus { -67736 }
public var errSecUnsupportedKeyUsageMask:            OSStatus { -67737 }
public var errSecInvalidKeyAttributeMask:            OSStatus { -67738 }
public var errSecUnsupportedKeyAttributeMask:        OSStatus { -67739 }
public var errSecInvalidKeyLabel:                    OSStatus { -67740 }
public var errSecUnsupportedKeyLabel:                OSStatus { -67741 }
public var errSecInvalidKeyFormat:                   OSStatus { -67742 }
public var errSecUnsupportedVectorOfBuffers:         OSStatus { -67743 }
public var errSecInvalidInputVector:                 OSStatus { -67744 }
public var errSecInvalidOutputVector:                OSStatus { -67745 }
public var errSecInvalidContext:                     OSStatus { -67746 }
public var errSecInvalidAlgorithm:                   OSStatus { -67747 }
public var errSecInvalidAttributeKey:                OSStatus { -67748 }
public var errSecMissingAttributeKey:                OSStatus { -67749 }
public var errSecInvalidAttributeInitVector:         OSStatus { -67750 }
public var errSecMissingAttributeInitVector:         OSStatus { -67751 }
public var errSecInvalidAttributeSalt:               OSStatus { -67752 }
public var errSecMissingAttributeSalt:               OSStatus { -67753 }
public var errSecInvalidAttributePadding:            OSStatus { -67754 }
public var errSecMissingAttributePadding:            OSStatus { -67755 }
public var errSecInvalidAttributeRandom:             OSStatus { -67756 }
public var errSecMissingAttributeRandom:             OSStatus { -67757 }
public var errSecInvalidAttributeSeed:               OSStatus { -67758 }
public var errSecMissingAttributeSeed:               OSStatus { -67759 }
public var errSecInvalidAttributePassphrase:         OSStatus { -67760 }
public var errSecMissingAttributePassphrase:         OSStatus { -67761 }
public var errSecInvalidAttributeKeyLength:          OSStatus { -67762 }
public var errSecMissingAttributeKeyLength:          OSStatus { -67763 }
public var errSecInvalidAttributeBlockSize:          OSStatus { -67764 }
public var errSecMissingAttributeBlockSize:          OSStatus { -67765 }
public var errSecInvalidAttributeOutputSize:         OSStatus { -67766 }
public var errSecMissingAttributeOutputSize:         OSStatus { -67767 }
public var errSecInvalidAttributeRounds:             OSStatus { -67768 }
public var errSecMissingAttributeRounds:             OSStatus { -67769 }
public var errSecInvalidAlgorithmParms:              OSStatus { -67770 }
public var errSecMissingAlgorithmParms:              OSStatus { -67771 }
public var errSecInvalidAttributeLabel:              OSStatus { -67772 }
public var errSecMissingAttributeLabel:              OSStatus { -67773 }
public var errSecInvalidAttributeKeyType:            OSStatus { -67774 }
public var errSecMissingAttributeKeyType:            OSStatus { -67775 }
public var errSecInvalidAttributeMode:               OSStatus { -67776 }
public var errSecMissingAttributeMode:               OSStatus { -67777 }
public var errSecInvalidAttributeEffectiveBits:      OSStatus { -67778 }
public var errSecMissingAttributeEffectiveBits:      OSStatus { -67779 }
public var errSecInvalidAttributeStartDate:          OSStatus { -67780 }
public var errSecMissingAttributeStartDate:          OSStatus { -67781 }
public var errSecInvalidAttributeEndDate:            OSStatus { -67782 }
public var errSecMissingAttributeEndDate:            OSStatus { -67783 }
public var errSecInvalidAttributeVersion:            OSStatus { -67784 }
public var errSecMissingAttributeVersion:            OSStatus { -67785 }
public var errSecInvalidAttributePrime:              OSStatus { -67786 }
public var errSecMissingAttributePrime:              OSStatus { -67787 }
public var errSecInvalidAttributeBase:               OSStatus { -67788 }
public var errSecMissingAttributeBase:               OSStatus { -67789 }
public var errSecInvalidAttributeSubprime:           OSStatus { -67790 }
public var errSecMissingAttributeSubprime:           OSStatus { -67791 }
public var errSecInvalidAttributeIterationCount:     OSStatus { -67792 }
public var errSecMissingAttributeIterationCount:     OSStatus { -67793 }
public var errSecInvalidAttributeDLDBHandle:         OSStatus { -67794 }
public var errSecMissingAttributeDLDBHandle:         OSStatus { -67795 }
public var errSecInvalidAttributeAccessCredentials:  OSStatus { -67796 }
public var errSecMissingAttributeAccessCredentials:  OSStatus { -67797 }
public var errSecInvalidAttributePublicKeyFormat:    OSStatus { -67798 }
public var errSecMissingAttributePublicKeyFormat:    OSStatus { -67799 }
public var errSecInvalidAttributePrivateKeyFormat:   OSStatus { -67800 }
public var errSecMissingAttributePrivateKeyFormat:   OSStatus { -67801 }
public var errSecInvalidAttributeSymmetricKeyFormat: OSStatus { -67802 }
public var errSecMissingAttributeSymmetricKeyFormat: OSStatus { -67803 }
public var errSecInvalidAttributeWrappedKeyFormat:   OSStatus { -67804 }
public var errSecMissingAttributeWrappedKeyFormat:   OSStatus { -67805 }
public var errSecStagedOperationInProgress:          OSStatus { -67806 }
public var errSecStagedOperationNotStarted:          OSStatus { -67807 }
public var errSecVerifyFailed:                       OSStatus { -67808 }
public var errSecQuerySizeUnknown:                   OSStatus { -67809 }
public var errSecBlockSizeMismatch:                  OSStatus { -67810 }
public var errSecPublicKeyInconsistent:              OSStatus { -67811 }
public var errSecDeviceVerifyFailed:                 OSStatus { -67812 }
public var errSecInvalidLoginName:                   OSStatus { -67813 }
public var errSecAlreadyLoggedIn:                    OSStatus { -67814 }
public var errSecInvalidDigestAlgorithm:             OSStatus { -67815 }
public var errSecInvalidCRLGroup:                    OSStatus { -67816 }
public var errSecCertificateCannotOperate:           OSStatus { -67817 }
public var errSecCertificateExpired:                 OSStatus { -67818 }
public var errSecCertificateNotValidYet:             OSStatus { -67819 }
public var errSecCertificateRevoked:                 OSStatus { -67820 }
public var errSecCertificateSuspended:               OSStatus { -67821 }
public var errSecInsufficientCredentials:            OSStatus { -67822 }
public var errSecInvalidAction:                      OSStatus { -67823 }
public var errSecInvalidAuthority:                   OSStatus { -67824 }
public var errSecVerifyActionFailed:                 OSStatus { -67825 }
public var errSecInvalidCertAuthority:               OSStatus { -67826 }
public var errSecInvalidCRLAuthority:                OSStatus { -67827 }
@available(*, deprecated, renamed: "errSecInvalidCRLAuthority")
public var errSecInvaldCRLAuthority:                 OSStatus { -67827 }
public var errSecInvalidCRLEncoding:                 OSStatus { -67828 }
public var errSecInvalidCRLType:                     OSStatus { -67829 }
public var errSecInvalidCRL:                         OSStatus { -67830 }
public var errSecInvalidFormType:                    OSStatus { -67831 }
public var errSecInvalidID:                          OSStatus { -67832 }
public var errSecInvalidIdentifier:                  OSStatus { -67833 }
public var errSecInvalidIndex:                       OSStatus { -67834 }
public var errSecInvalidPolicyIdentifiers:           OSStatus { -67835 }
public var errSecInvalidTimeString:                  OSStatus { -67836 }
public var errSecInvalidReason:                      OSStatus { -67837 }
public var errSecInvalidRequestInputs:               OSStatus { -67838 }
public var errSecInvalidResponseVector:              OSStatus { -67839 }
public var errSecInvalidStopOnPolicy:                OSStatus { -67840 }
public var errSecInvalidTuple:                       OSStatus { -67841 }
public var errSecMultipleValuesUnsupported:          OSStatus { -67842 }
public var errSecNotTrusted:                         OSStatus { -67843 }
public var errSecNoDefaultAuthority:                 OSStatus { -67844 }
public var errSecRejectedForm:                       OSStatus { -67845 }
public var errSecRequestLost:                        OSStatus { -67846 }
public var errSecRequestRejected:                    OSStatus { -67847 }
public var errSecUnsupportedAddressType:             OSStatus { -67848 }
public var errSecUnsupportedService:                 OSStatus { -67849 }
public var errSecInvalidTupleGroup:                  OSStatus { -67850 }
public var errSecInvalidBaseACLs:                    OSStatus { -67851 }
public var errSecInvalidTupleCredentials:            OSStatus { -67852 }
@available(*, deprecated, renamed: "errSecInvalidTupleCredentials")
public var errSecInvalidTupleCredendtials:           OSStatus { -67852 }
public var errSecInvalidEncoding:                    OSStatus { -67853 }
public var errSecInvalidValidityPeriod:              OSStatus { -67854 }
public var errSecInvalidRequestor:                   OSStatus { -67855 }
public var errSecRequestDescriptor:                  OSStatus { -67856 }
public var errSecInvalidBundleInfo:                  OSStatus { -67857 }
public var errSecInvalidCRLIndex:                    OSStatus { -67858 }
public var errSecNoFieldValues:                      OSStatus { -67859 }
public var errSecUnsupportedFieldFormat:             OSStatus { -67860 }
public var errSecUnsupportedIndexInfo:               OSStatus { -67861 }
public var errSecUnsupportedLocality:                OSStatus { -67862 }
public var errSecUnsupportedNumAttributes:           OSStatus { -67863 }
public var errSecUnsupportedNumIndexes:              OSStatus { -67864 }
public var errSecUnsupportedNumRecordTypes:          OSStatus { -67865 }
public var errSecFieldSpecifiedMultiple:             OSStatus { -67866 }
public var errSecIncompatibleFieldFormat:            OSStatus { -67867 }
public var errSecInvalidParsingModule:               OSStatus { -67868 }
public var errSecDatabaseLocked:                     OSStatus { -67869 }
public var errSecDatastoreIsOpen:                    OSStatus { -67870 }
public var errSecMissingValue:                       OSStatus { -67871 }
public var errSecUnsupportedQueryLimits:             OSStatus { -67872 }
public var errSecUnsupportedNumSelectionPreds:       OSStatus { -67873 }
public var errSecUnsupportedOperator:                OSStatus { -67874 }
public var errSecInvalidDBLocation:                  OSStatus { -67875 }
public var errSecInvalidAccessRequest:               OSStatus { -67876 }
public var errSecInvalidIndexInfo:                   OSStatus { -67877 }
public var errSecInvalidNewOwner:                    OSStatus { -67878 }
public var errSecInvalidModifyMode:                  OSStatus { -67879 }
public var errSecMissingRequiredExtension:           OSStatus { -67880 }
public var errSecExtendedKeyUsageNotCritical:        OSStatus { -67881 }
public var errSecTimestampMissing:                   OSStatus { -67882 }
public var errSecTimestampInvalid:                   OSStatus { -67883 }
public var errSecTimestampNotTrusted:                OSStatus { -67884 }
public var errSecTimestampServiceNotAvailable:       OSStatus { -67885 }
public var errSecTimestampBadAlg:                    OSStatus { -67886 }
public var errSecTimestampBadRequest:                OSStatus { -67887 }
public var errSecTimestampBadDataFormat:             OSStatus { -67888 }
public var errSecTimestampTimeNotAvailable:          OSStatus { -67889 }
public var errSecTimestampUnacceptedPolicy:          OSStatus { -67890 }
public var errSecTimestampUnacceptedExtension:       OSStatus { -67891 }
public var errSecTimestampAddInfoNotAvailable:       OSStatus { -67892 }
public var errSecTimestampSystemFailure:             OSStatus { -67893 }
public var errSecSigningTimeMissing:                 OSStatus { -67894 }
public var errSecTimestampRejection:                 OSStatus { -67895 }
public var errSecTimestampWaiting:                   OSStatus { -67896 }
public var errSecTimestampRevocationWarning:         OSStatus { -67897 }
public var errSecTimestampRevocationNotification:    OSStatus { -67898 }
public var errSecCertificatePolicyNotAllowed:        OSStatus { -67899 }
public var errSecCertificateNameNotAllowed:          OSStatus { -67900 }
public var errSecCertificateValidityPeriodTooLong:   OSStatus { -67901 }
public var errSecCertificateIsCA:                    OSStatus { -67902 }
public var errSecCertificateDuplicateExtension:      OSStatus { -67903 }

// MARK: - Private (SPI) status codes

// Status codes from Apple's private SecBasePriv.h that this implementation returns.

public var errSecAuthNeeded:                         OSStatus { -25330 }
public var errSecInternal:                           OSStatus { -26276 }
public var errSecUpgradePending:                     OSStatus { -34019 }

#endif
