@_exported import LocalAuth
// Apple's LocalAuthentication headers import Security: its API comes along.
@_exported import Security
