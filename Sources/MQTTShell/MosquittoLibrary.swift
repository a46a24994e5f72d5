import CMosquitto

/// `mosquitto_lib_init` exactly once per process (never cleaned up: the process owns it).
enum MosquittoLibrary {
    private static let initialised: Bool = {
        mosquitto_lib_init()
        return true
    }()

    static func ensureInitialised() {
        _ = initialised
    }
}
