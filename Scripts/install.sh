#!/usr/bin/env bash
# Installs `security` and `securityd`, and securityd's systemd units.
#
#   Scripts/install.sh                 # for this user: ~/.local/bin and ~/.config/systemd/user
#   PREFIX=/usr/local Scripts/install.sh
#   sudo Scripts/install.sh --system   # for every user: /usr/local/bin, the system units, an account
#
# User mode: where systemd runs the user's session, the socket unit is enabled and started: the
# daemon then starts on first use and holds the keychain for every process of the session. Without
# systemd (containers, CI) nothing more is needed: the first client starts securityd itself.
#
# System mode: securityd runs as the account `swift-keychain` and keeps each user's keychain in
# /var/lib/swift-keychain/<uid>/, which no user can read; clients find it at
# /run/swift-keychain/socket. Without systemd, start it yourself as that account:
#   setpriv --reuid=swift-keychain --regid=swift-keychain --init-groups /usr/local/bin/securityd --system
set -euo pipefail
cd "$(dirname "$0")/.."

mode=user
if [[ "${1:-}" == "--system" ]]; then mode=system; fi

swift build -c release --product security
swift build -c release --product securityd
built="$(swift build -c release --show-bin-path)"

if [[ $mode == user ]]; then
    prefix="${PREFIX:-$HOME/.local}"
    unitdir="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"
    units=Support/systemd
else
    if [[ $(id -u) != 0 ]]; then echo "install.sh --system must run as root" >&2; exit 1; fi
    prefix="${PREFIX:-/usr/local}"
    unitdir=/etc/systemd/system
    units=Support/systemd/system
fi
bindir="$prefix/bin"

install -d -m 0755 "$bindir"
install -m 0755 "$built/security" "$bindir/security"
install -m 0755 "$built/securityd" "$bindir/securityd"
echo "installed $bindir/security and $bindir/securityd"

install -d -m 0755 "$unitdir"
install -m 0644 "$units/swift-keychain-securityd.socket" "$unitdir/"
sed "s|@BINDIR@|$bindir|g" "$units/swift-keychain-securityd.service" > "$unitdir/swift-keychain-securityd.service"
chmod 0644 "$unitdir/swift-keychain-securityd.service"
echo "installed the systemd units in $unitdir"

if [[ $mode == user ]]; then
    if command -v systemctl > /dev/null && systemctl --user show-environment > /dev/null 2>&1; then
        systemctl --user daemon-reload
        systemctl --user enable --now swift-keychain-securityd.socket
        echo "enabled swift-keychain-securityd.socket"
    else
        echo "no systemd user session: clients start securityd on first use (the default, KEYCHAIN_ENGINE=auto)"
    fi
    exit 0
fi

# The account and the folders.
install -D -m 0644 Support/systemd/system/swift-keychain.sysusers.conf /etc/sysusers.d/swift-keychain.conf
install -D -m 0644 Support/systemd/system/swift-keychain.tmpfiles.conf /etc/tmpfiles.d/swift-keychain.conf
if command -v systemd-sysusers > /dev/null; then
    systemd-sysusers /etc/sysusers.d/swift-keychain.conf
elif ! id swift-keychain > /dev/null 2>&1; then
    useradd --system --home-dir /var/lib/swift-keychain --no-create-home --shell /usr/sbin/nologin swift-keychain
fi
if command -v systemd-tmpfiles > /dev/null; then
    systemd-tmpfiles --create /etc/tmpfiles.d/swift-keychain.conf
else
    install -d -m 0700 -o swift-keychain -g swift-keychain /var/lib/swift-keychain
    install -d -m 0755 -o swift-keychain -g swift-keychain /run/swift-keychain
fi
echo "the account swift-keychain owns /var/lib/swift-keychain (0700) and /run/swift-keychain (0755)"

if command -v systemctl > /dev/null && [[ -d /run/systemd/system ]]; then
    systemctl daemon-reload
    systemctl enable --now swift-keychain-securityd.socket
    echo "enabled swift-keychain-securityd.socket: clients use it whenever KEYCHAIN_HOME and KEYCHAIN_SOCKET are unset"
else
    echo "no systemd: start securityd --system as swift-keychain yourself (see the top of this script)"
fi
