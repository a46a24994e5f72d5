/// The version of switchboard-bridge, written in this one place.
///
/// `packaging/build-deb` reads it from this file (the line below, as it stands) to name
/// and stamp the Debian package, and refuses to build unless the first entry of
/// `packaging/changelog` carries the same version; `PackagingTests` checks both.
public enum BridgeVersion {
    public static let number = "0.1.0"
}
