#!/usr/bin/env bash
# Installs `security` and `securityd` for this user, and securityd's systemd user units.
#
#   Scripts/install.sh                 # into ~/.local/bin and ~/.config/systemd/user
#   PREFIX=/usr/local Scripts/install.sh
#
# Where systemd runs the user's session, the socket unit is enabled and started: the daemon then
# starts on first use and holds the keychain for every process of the session. Without systemd
# (containers, CI) nothing more is needed: the first client starts securityd itself.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="${PREFIX:-$HOME/.local}"
bindir="$prefix/bin"
unitdir="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"

swift build -c release --product security
swift build -c release --product securityd
built="$(swift build -c release --show-bin-path)"

install -d -m 0755 "$bindir"
install -m 0755 "$built/security" "$bindir/security"
install -m 0755 "$built/securityd" "$bindir/securityd"
echo "installed $bindir/security and $bindir/securityd"

install -d -m 0755 "$unitdir"
install -m 0644 Support/systemd/swift-keychain-securityd.socket "$unitdir/"
sed "s|@BINDIR@|$bindir|g" Support/systemd/swift-keychain-securityd.service > "$unitdir/swift-keychain-securityd.service"
chmod 0644 "$unitdir/swift-keychain-securityd.service"
echo "installed the systemd user units in $unitdir"

if command -v systemctl > /dev/null && systemctl --user show-environment > /dev/null 2>&1; then
    systemctl --user daemon-reload
    systemctl --user enable --now swift-keychain-securityd.socket
    echo "enabled swift-keychain-securityd.socket"
else
    echo "no systemd user session: clients start securityd on first use (the default, KEYCHAIN_ENGINE=auto)"
fi
