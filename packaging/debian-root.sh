# Sourced by packaging/build-deb and packaging/test-arm64 (not run on its own): the one way
# this project makes and caches a Debian root with debootstrap.
#
# A root is made in NAME.partial, its recipe run in it, a stamp written last, and only then
# renamed to NAME: a run that is interrupted leaves a .partial that the next run deletes,
# never a root it would trust. The stamp holds a hash of the recipe (suite, architecture,
# mirror, the recipe function's text): a root whose recipe changed, or older than
# DEBIAN_ROOT_MAX_AGE_DAYS (14; the archive's security updates), is made again.
#
#   SWITCHBOARD_ROOT_CACHE   where the roots live (default /var/cache/switchboard-bridge)
#   SWITCHBOARD_DEBIAN_MIRROR  Debian's archive (default http://deb.debian.org/debian)

debian_root_cache="${SWITCHBOARD_ROOT_CACHE:-/var/cache/switchboard-bridge}"
debian_root_mirror="${SWITCHBOARD_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
debian_root_max_age_days="${DEBIAN_ROOT_MAX_AGE_DAYS:-14}"
debian_root_mounted=()

# Exits with a clear message unless this machine can make roots: root, amd64, debootstrap.
debian_root_require_host() { # debian_root_require_host WHO
    local who="$1" machine
    machine="$(uname -m)"
    [ "$machine" = x86_64 ] ||
        { echo "$who: this runs on an amd64 (x86_64) Debian or Ubuntu machine; this one is $machine. On an arm64 board running trixie, build natively instead: sudo apt install swiftlang libmosquitto-dev libcurl4-openssl-dev dpkg-dev, then packaging/build-deb (no --arch)" >&2; exit 2; }
    [ "$(id -u)" = 0 ] ||
        { echo "$who: run as root (sudo $0 ...): it makes a Debian root with debootstrap and chroot" >&2; exit 2; }
    command -v debootstrap >/dev/null ||
        { echo "$who: debootstrap is missing: apt-get install debootstrap" >&2; exit 2; }
    [ -e /usr/share/keyrings/debian-archive-keyring.gpg ] ||
        { echo "$who: Debian's archive keyring is missing: apt-get install debian-archive-keyring" >&2; exit 2; }
}

# Exits with a clear message unless Debian's archive answers (only needed to make a root).
debian_root_require_archive() { # debian_root_require_archive WHO SUITE
    local who="$1" suite="$2" url="$debian_root_mirror/dists/$2/InRelease" probe
    probe="$(mktemp)"
    if command -v curl >/dev/null; then
        curl -fsS --max-time 30 -o "$probe" "$url" 2>/dev/null
    elif command -v wget >/dev/null; then
        wget -q -T 30 -O "$probe" "$url"
    else
        timeout 30 /usr/lib/apt/apt-helper download-file "$url" "$probe" >/dev/null 2>&1
    fi || {
        rm -f "$probe"
        echo "$who: cannot reach Debian's archive ($url): the first run (and one every $debian_root_max_age_days days) downloads a $suite build root from it. Check the network or the proxy (http_proxy), or set SWITCHBOARD_DEBIAN_MIRROR to a reachable Debian mirror. Nothing was built." >&2
        exit 3
    }
    rm -f "$probe"
}

# The stamp a root must carry to be trusted: its recipe's hash.
debian_root_recipe_hash() { # SUITE ARCH RECIPE_FUNCTION
    { echo "$1 $2 $debian_root_mirror"; declare -f "$3"; } | sha256sum | cut -d' ' -f1
}

# Whether the root at PATH is complete, made by this recipe, and young enough.
debian_root_is_fresh() { # PATH HASH
    local stamp="$1/.switchboard-root-stamp"
    [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$2" ] &&
        [ -z "$(find "$stamp" -mtime +"$debian_root_max_age_days")" ]
}

debian_root_mount() { # ROOT: /proc, /sys, /dev (bound) for the chroot; unmounted by debian_root_unmount_all
    local root="$1"
    mount -t proc proc "$root/proc" && debian_root_mounted+=("$root/proc")
    mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" && debian_root_mounted+=("$root/dev")
    mount -t sysfs sysfs "$root/sys" 2>/dev/null && debian_root_mounted+=("$root/sys") || true
    cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
}

debian_root_unmount_all() {
    local i
    for ((i = ${#debian_root_mounted[@]} - 1; i >= 0; i--)); do
        umount -R "${debian_root_mounted[$i]}" 2>/dev/null || umount -l "${debian_root_mounted[$i]}" 2>/dev/null || true
    done
    debian_root_mounted=()
}

# Runs a command in ROOT with a clean environment.
debian_root_run() { # ROOT COMMAND...
    local root="$1"; shift
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
        ${http_proxy:+http_proxy="$http_proxy"} chroot "$root" "$@"
}

# Prints the path of a fresh root NAME (made now if missing or stale). RECIPE_FUNCTION ROOT
# runs once in the new root (mounted) to install what it needs. Takes a lock: one maker a time.
debian_root_ensure() { # WHO NAME SUITE ARCH RECIPE_FUNCTION
    local who="$1" name="$2" suite="$3" arch="$4" recipe="$5"
    local path="$debian_root_cache/$name" partial="$debian_root_cache/$name.partial" hash started
    mkdir -p "$debian_root_cache"
    exec {debian_root_lock}>"$debian_root_cache/$name.lock"
    flock "$debian_root_lock"
    hash="$(debian_root_recipe_hash "$suite" "$arch" "$recipe")"
    if debian_root_is_fresh "$path" "$hash"; then
        echo "$who: using the cached $suite $arch root $path" >&2
        echo "$path"
        return 0
    fi
    debian_root_require_archive "$who" "$suite"
    if [ -e "$path" ]; then echo "$who: $path is stale or incomplete: making it again" >&2; fi
    # A partial root from an interrupted run is never trusted: deleted, with anything left mounted in it.
    if [ -e "$partial" ]; then
        grep -o " $partial/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
        rm -rf --one-file-system "$partial"
    fi
    started=$SECONDS
    # Made in a subshell of its own: whatever ends it (an error, CI's bound sending SIGTERM,
    # Ctrl-C) unmounts what is mounted in the partial root, so nothing is left mounted there
    # (through the bind of /dev, a careless rm -rf of the cache would delete the host's /dev).
    (
        trap 'grep -o " $partial/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true' EXIT
        trap 'exit 143' TERM
        trap 'exit 130' INT
        trap 'exit 129' HUP
        echo "$who: making a $suite $arch root in $partial (debootstrap, then the recipe; a few minutes, once)" >&2
        local bootstrap=(debootstrap --variant=minbase --arch="$arch")
        if [ "$arch" != amd64 ]; then bootstrap+=(--foreign); fi
        "${bootstrap[@]}" "$suite" "$partial" "$debian_root_mirror" >"$debian_root_cache/$name.debootstrap.log" 2>&1 ||
            { tail -20 "$debian_root_cache/$name.debootstrap.log" >&2; echo "$who: debootstrap failed (log: $debian_root_cache/$name.debootstrap.log)" >&2; exit 1; }
        if [ "$arch" != amd64 ]; then
            debian_root_require_binfmt "$who" "$arch"
            debian_root_run "$partial" /debootstrap/debootstrap --second-stage >>"$debian_root_cache/$name.debootstrap.log" 2>&1 ||
                { tail -20 "$debian_root_cache/$name.debootstrap.log" >&2; echo "$who: debootstrap's second stage failed" >&2; exit 1; }
        fi
        debian_root_mount "$partial"
        # The recipe's output goes to the log (stdout is this function's answer: the path).
        "$recipe" "$partial" >>"$debian_root_cache/$name.debootstrap.log" 2>&1 &&
            debian_root_run "$partial" apt-get clean >>"$debian_root_cache/$name.debootstrap.log" 2>&1 ||
            { debian_root_unmount_all; tail -20 "$debian_root_cache/$name.debootstrap.log" >&2
              echo "$who: setting up the $suite $arch root failed (log: $debian_root_cache/$name.debootstrap.log)" >&2; exit 1; }
        debian_root_unmount_all
        echo "$hash" >"$partial/.switchboard-root-stamp"
        if [ -e "$path" ]; then rm -rf --one-file-system "$path"; fi
        mv "$partial" "$path"
    ) || return 1
    echo "$who: the $suite $arch root is ready in $((SECONDS - started)) s: $path" >&2
    echo "$path"
}

# Makes sure the kernel runs ARCH's binaries through qemu-user-static (binfmt_misc, the F
# flag: the interpreter is opened now, so it works inside a chroot).
debian_root_require_binfmt() { # WHO ARCH
    local who="$1" arch="$2" qemu_name
    case "$arch" in
        arm64) qemu_name=aarch64 ;;
        *) echo "$who: no emulation known for $arch" >&2; exit 2 ;;
    esac
    if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null ||
            { echo "$who: cannot mount binfmt_misc (needed to run $arch programs): run on a machine or container that allows it" >&2; exit 2; }
    fi
    if [ ! -e "/proc/sys/fs/binfmt_misc/qemu-$qemu_name" ]; then
        local conf="/usr/lib/binfmt.d/qemu-$qemu_name.conf"
        [ -f "$conf" ] && [ -x "/usr/bin/qemu-$qemu_name-static" ] ||
            { echo "$who: qemu-$qemu_name-static is missing: apt-get install qemu-user-static" >&2; exit 2; }
        grep "^:qemu-$qemu_name:" "$conf" >/proc/sys/fs/binfmt_misc/register ||
            { echo "$who: could not register qemu-$qemu_name with binfmt_misc" >&2; exit 2; }
    fi
    grep -q '^flags:.*F' "/proc/sys/fs/binfmt_misc/qemu-$qemu_name" ||
        { echo "$who: binfmt_misc's qemu-$qemu_name lacks the F flag: chroots cannot use it (see update-binfmts)" >&2; exit 2; }
}
