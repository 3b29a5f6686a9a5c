@_exported import KeychainServices
