@_exported import LocalAuth
