#!/usr/bin/env bash
# Installs `security` and `securityd`, and securityd's systemd units.
#
#   sudo Scripts/install.sh            # where systemd runs: system mode (below), the recommended one
#   Scripts/install.sh --user          # for this user only: ~/.local/bin and ~/.config/systemd/user
#   PREFIX=/usr/local Scripts/install.sh --user
#   Scripts/install.sh --debug         # from the debug build `swift build` made (to try the script)
#   Scripts/install.sh --user --secret-service   # also the desktop's keyring: org.freedesktop.secrets
#   sudo Scripts/install.sh --pam      # also pam_swift_keychain.so: the login password unlocks the keychain
#
# Without a flag the mode is system where systemd runs as init and user mode elsewhere (containers,
# CI). Only system mode keeps the user's own programs from the keychain's files and from the
# daemon's settings: in user mode any program of the user can stop the daemon and start its own.
#
# The release build takes minutes on two cores the first time (4 here with part of it cached; a
# newcomer's first run took about 20); each step says what it does. The programs are installed
# stripped: the three release programs measured 332 MB built, 207 MB stripped.
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

mode=
configuration=release
secret_service=no
pam=no
for argument in "$@"; do
    case $argument in
        --system) mode=system ;;
        --user) mode=user ;;
        --debug) configuration=debug ;;
        --secret-service) secret_service=yes ;;
        --pam) pam=yes ;;
        *) echo "install.sh: unknown option $argument (--system, --user, --debug, --secret-service, --pam)" >&2; exit 2 ;;
    esac
done
if [[ -z $mode ]]; then
    if [[ -d /run/systemd/system ]]; then
        mode=system
        if [[ $(id -u) != 0 ]]; then
            echo "install.sh: where systemd runs, securityd is installed in system mode, as its own account," >&2
            echo "  which needs root: sudo $0 $*   (or $0 --user for this user only, the weaker mode)" >&2
            exit 1
        fi
    else
        mode=user
    fi
fi
if [[ $secret_service == yes && $mode != user ]]; then
    # The Secret Service lives on each user's session bus: the user's own securityd serves it.
    echo "install.sh: --secret-service goes with --user (the user's securityd serves the session bus)" >&2
    exit 2
fi
if [[ $pam == yes && $(id -u) != 0 ]]; then
    # The module goes where PAM loads modules from, for every login program: root's folders.
    echo "install.sh: --pam installs a PAM module for every login, which needs root: sudo $0 $*" >&2
    exit 1
fi
if [[ $pam == yes && ! -f /usr/include/security/pam_modules.h ]]; then
    echo "install.sh: --pam builds the module against libpam's headers: apt-get install libpam0g-dev" >&2
    exit 1
fi
echo "installing in $mode mode"
step=0
steps=6
say() { step=$((step + 1)); echo "[$step/$steps] $*"; }

# The Swift runtime and Foundation linked in: a process starts in half the time (no dynamic
# loading and relocation of the toolchain's libraries), and the binaries do not depend on where
# the toolchain is installed.
# The `security` launcher is C, compiled with the system's C compiler (see below): find one first.
cc=${CC:-$(command -v cc || command -v clang || true)}
if [[ -z $cc ]]; then
    echo "install.sh: no C compiler (cc or clang) for the security launcher; install one or set CC" >&2
    exit 1
fi

if [[ $configuration == release ]]; then
    build=(swift build -c release --static-swift-stdlib)
    say "building security, security-lookup and securityd (release; several minutes the first time)"
else
    build=(swift build)
    say "building security, security-lookup and securityd (debug)"
fi
for product in security security-lookup securityd generate-manual; do
    "${build[@]}" --product "$product"
done
built="$("${build[@]}" --show-bin-path)"

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

# `security` is the launcher (a small C program): it runs libexec's security-lookup for the
# find-…-password commands (which answers a password look-up through securityd itself) and the full
# tool, libexec's security, for every other command. It is compiled here with the system's C
# compiler: SwiftPM links the Swift runtime into every executable it builds (the tests use that
# build), which would add 1–3 ms to every command's start.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
say "installing the programs in $bindir and $prefix/libexec/swift-keychain (stripped)"
$cc -O2 -o "$scratch/security" Sources/SecurityLauncher/main.c
libexecdir="$prefix/libexec/swift-keychain"
install -d -m 0755 "$bindir" "$libexecdir"
# Stripped: the symbol tables (most of a statically linked Swift program) are for debuggers.
strip=(-s)
command -v strip > /dev/null || { strip=(); echo "  strip (binutils) not found: installing unstripped programs" >&2; }
install "${strip[@]}" -m 0755 "$built/security" "$libexecdir/security"
install "${strip[@]}" -m 0755 "$built/security-lookup" "$libexecdir/security-lookup"
install "${strip[@]}" -m 0755 "$scratch/security" "$bindir/security"
install "${strip[@]}" -m 0755 "$built/securityd" "$bindir/securityd"
echo "  installed $bindir/security (with $libexecdir) and $bindir/securityd ($(du -sh "$libexecdir" | cut -f1) in libexec)"

# Manual pages, generated by swift-argument-parser's generate-manual from the built programs' help.
mandir="$prefix/share/man/man1"
say "writing the manual pages in $mandir"
install -d -m 0755 "$mandir"
for program in security securityd; do
    "$built/generate-manual" "$built/$program" --output-directory "$scratch"
    install -m 0644 "$scratch/$program.1" "$mandir/"
done
echo "  man security, man securityd"
if [[ $mode == user ]]; then
    datadir="${XDG_DATA_HOME:-$HOME/.local/share}"
    bashdir="$datadir/bash-completion/completions" zshdir="$datadir/zsh/site-functions"
    fishdir="${XDG_CONFIG_HOME:-$HOME/.config}/fish/completions"
else
    bashdir="$prefix/share/bash-completion/completions" zshdir="$prefix/share/zsh/site-functions"
    fishdir="$prefix/share/fish/vendor_completions.d"
fi
say "installing shell completions for bash, zsh and fish"
install -d -m 0755 "$bashdir" "$zshdir" "$fishdir"
"$libexecdir/security" --generate-completion-script bash > "$bashdir/security"
"$libexecdir/security" --generate-completion-script zsh > "$zshdir/_security"
"$libexecdir/security" --generate-completion-script fish > "$fishdir/security.fish"
if [[ ! -f /usr/share/bash-completion/bash_completion ]]; then
    echo "  bash loads completions through the bash-completion package, which is not installed (apt-get install bash-completion)"
fi

say "installing the systemd units in $unitdir"
install -d -m 0755 "$unitdir"
install -m 0644 "$units/swift-keychain-securityd.socket" "$unitdir/"
sed "s|@BINDIR@|$bindir|g" "$units/swift-keychain-securityd.service" > "$unitdir/swift-keychain-securityd.service"
chmod 0644 "$unitdir/swift-keychain-securityd.service"
if [[ $secret_service == yes ]]; then
    # The daemon also serves org.freedesktop.secrets, and the session bus starts it for the first
    # program that asks (the user's data folder comes before gnome-keyring's activation file).
    install -d -m 0755 "$unitdir/swift-keychain-securityd.service.d" "$datadir/dbus-1/services"
    sed "s|@BINDIR@|$bindir|g" Support/systemd/secret-service.conf > "$unitdir/swift-keychain-securityd.service.d/secret-service.conf"
    sed "s|@BINDIR@|$bindir|g" Support/dbus/org.freedesktop.secrets.service > "$datadir/dbus-1/services/org.freedesktop.secrets.service"
    echo "  the daemon serves the Secret Service; to go back, remove"
    echo "    $unitdir/swift-keychain-securityd.service.d/secret-service.conf"
    echo "    $datadir/dbus-1/services/org.freedesktop.secrets.service"
fi

# Whether the shell finds the programs: the line to add when it does not.
case ":$PATH:" in
    *":$bindir:"*) ;;
    *)
        echo "  $bindir is not on your PATH: add it, e.g. to ~/.profile:"
        echo "    export PATH=\"$bindir:\$PATH\""
        ;;
esac

if [[ $pam == yes ]]; then
    steps=$((steps + 1))
    # A C module with no Swift runtime (it loads into login, gdm, sshd, su), beside pam_unix.so.
    say "installing pam_swift_keychain.so, its pam-auth-update profile and its manual page"
    pam_unix=$(find /lib /usr/lib /lib64 /usr/lib64 -name pam_unix.so -path '*security*' 2> /dev/null | head -n 1)
    if [[ -z $pam_unix ]]; then
        echo "install.sh: cannot find where PAM keeps its modules (no pam_unix.so)" >&2
        exit 1
    fi
    $cc -shared -fPIC -O2 -fvisibility=hidden -o "$scratch/pam_swift_keychain.so" Sources/PAMModule/*.c -lpam
    install -m 0644 "$scratch/pam_swift_keychain.so" "$(dirname "$pam_unix")/pam_swift_keychain.so"
    install -d -m 0755 /usr/share/pam-configs "$prefix/share/man/man8"
    sed "s|@BINDIR@|$bindir|g" Support/pam/swift-keychain.pam-config > /usr/share/pam-configs/swift-keychain
    install -m 0644 Support/man/pam_swift_keychain.8 "$prefix/share/man/man8/"
    echo "  installed $(dirname "$pam_unix")/pam_swift_keychain.so (man pam_swift_keychain)"
    if command -v pam-auth-update > /dev/null; then
        echo "  turn it on for every login: pam-auth-update --enable swift-keychain"
    else
        echo "  turn it on: add the three lines of man pam_swift_keychain (EXAMPLES) to the login services"
    fi
fi

say "starting the daemon's socket"
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
# The TPM's group (tpm2-tss makes it; here if it did not): the daemon uses /dev/tpmrm0 through it.
getent group tss > /dev/null || groupadd --system tss
id -nG swift-keychain | tr ' ' '\n' | grep -qx tss || usermod -a -G tss swift-keychain
if command -v systemd-tmpfiles > /dev/null; then
    systemd-tmpfiles --create /etc/tmpfiles.d/swift-keychain.conf
else
    install -d -m 0700 -o swift-keychain -g swift-keychain /var/lib/swift-keychain
    install -d -m 0755 -o swift-keychain -g swift-keychain /run/swift-keychain
fi
echo "the account swift-keychain owns /var/lib/swift-keychain (0700) and /run/swift-keychain (0755)"
# The daemon's settings: root's file, never replaced once it exists (an administrator's edits stay).
if [[ ! -e /etc/swift-keychain/securityd.conf ]]; then
    install -D -m 0644 Support/systemd/system/securityd.conf /etc/swift-keychain/securityd.conf
    echo "wrote /etc/swift-keychain/securityd.conf (the daemon's settings, all commented out)"
fi

if command -v systemctl > /dev/null && [[ -d /run/systemd/system ]]; then
    systemctl daemon-reload
    systemctl enable --now swift-keychain-securityd.socket
    echo "enabled swift-keychain-securityd.socket: clients use it whenever KEYCHAIN_HOME and KEYCHAIN_SOCKET are unset"
else
    echo "no systemd: start securityd --system as swift-keychain yourself (see the top of this script)"
fi
